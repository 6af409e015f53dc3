"""Signing in from a Discord Activity: the table opened inside Discord (issue #24).

The Activity's page (``/activity``, through Discord's proxy ``/.proxy/activity``) runs the
Embedded App SDK: ``authorize`` gives it a code, which it sends here to be exchanged
(``POST /api/token``, since the exchange needs the client secret), then ``authenticate``
with the token, and asks for a seat (``POST /api/session``). The server never trusts what the
page says: it learns who the person is from Discord (``GET /users/@me`` with their token)
and checks the activity instance with the bot's token (``GET
/applications/{app}/activity-instances/{id}``): the instance's channel gives the table, and the
person must be in the instance. The answer is a ticket of :mod:`bot.service.tickets`, so the
socket (``/ws?t=TICKET``) and everything after it is the browser table's.

    POST /api/token    {"code"}                       → {"access_token"}
    POST /api/session  {"access_token", "instance_id"} → {"ticket", "seat", "lang"}
    refusals           → {"error": CODE, "message": TEXT in the person's language}
                         (503 "restoring" with Retry-After: the table is coming back)

An Activity launched from a DM (the button on the DM controller) runs in the DM channel,
which has no table: there the person's table is the one they sit at (the one they played at
last if several).
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp

from bot.service.config import DISCORD_API
from bot.service.errors import UserError
from bot.service.tickets import Tickets
from bot.text.catalog import lang_of
from bot.web.hub import seat_of

if TYPE_CHECKING:
    from bot.service.live import LiveTable
    from bot.service.tables import TableService

log = logging.getLogger("gouji.web.activity")

RETRIES = 3  # tries after a 429 on one call to Discord, each after its Retry-After
LONGEST_WAIT = 10.0  # seconds: a 429 asking for longer is not waited for
TIMEOUT = aiohttp.ClientTimeout(total=15)
INSTANCE_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")
CODE = re.compile(r"^[A-Za-z0-9_.~-]{1,200}$")
TOKEN = re.compile(r"^[A-Za-z0-9._~+/-]{1,200}=*$")  # a bearer token (RFC 6750's b64token)
RESTORING_RETRY = 2  # seconds a sign-in waits for a table coming back (Retry-After)
#: Discord asks every API client for a User-Agent of this form (its "API Reference")
USER_AGENT = "DiscordBot (https://github.com/gouji/gouji, 0.1.0) gouji-activity"


@dataclass(frozen=True, slots=True)
class ActivityKeys:
    """What the sign-in needs of the Discord application: the OAuth2 client (its id is the
    application's id) and secret, the bot's token, and Discord's REST API base."""

    client_id: int
    client_secret: str
    bot_token: str
    api_base: str = DISCORD_API


class SignInRefused(Exception):
    """The sign-in cannot go on: ``code`` (the JSON ``error``) and the HTTP ``status``; the
    text is the catalog's ``web_activity_CODE``; ``retry_after``: seconds after which to
    try again (``Retry-After``), if it is worth it."""

    def __init__(self, code: str, status: int, retry_after: int | None = None) -> None:
        super().__init__(code)
        self.code, self.status, self.retry_after = code, status, retry_after


@dataclass(frozen=True, slots=True)
class Reply:
    """A Discord answer: status and JSON body (None when it was not JSON)."""

    status: int
    body: Any


class DiscordApi:
    """The three Discord REST calls of the sign-in, on one aiohttp session. A 429 is
    retried after its ``retry_after`` (at most :data:`RETRIES` times, never waiting more
    than :data:`LONGEST_WAIT`); a 5xx, a network error or too many 429s is
    ``SignInRefused('unavailable')``."""

    def __init__(self, keys: ActivityKeys) -> None:
        self.keys = keys
        self.base = keys.api_base.rstrip("/")
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=TIMEOUT, headers={"User-Agent": USER_AGENT}
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _call(self, method: str, path: str, **kwargs: Any) -> Reply:
        for attempt in range(RETRIES + 1):
            try:
                async with self._http().request(method, self.base + path, **kwargs) as answer:
                    try:
                        body = await answer.json(content_type=None)
                    except ValueError:
                        body = None
                    status, headers = answer.status, answer.headers
            except (aiohttp.ClientError, TimeoutError) as exc:
                log.warning("Discord %s %s failed: %r", method, path, exc)
                raise SignInRefused("unavailable", 503) from exc
            if status == 429 and attempt < RETRIES:
                wait = _retry_after(body, headers.get("Retry-After"))
                if wait is not None and wait <= LONGEST_WAIT:
                    await asyncio.sleep(wait)
                    continue
            if status == 429 or status >= 500:
                log.warning("Discord %s %s answered %d", method, path, status)
                raise SignInRefused("unavailable", 503)
            return Reply(status, body)
        raise AssertionError("unreachable: the last try returns or raises")

    async def exchange(self, code: str) -> str:
        """The access token for an authorization code, or ``SignInRefused('bad_code')``."""
        form = {
            "client_id": str(self.keys.client_id),
            "client_secret": self.keys.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        reply = await self._call("POST", "/oauth2/token", data=form)
        token = reply.body.get("access_token") if isinstance(reply.body, dict) else None
        if reply.status == 401:  # invalid_client: the server's keys, not the person's code
            log.error("Discord refused the OAuth2 client id/secret (DISCORD_CLIENT_SECRET?)")
            raise SignInRefused("unavailable", 503)
        if reply.status != 200 or not isinstance(token, str):
            raise SignInRefused("bad_code", 400)
        return token

    async def me(self, access_token: str) -> dict[str, Any]:
        """The user a token stands for, or ``SignInRefused('bad_token')``."""
        headers = {"Authorization": f"Bearer {access_token}"}
        reply = await self._call("GET", "/users/@me", headers=headers)
        body = reply.body
        if reply.status != 200 or not isinstance(body, dict) or not str(body.get("id")).isdigit():
            raise SignInRefused("bad_token", 401)
        return body

    async def instance(self, instance_id: str) -> dict[str, Any]:
        """The application's activity instance, or ``SignInRefused('no_instance')``."""
        path = f"/applications/{self.keys.client_id}/activity-instances/{instance_id}"
        headers = {"Authorization": f"Bot {self.keys.bot_token}"}
        reply = await self._call("GET", path, headers=headers)
        if reply.status in (401, 403):  # the bot's token or application id, not the person
            log.error("Discord refused the bot token for activity instances (%d)", reply.status)
            raise SignInRefused("unavailable", 503)
        if reply.status != 200 or not isinstance(reply.body, dict):
            raise SignInRefused("no_instance", 404)
        return reply.body


def _retry_after(body: Any, header: str | None) -> float | None:
    """Seconds a 429 asks to wait: the body's ``retry_after`` (exact), else the header."""
    for value in (body.get("retry_after") if isinstance(body, dict) else None, header):
        try:
            seconds = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        return max(0.0, seconds)
    return None


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in person: the ticket for the socket, their seat (None: watching), language."""

    ticket: str
    seat: int | None
    lang: str

    def payload(self) -> dict[str, Any]:
        return {"ticket": self.ticket, "seat": self.seat, "lang": self.lang}


class ActivitySignIn:
    """Codes to tokens, tokens and instances to tickets (the module doc)."""

    def __init__(self, keys: ActivityKeys, service: TableService, tickets: Tickets) -> None:
        self.api = DiscordApi(keys)
        self.service, self.tickets = service, tickets

    async def close(self) -> None:
        await self.api.close()

    async def token(self, code: object) -> str:
        """``POST /api/token``: the person's access token for their code."""
        if not isinstance(code, str) or not CODE.match(code):
            raise SignInRefused("bad_code", 400)
        return await self.api.exchange(code)

    async def session(self, access_token: object, instance_id: object) -> Session:
        """``POST /api/session``: who the token's user is at the instance's table."""
        if not isinstance(access_token, str) or not TOKEN.match(access_token):
            raise SignInRefused("bad_token", 400)  # never sent on: it goes into a header
        me = await self.api.me(access_token)
        user_id, lang = int(me["id"]), lang_of(me.get("locale"))
        try:
            if not isinstance(instance_id, str) or not INSTANCE_ID.match(instance_id):
                raise SignInRefused("no_instance", 404)
            instance = await self.api.instance(instance_id)
            if str(user_id) not in [str(u) for u in instance.get("users") or []]:
                raise SignInRefused("not_in_instance", 403)
            live = self._table(instance.get("location") or {}, user_id)
        except SignInRefused as refused:
            raise LangRefused(refused, lang) from None
        seat = seat_of(self.service.tables.info(live), user_id)  # who left the game watches
        ticket = self.tickets.issue(live.id, user_id if seat is not None else None)
        return Session(ticket, seat, lang)

    def _table(self, location: dict[str, Any], user_id: int) -> LiveTable:
        """The table of the instance's channel; in a DM, the table the person sits at. A
        server on another shard process's shards is ``elsewhere`` (docs/hosting.md)."""
        try:
            channel_id = int(location.get("channel_id") or 0)
        except (TypeError, ValueError):
            channel_id = 0
        try:
            return self.service.tables.table_in(channel_id)
        except UserError as exc:
            if exc.key == "table_restoring":  # a restart restores it: a moment
                raise SignInRefused("restoring", 503, RESTORING_RETRY) from None
        guild = str(location.get("guild_id") or "")
        shards = self.service.shards
        if guild.isdigit() and shards is not None and not shards.holds(int(guild)):
            raise SignInRefused("elsewhere", 409)  # another shard process runs that server
        if location.get("kind") == "pm":
            seated = self.service.tables.tables_of(user_id)
            if seated:
                return seated[0]  # the one played at last
        raise SignInRefused("no_table", 404)


class LangRefused(SignInRefused):
    """A refusal once the person's language is known (their Discord locale)."""

    def __init__(self, refused: SignInRefused, lang: str) -> None:
        super().__init__(refused.code, refused.status, refused.retry_after)
        self.lang = lang
