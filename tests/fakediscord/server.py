"""FakeDiscord: a local Discord (HTTP API v10 + gateway) for the real discord.py client.

One guild with text channels, six members and the bot; everything the bot does is recorded
(messages with edit history and attachment bytes, interactions and their answers, requests).
See README.md beside this file for the API.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from aiohttp import web

from . import activities, rest, webhooks
from .activities import Activities
from .commands import CommandRegistry
from .faults import error_response
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, MESSAGE_CONTENT, GatewayHub, shard_of
from .limits import GLOBAL_LIMIT, DiscordLimits, ScaledFaultPlan, major_parameter
from .messages import ApiError, Upload
from .model import (
    ALL_PERMISSIONS,
    DM,
    GUILD_TEXT,
    AttachmentRecord,
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    Snowflakes,
    iso_now,
)
from .openapi import SpecCheck, SpecRefusal
from .payloads import PayloadBuilder
from .users import SimUser

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
_log = logging.getLogger(__name__)
API_PREFIX = "/api/v10"
DEFAULT_MEMBERS: tuple[tuple[str, str], ...] = (
    ("alice", "en-US"),
    ("bo", "zh-CN"),
    ("chen", "zh-CN"),
    ("dana", "en-US"),
    ("erlang", "zh-CN"),
    ("fang", "zh-CN"),
)


class Condition(Protocol[T_co]):
    """What ``wait_for`` waits for: called with no arguments, a truthy value once it holds.

    A protocol, not ``Callable[[], T | None]``: mypy accepts a lambda with default arguments
    for it (``lambda u=user: u.dms()``, binding a loop's variable), which it cannot infer
    against a ``Callable`` (its result is then ``Any``).
    """

    def __call__(self) -> T_co | None: ...


class WaitTimeout(AssertionError):
    """``wait_for`` gave up; the message says what was awaited."""


class FakeDiscord(PayloadBuilder):
    """The fake server and its state. Use ``async with FakeDiscord() as fake:``.

    ``time_scale`` (real seconds per Discord second, 1.0 by default) shortens Discord's rate
    limit windows and so every wait the fake asks of the client, e.g. ``time_scale=1/32``: a
    channel still takes 5 new messages per window, but the window lasts 0.156 s, not 5 s.
    ``global_limit``: the bot token's requests a second (Discord's 50, raised for large bots).
    ``validate`` (on by default): every REST request is checked against Discord's OpenAPI
    description and refused as Discord refuses it (``openapi.py``; ``fake.spec`` counts).
    """

    def __init__(
        self,
        *,
        members: Sequence[tuple[str, str]] = DEFAULT_MEMBERS,
        channels: Sequence[str] = ("gouji", "general"),
        token: str = "fake-bot-token",
        guild_locale: str = "zh-CN",
        privileged_intents: int = 0,
        rate_limits: bool = True,
        recommended_shards: int = 1,
        time_scale: float = 1.0,
        global_limit: int = GLOBAL_LIMIT[0],
        validate: bool = True,
    ) -> None:
        self.ids = Snowflakes()
        self.token = token
        self.privileged_intents = privileged_intents
        self.interaction_deadline = 3.0  # seconds Discord gives for the first answer
        self.bot_user = FakeUser(self.ids.next(), "GoujiBot", bot=True)
        self.application_id = self.bot_user.id
        self.guild_id = self.ids.next()
        self.guild_name = "Gouji Club"
        self.guild_locale = guild_locale
        self.recommended_shards = recommended_shards  # GET /gateway/bot's "shards"
        self.guilds: dict[int, FakeGuild] = {}  # guilds added beside the first (add_guild)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # by recipient user id
        self.messages: dict[int, MessageRecord] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interaction_tokens: dict[str, InteractionRecord] = {}  # the same, by token
        self.requests: list[RequestRecord] = []
        self.internal_errors: list[str] = []  # tracebacks of requests the fake failed on
        self.faults = ScaledFaultPlan(time_scale)
        self.limits = DiscordLimits(
            self.faults, enabled=rate_limits, time_scale=time_scale, global_limit=global_limit
        )
        # every REST request checked against Discord's OpenAPI description (openapi.py)
        self.spec = SpecCheck(enabled=validate)
        self.commands = CommandRegistry(self.ids, self.application_id)
        self.activities = Activities(self)  # OAuth2 codes/tokens, activity instances
        self.gateway = GatewayHub(self)
        self.members: list[SimUser] = []
        for position, name in enumerate(channels):
            channel = FakeChannel(self.ids.next(), GUILD_TEXT, name, self.guild_id, position)
            self.channels[channel.id] = channel
        for name, locale in members:
            user = FakeUser(self.ids.next(), name, locale)
            self.users[user.id] = user
            self.members.append(SimUser(self, user))
        if self.members:
            self.members[0].user.permissions = ALL_PERMISSIONS  # the guild owner
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def time_scale(self) -> float:
        """Real seconds per Discord second (1.0: Discord's real windows)."""
        return self.limits.time_scale

    def add_guild(
        self,
        name: str,
        channels: Sequence[str],
        *,
        shard: tuple[int, int] | None = None,
        locale: str = "zh-CN",
    ) -> FakeGuild:
        """Another guild the bot is in, with text channels (names unique across guilds); with
        ``shard=(i, n)`` its id is chosen so that Discord puts it on shard i of n."""
        guild_id = self.ids.next()
        if shard is not None:
            while shard_of(guild_id, shard[1]) != shard[0]:
                guild_id += 1 << 22
            self.ids.advance_to(guild_id)
        guild = FakeGuild(guild_id, name, locale)
        self.guilds[guild_id] = guild
        for position, channel_name in enumerate(channels):
            channel = FakeChannel(self.ids.next(), GUILD_TEXT, channel_name, guild_id, position)
            self.channels[channel.id] = channel
        return guild

    def all_guilds(self) -> list[FakeGuild]:
        """Every guild of the bot, the first one first."""
        first = FakeGuild(self.guild_id, self.guild_name, self.guild_locale)
        return [first, *self.guilds.values()]

    def guilds_of(self, shard: list[int] | None) -> list[FakeGuild]:
        """The guilds a gateway session of ``shard`` ([i, n]; None: every guild) gets."""
        return [
            g for g in self.all_guilds() if shard is None or shard_of(g.id, shard[1]) == shard[0]
        ]

    def guild_locale_of(self, guild_id: int) -> str:
        """A guild's preferred locale."""
        guild = self.guilds.get(guild_id)
        return guild.locale if guild is not None else self.guild_locale

    # ----- lifecycle ------------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        """Listen on 127.0.0.1 at a free port."""
        app = web.Application(
            middlewares=[self._middleware, activities.harness_cors],
            client_max_size=64 * 1024 * 1024,
        )
        app.router.add_get("/", self.gateway.handle)  # like wss://gateway.discord.gg/
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/resume", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        rest.add_routes(app, self, API_PREFIX)
        webhooks.add_routes(app, self, API_PREFIX)
        activities.add_routes(app, self.activities, API_PREFIX)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Close every gateway connection and stop listening."""
        if self._runner is not None:
            await self.gateway.close_all()
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The first gateway URL (``DiscordWebSocket.DEFAULT_GATEWAY``)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        """The URL READY tells the client to resume on."""
        return f"ws://127.0.0.1:{self.port}/resume"

    # ----- waiting ----------------------------------------------------------------------------
    def notify(self) -> None:
        """Wake every ``wait_for``: something was recorded."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self,
        predicate: Condition[T],
        timeout: float = 5.0,
        what: str = "a condition",
        poll: float | None = None,
    ) -> T:
        """Return the first truthy ``predicate()``, re-checked whenever something is recorded.

        A predicate that looks at state the fake does not record (e.g. the bot's own
        attributes) should pass ``poll``: it is then also re-checked every ``poll`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            changed = self._changed
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeout(f"gave up after {timeout}s waiting for {what}")
            try:
                await asyncio.wait_for(changed.wait(), left if poll is None else min(left, poll))
            except TimeoutError:
                pass

    async def wait_message(
        self, predicate: Callable[[MessageRecord], bool], timeout: float = 5.0
    ) -> MessageRecord:
        """Wait until a (not deleted) message matches ``predicate``; return the newest such."""

        def newest() -> MessageRecord | None:
            found = [m for m in self.messages.values() if not m.deleted and predicate(m)]
            return found[-1] if found else None

        return await self.wait_for(newest, timeout, "a matching message")

    # ----- lookups -----------------------------------------------------------------------------
    @property
    def text_channels(self) -> list[FakeChannel]:
        """The guild's text channels, in order."""
        return [c for c in self.channels.values() if c.type == GUILD_TEXT]

    def channel(self, name_or_id: str | int) -> FakeChannel:
        """A guild text channel by name or id."""
        by_id = self.channels.get(name_or_id) if isinstance(name_or_id, int) else None
        if by_id is not None and by_id.type == GUILD_TEXT:
            return by_id  # at once: a bench's thousands of people ask by id
        for channel in self.text_channels:
            if name_or_id in (channel.name, channel.id):
                return channel
        raise KeyError(
            f"no text channel {name_or_id!r}; have {[c.name for c in self.text_channels]}"
        )

    def member(self, name_or_id: str | int) -> SimUser:
        """A simulated member by name or id."""
        for sim in self.members:
            if name_or_id in (sim.name, sim.id):
                return sim
        raise KeyError(f"no member {name_or_id!r}; have {[m.name for m in self.members]}")

    def resolve_user(self, value: Any) -> FakeUser:
        """A FakeUser from a SimUser, FakeUser, id or name (for USER command options)."""
        if isinstance(value, SimUser):
            return value.user
        if isinstance(value, FakeUser):
            return value
        for user in self.users.values():
            if value in (user.id, user.name, str(user.id)):
                return user
        raise KeyError(f"no user {value!r}")

    def messages_in(self, channel_id: int, *, include_deleted: bool = False) -> list[MessageRecord]:
        """Messages of one channel in order (ephemerals included, for the test's eyes)."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and (include_deleted or not m.deleted)
        ]

    @property
    def unknown_requests(self) -> list[RequestRecord]:
        """Requests to routes the fake does not know (a test can assert there are none)."""
        return [r for r in self.requests if r.route is None]

    # ----- messages ----------------------------------------------------------------------------
    def dm_channel_for(self, user_id: int) -> FakeChannel:
        """The bot's DM channel with a user (created on first use, as POST /users/@me/channels)."""
        if user_id not in self.users or user_id == self.bot_user.id:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        channel = self.dm_channels.get(user_id)
        if channel is None:
            channel = FakeChannel(self.ids.next(), DM, recipient_id=user_id)
            self.channels[channel.id] = channel
            self.dm_channels[user_id] = channel
        return channel

    def new_attachment(
        self, channel_id: int, upload: Upload, description: str | None
    ) -> AttachmentRecord:
        """Store an uploaded file; its URL is served by this fake."""
        ident = self.ids.next()
        url = f"{self.base_url}/attachments/{channel_id}/{ident}/{upload.filename}"
        return AttachmentRecord(
            ident, upload.filename, upload.content_type, upload.data, url, description
        )

    async def add_message(self, msg: MessageRecord) -> MessageRecord:
        """Record a new message and tell the bot's gateway (unless it is ephemeral)."""
        self.messages[msg.id] = msg
        self.notify()
        if not msg.ephemeral and not msg.loading:
            await self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    async def edit_message(self, msg: MessageRecord, changes: dict[str, Any]) -> MessageRecord:
        """Apply changes (content, embeds, components, attachments, flags) keeping history."""
        was_loading = msg.loading
        msg.history.append(msg.snapshot())
        for key, value in changes.items():
            setattr(msg, key, value)
        msg.edited_at = time.monotonic()
        if not was_loading:
            msg.edited_iso = iso_now()
        self.notify()
        if not msg.ephemeral:
            await self._dispatch_message("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", msg)
        return msg

    async def delete_message(self, msg: MessageRecord) -> None:
        """Mark a message deleted (it stays in the record)."""
        msg.deleted_at = time.monotonic()
        self.notify()
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            await self.gateway.dispatch(
                "MESSAGE_DELETE", data, self._message_intent(msg), guild_id=msg.guild_id
            )

    def _message_intent(self, msg: MessageRecord) -> int:
        return GUILD_MESSAGES if msg.guild_id else DIRECT_MESSAGES

    async def _dispatch_message(self, event: str, msg: MessageRecord) -> None:
        data = self.message_payload(msg)
        if msg.guild_id:
            data["member"] = self.member_payload(self.users[msg.author_id], with_user=False)
        session = self.gateway.session_for(msg.guild_id)
        if session is not None and not self._content_visible(msg, data, session.intents):
            data.update(content="", embeds=[], attachments=[], components=[])
        await self.gateway.dispatch(event, data, self._message_intent(msg), guild_id=msg.guild_id)

    def _content_visible(self, msg: MessageRecord, data: dict[str, Any], intents: int) -> bool:
        """Discord's message-content rule: the bot's own, DMs, mentions, or the intent."""
        mentioned = any(u["id"] == str(self.bot_user.id) for u in data["mentions"])
        return bool(
            intents & MESSAGE_CONTENT
            or msg.author_id == self.bot_user.id
            or msg.guild_id is None
            or mentioned
        )

    # ----- interactions ------------------------------------------------------------------------
    async def create_interaction(
        self,
        user: FakeUser,
        kind: int,
        channel: FakeChannel,
        data: dict[str, Any],
        message: MessageRecord | None = None,
    ) -> InteractionRecord:
        """Record an interaction by ``user`` and dispatch INTERACTION_CREATE to the bot."""
        rec = InteractionRecord(
            id=self.ids.next(),
            token="fake-itoken-" + secrets.token_urlsafe(24),
            type=kind,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            data=data,
            message_id=message.id if message else None,
            fake=self,
        )
        self.interactions[rec.id] = rec
        self.interaction_tokens[rec.token] = rec
        payload = self.interaction_payload(rec, user, channel, message)

        def sent(at: float) -> None:
            rec.dispatched_at = at
            self.notify()

        self.notify()
        await self.gateway.dispatch(
            "INTERACTION_CREATE", payload, on_sent=sent, guild_id=rec.guild_id
        )
        return rec

    # ----- HTTP plumbing ---------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        resource = request.match_info.route.resource
        template = resource.canonical if resource is not None else None
        is_api = template is not None and template.startswith(API_PREFIX)
        path = (
            request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else request.path
        )
        route = template[len(API_PREFIX) :] if is_api and template else None
        fault_response, admission, scope = None, None, None
        admitted = None
        if is_api and route is not None:
            if held := self.faults.held(request.method, route, path):
                await asyncio.sleep(held)  # on its way: Discord has not seen it yet
            if self.faults.dropped(request.method, route, path):
                self._record(request.method, path, route, 0, "drop")
                assert request.transport is not None
                request.transport.close()  # the client sees the server disconnect
                return web.Response(status=500)  # never sent
            fault_response = self.faults.take(request.method, route, path)
            if fault_response is None:
                major = major_parameter(dict(request.match_info))
                admitted = self.limits.clock()
                admission = self.limits.admit(request.method, route, path, major, admitted)
                fault_response, scope = admission.refusal, admission.scope
            elif fault_response.status == 429:
                scope = fault_response.headers["X-RateLimit-Scope"]
        if fault_response is not None:
            planned = admission is None or admission.planned
            fault = str(fault_response.status) if planned else None
            self._record(request.method, path, route, fault_response.status, fault, scope, admitted)
            return fault_response
        try:
            if is_api:
                await self.spec.check_request(request, path)
            response: web.StreamResponse = await handler(request)
        except ApiError as err:
            response = error_response(err.status, err.code, err.message)
        except SpecRefusal as err:
            errors = {"errors": err.errors} if err.errors else {}
            response = error_response(err.status, err.code, err.message, **errors)
        except web.HTTPException as exc:
            if exc.status not in (404, 405):
                raise
            response = error_response(exc.status, 0, f"{exc.status}: {exc.reason}")
            route = None
        except Exception as exc:  # a body the fake cannot read, or a bug in the fake
            self.internal_errors.append(traceback.format_exc())
            _log.exception("fake Discord failed on %s %s", request.method, request.path)
            # 400, not 500: discord.py would retry a 5xx for ~25 s before giving up.
            response = error_response(400, 50035, f"fake Discord could not handle this: {exc!r}")
        if admission is not None and route is not None:
            response.headers.update(admission.headers)
        if template is None or is_api:
            self._record(request.method, path, route, response.status, admitted=admitted)
        return response

    def _record(
        self,
        method: str,
        path: str,
        route: str | None,
        status: int,
        fault: str | None = None,
        scope: str | None = None,
        admitted: float | None = None,
    ) -> None:
        self.requests.append(
            RequestRecord(time.monotonic(), method, path, route, status, fault, scope, admitted)
        )
        self.notify()

    async def _cdn(self, request: web.Request) -> web.Response:
        ident = int(request.match_info["attachment_id"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == ident:
                    return web.Response(body=att.data, content_type=att.content_type)
            for version in msg.history:
                for att in version.attachments:
                    if att.id == ident:
                        return web.Response(body=att.data, content_type=att.content_type)
        raise ApiError(404, 0, "404: Not Found")
