"""The browser table's web server: an aiohttp application on the event loop of the process
that owns the tables (``gouji bot``, ``gouji web``), beside the table service.

Every connection goes through the door (:mod:`bot.web.door`: no silent connection stays,
no more connections than the process's open files allow) and every socket is counted
(:mod:`bot.web.limits`: per person, per address, in all).

Routes: ``/`` the table client (its link carries the visitor's ticket in the fragment:
``/#TICKET``), ``/static/NAME`` its files (gzip, ETag, cache headers), ``/ws`` one
WebSocket per connected person (:mod:`bot.web.protocol`), ``/healthz``; for a Discord
Activity (:mod:`bot.web.activity`) ``/activity`` its page (also ``/`` when Discord launches
it: ``?frame_id=…&instance_id=…``), ``POST /api/token`` and ``POST /api/session``. Every route is served under ``/.proxy`` too: the paths of Discord's proxy,
whether or not it strips the prefix on the way.

    site = WebTable(service, TicketGate(tickets), LocalNames({1: "济南"}))
    await site.start("127.0.0.1", 8080)      # serves until
    await site.stop()
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING

from aiohttp import WSCloseCode, WSMsgType, web

from bot.service.errors import UserError
from bot.service.tickets import Tickets, WebLinks
from bot.text.catalog import LANGS, lang_of, text
from bot.web.activity import ActivityKeys, ActivitySignIn, LangRefused, SignInRefused
from bot.web.door import IDLE, Door, connection_limit, open_files
from bot.web.hub import REFUSED, RETRY, Connection, EventStandings, Hub, Names, frame, seat_of
from bot.web.identity import Gate, TicketGate, Visitor
from bot.web.limits import (
    FULL,
    MARGIN,
    PER_ADDRESS,
    PER_PERSON,
    SocketLimits,
    address_of,
    person_of,
)
from bot.web.protocol import Malformed, Requests, hello
from bot.web.static_files import (
    ACTIVITY_PAGE,
    ACTIVITY_POLICY,
    INDEX,
    PAGE_POLICY,
    StaticFile,
    load,
    respond,
)

if TYPE_CHECKING:
    from bot.service.tables import TableService

log = logging.getLogger("gouji.web")

#: seconds between the server's pings; a socket that does not answer one is closed
HEARTBEAT = 20.0
MAX_MESSAGE = 4096  # bytes: the largest message a client sends is a play of 36 cards
MAX_BODY = 64 * 1024  # bytes: the largest request body (the Activity's sign-in: a few dozen)
BODY_WAIT = 10.0  # seconds a request's body may take to come
EXPIRY_SLACK = 0.05  # seconds after a link's end its socket closes: it is over by then
PROXY = "/.proxy"  # Discord's proxy prefix: an Activity reaches its server only through it
#: refusals after which the page comes back by itself (``wait``, close code RETRY)
WAITS = frozenset({"table_restoring", FULL})


def accepted_lang(request: web.Request) -> str:
    """The page's language (``?lang=`` of the socket, the one the link or its switch chose),
    else the browser's: ``zh`` if it prefers Chinese, else ``en``."""
    asked = request.query.get("lang")
    if asked in LANGS:
        return asked
    header = request.headers.get("Accept-Language", "")
    first = header.split(",")[0].strip().lower()
    return lang_of(first)


class WebTable:
    """The browser front end of ``service`` (see the module doc): who a socket is comes from
    ``gate``, how people are named from ``names``."""

    def __init__(
        self,
        service: TableService,
        gate: Gate,
        names: Names,
        *,
        heartbeat: float = HEARTBEAT,
        default_lang: str | None = None,
        activity: ActivitySignIn | None = None,
        connections: int | None = None,
        per_person: int = PER_PERSON,
        per_address: int = PER_ADDRESS,
        idle: float = IDLE,
        events: EventStandings | None = None,
    ) -> None:
        """``connections``: how many the server keeps at once (None: as the process's open
        files allow, :func:`bot.web.door.connection_limit`), ``per_person``/``per_address``:
        sockets (:mod:`bot.web.limits`), ``idle``: seconds a connection may stay without a
        request, ``events``: a round's table's tournament standings (the bar shows them;
        None: no tournaments, ``gouji web``)."""
        self.service, self.gate = service, gate
        self.activity = activity  # the Discord Activity's sign-in (None: not configured)
        self.hub = Hub(service, names, events=events)
        self.requests = Requests(service, self.hub)
        self.heartbeat = heartbeat
        self.default_lang = default_lang
        self.files: dict[str, StaticFile] = load()
        self.connections = connections
        self.door = Door(connections or 0, idle=idle)
        self.limits = SocketLimits(0, per_person=per_person, per_address=per_address)
        self.runner: web.AppRunner | None = None
        self.servers: list[asyncio.Server] = []
        self.port: int | None = None
        #: told each visitor admitted (``gouji web`` starts once every person came)
        self.on_visit: Callable[[Visitor], None] | None = None

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.door.middleware], client_max_size=MAX_BODY)
        app.on_response_prepare.append(_guarded_headers)
        for prefix in ("", PROXY):
            app.router.add_get(prefix + "/", self._index)
            app.router.add_get(prefix + "/static/{name}", self._static)
            app.router.add_get(prefix + "/ws", self._socket)
            app.router.add_get(prefix + "/healthz", self._health)
            app.router.add_get(prefix + "/activity", self._activity_page)
            app.router.add_post(prefix + "/api/token", self._api_token)
            app.router.add_post(prefix + "/api/session", self._api_session)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Serve on ``host:port`` (0: any free port); returns the port. The process's
        open-file limit is raised to its hard limit first, and the caps follow from it."""
        files = open_files()
        limit = self.connections or connection_limit(files)
        self.door.limit = limit
        self.limits.total = max(1, limit - MARGIN)
        self.runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self.runner.setup()
        assert self.runner.server is not None
        self.servers = await self.door.serve(self.runner.server, host, port)
        self.port = int(self.servers[0].sockets[0].getsockname()[1])
        return self.port

    async def stop(self) -> None:
        for server in self.servers:  # no new connection from now on
            server.close()
        self.servers = []
        await self.hub.close()
        if self.activity is not None:
            await self.activity.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        self.door.close()

    # ----------------------------------------------------------------- pages
    async def _index(self, request: web.Request) -> web.Response:
        """The table client; Discord's launch of the Activity (the URL mapping's root with
        ``frame_id`` and ``instance_id`` in the query) gets the Activity's page."""
        launched = "frame_id" in request.query and "instance_id" in request.query
        if launched and ACTIVITY_PAGE in self.files:
            return respond(request, self.files[ACTIVITY_PAGE], ACTIVITY_POLICY)
        return respond(request, self.files[INDEX], PAGE_POLICY)

    async def _static(self, request: web.Request) -> web.Response:
        served = self.files.get(request.match_info["name"])
        if served is None or request.match_info["name"] == INDEX:
            raise web.HTTPNotFound()
        return respond(request, served)

    async def _health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def _activity_page(self, request: web.Request) -> web.Response:
        served = self.files.get(ACTIVITY_PAGE)
        if served is None:
            raise web.HTTPNotFound()
        return respond(request, served, ACTIVITY_POLICY)

    # ----------------------------------------------------------------- Activity sign-in
    async def _api_token(self, request: web.Request) -> web.Response:
        """``{"code"}`` → ``{"access_token"}`` (:meth:`ActivitySignIn.token`)."""
        try:
            body = await _json_body(request)
            if self.activity is None:
                raise SignInRefused("off", 404)
            token = await self.activity.token(body.get("code"))
        except SignInRefused as refused:
            return _refusal(refused, accepted_lang(request))
        return web.json_response({"access_token": token}, headers=NO_STORE)

    async def _api_session(self, request: web.Request) -> web.Response:
        """``{"access_token", "instance_id"}`` → ``{"ticket", "seat", "lang"}``."""
        try:
            body = await _json_body(request)
            if self.activity is None:
                raise SignInRefused("off", 404)
            session = await self.activity.session(body.get("access_token"), body.get("instance_id"))
        except SignInRefused as refused:
            return _refusal(refused, accepted_lang(request))
        return web.json_response(session.payload(), headers=NO_STORE)

    # ----------------------------------------------------------------- sockets
    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=self.heartbeat, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        lang = self.default_lang or accepted_lang(request)
        try:
            visitor = self.gate.admit(request)
        except UserError as exc:
            return await _refuse(ws, lang, exc.key)
        person, address = person_of(visitor), address_of(request)
        refused = self.limits.take(person, address)
        if refused is not None:
            return await _refuse(ws, visitor.lang or lang, refused)
        try:
            return await self._serve(ws, visitor, lang)
        finally:
            self.limits.give_back(person, address)

    async def _serve(
        self, ws: web.WebSocketResponse, visitor: Visitor, lang: str
    ) -> web.WebSocketResponse:
        """One counted socket, from its table's first state to its close."""
        try:  # not served here: coming back (a wait), elsewhere or over (final)
            live = await self.service.tables.reach(visitor.table_id)
        except UserError as exc:
            return await _refuse(ws, visitor.lang or lang, exc.key)
        conn = Connection(ws, visitor, visitor.lang or lang)
        conn.reply(hello(conn, seat_of(self.service.tables.info(live), visitor.user_id)))
        self.hub.attach(conn, live)
        if self.on_visit is not None:
            self.on_visit(visitor)
        expiry = None  # the link's end holds on the open socket too
        if visitor.expires:
            wait = max(0.0, visitor.expires - time.time()) + EXPIRY_SLACK
            expiry = asyncio.get_running_loop().call_later(wait, self._expired, conn)
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    await self.requests.handle(conn, live, message.data)
                elif message.type == WSMsgType.BINARY:  # the client speaks JSON text only
                    await ws.close(code=WSCloseCode.UNSUPPORTED_DATA, message=b"text frames only")
                elif message.type == WSMsgType.ERROR:
                    break
        except Malformed as exc:  # not worth an answer: the socket is closed, cleanly
            await ws.close(code=WSCloseCode.INVALID_TEXT, message=str(exc).encode())
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            if expiry is not None:
                expiry.cancel()
            self.hub.detach(conn)
        return ws

    def _expired(self, conn: Connection) -> None:
        """The socket's link has expired: it is told so and closed (a new link opens it)."""
        conn.reply(frame("gone", text=text(conn.lang, "web_link_expired")))
        self.hub.spawn(conn.close(REFUSED, b"link expired"))


NO_STORE = {"Cache-Control": "no-store"}
#: on every answer: no guessing a file's type; no address (a link's ticket) sent onwards
GUARDED = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


async def _guarded_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(GUARDED)


async def _refuse(ws: web.WebSocketResponse, lang: str, key: str) -> web.WebSocketResponse:
    """Say why a socket is not served and close it: a wait (:data:`WAITS`) tells the page
    to come back by itself, anything else is final."""
    with suppress(ConnectionError):
        if key in WAITS:
            await ws.send_str(frame("wait", text=text(lang, key)))
            await ws.close(code=RETRY, message=b"come back")
        else:
            shown = "web_no_table" if key == "no_table" else key
            await ws.send_str(frame("gone", text=text(lang, shown)))
            await ws.close(code=REFUSED, message=b"refused")
    return ws


async def _json_body(request: web.Request) -> dict[str, object]:
    """The request's JSON object, else ``{}`` (then refused for the missing field). A JSON
    content type is required, so another site's plain form cannot post here. A body that
    is no JSON (nested too deep, in an unknown charset, too big, too slow to come) is
    ``SignInRefused('bad_request')``."""
    if request.content_type != "application/json":
        return {}
    try:
        async with asyncio.timeout(BODY_WAIT):
            raw = await request.read()
        body = json.loads(raw.decode(request.charset or "utf-8"))
    except web.HTTPRequestEntityTooLarge:
        raise SignInRefused("bad_request", 413) from None
    except (ValueError, RecursionError, LookupError, TimeoutError):
        raise SignInRefused("bad_request", 400) from None
    return body if isinstance(body, dict) else {}


def _refusal(refused: SignInRefused, lang: str) -> web.Response:
    """A refusal as JSON: its code and its text in the person's language (their Discord
    locale once known, else the browser's); ``Retry-After`` when it asks to try again."""
    if isinstance(refused, LangRefused):
        lang = refused.lang
    message = text(lang, f"web_activity_{refused.code}")
    headers = dict(NO_STORE)
    if refused.retry_after is not None:
        headers["Retry-After"] = str(refused.retry_after)
    return web.json_response(
        {"error": refused.code, "message": message}, status=refused.status, headers=headers
    )


class BesideBot:
    """The browser table served by the Discord bot's process (``GOUJI_WEB_URL`` set, see
    :class:`bot.service.config.BotConfig`): on the bot's tables, people named as the bot
    names them, personal links signed with ``secret`` (``GOUJI_WEB_SECRET``; none: a random
    one, so the links die with the process); with ``activity`` (``GOUJI_ACTIVITY``) also the
    Discord Activity's sign-in."""

    def __init__(
        self,
        url: str,
        host: str,
        port: int,
        secret: str | None = None,
        activity: ActivityKeys | None = None,
    ) -> None:
        self.url, self.host, self.port = url, host, port
        self.tickets = Tickets(secret.encode() if secret else None)
        self.activity = activity
        self.site: WebTable | None = None

    async def open(
        self, service: TableService, people: Names, events: EventStandings | None = None
    ) -> WebLinks:
        keys = self.activity
        sign_in = ActivitySignIn(keys, service, self.tickets) if keys is not None else None
        self.site = WebTable(
            service, TicketGate(self.tickets), people, activity=sign_in, events=events
        )
        self.port = await self.site.start(self.host, self.port)
        log.info("the browser table listens on %s:%d (%s)", self.host, self.port, self.url)
        return WebLinks(self.url, self.tickets)

    async def close(self) -> None:
        if self.site is not None:
            await self.site.stop()
            self.site = None
