"""The fake gateway: HELLO, IDENTIFY/READY, heartbeats, RESUME with replay, INVALID_SESSION.

Frames are zlib-compressed with a Z_SYNC_FLUSH suffix when the client asks for
``compress=zlib-stream`` (as discord.py does without zstandard), zstd-compressed for
``compress=zstd-stream`` (discord.py with zstandard installed), plain text otherwise.
Every dispatch gets the session's next sequence number and stays in the session's log, so a
client that RESUMEs with sequence N gets every event after N, then RESUMED.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import secrets
import time
import zlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

# Opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME = 0, 1, 2, 3, 4, 6
RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 8, 9, 10, 11

# Intents
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Close codes a client can act on
UNKNOWN_ERROR, UNKNOWN_OPCODE, DECODE_ERROR, AUTH_FAILED, ALREADY_AUTHENTICATED = (
    4000,
    4001,
    4002,
    4004,
    4005,
)
INVALID_SHARD, INVALID_API_VERSION, DISALLOWED_INTENTS = 4010, 4012, 4014


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a guild on."""
    return (guild_id >> 22) % shard_count


class ZlibFrames:
    """``compress=zlib-stream``: one zlib stream per connection, each frame Z_SYNC_FLUSHed."""

    def __init__(self) -> None:
        self._stream = zlib.compressobj()

    def frame(self, data: bytes) -> bytes:
        """One binary frame holding ``data``."""
        return self._stream.compress(data) + self._stream.flush(zlib.Z_SYNC_FLUSH)


class ZstdFrames:
    """``compress=zstd-stream`` (discord.py asks for it when ``zstandard`` is installed)."""

    def __init__(self) -> None:
        zstandard = importlib.import_module("zstandard")  # present if the client asks for zstd

        self._flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
        self._stream = zstandard.ZstdCompressor().compressobj()

    def frame(self, data: bytes) -> bytes:
        """One binary frame holding ``data``, decodable on its own arrival."""
        return self._stream.compress(data) + self._stream.flush(self._flush)


@dataclass
class LogEntry:
    """One dispatched event in a session's log."""

    seq: int
    event: str
    data: dict[str, Any]
    on_sent: Callable[[float], None] | None = None
    sent: bool = False


@dataclass
class Connection:
    """One websocket connection (a client may open several in one session)."""

    request: web.Request
    ws: web.WebSocketResponse
    path: str
    query: dict[str, str]
    opened_at: float = field(default_factory=time.monotonic)
    closed_at: float | None = None
    close_code: int | None = None
    closed_by_server: bool = False
    opcodes: list[int] = field(default_factory=list)  # what the client sent, in order
    sent: list[int | str] = field(default_factory=list)  # what the fake sent: ops, event names
    compressor: ZlibFrames | ZstdFrames | None = None

    async def send(self, payload: dict[str, Any]) -> bool:
        """Send one gateway payload; False if the socket is gone."""
        if self.ws.closed:
            return False
        text = json.dumps(payload)
        self.sent.append(payload.get("t") or payload["op"])
        try:
            if self.compressor is not None:
                await self.ws.send_bytes(self.compressor.frame(text.encode()))
            else:
                await self.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            return False
        return True


@dataclass
class Session:
    """A gateway session: survives a dropped connection and can be resumed."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    log: list[LogEntry] = field(default_factory=list)
    conn: Connection | None = None
    resumable: bool = True
    resumes: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def shard_id(self) -> int:
        """The shard this session runs (0 when unsharded)."""
        return self.shard[0] if self.shard else 0

    async def send_entry(self, entry: LogEntry) -> None:
        """Write one log entry to the current connection, if any."""
        if self.conn is None:
            return
        payload = {"op": DISPATCH, "t": entry.event, "s": entry.seq, "d": entry.data}
        if await self.conn.send(payload) and not entry.sent:
            entry.sent = True
            if entry.on_sent is not None:
                entry.on_sent(time.monotonic())

    async def append(
        self, event: str, data: dict[str, Any], on_sent: Callable[[float], None] | None = None
    ) -> LogEntry:
        """Log an event under the next sequence number and send it if connected (lock held)."""
        self.seq += 1
        entry = LogEntry(self.seq, event, data, on_sent)
        self.log.append(entry)
        await self.send_entry(entry)
        return entry


class GatewayHub:
    """All gateway sessions and connections of one fake Discord."""

    heartbeat_interval_ms = 41250

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.by_shard: dict[int, Session] = {}  # the live session of each shard (0: unsharded)
        self._open = asyncio.Event()
        self._open.set()

    # ----- the websocket endpoint -------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one gateway connection until it closes."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(request, ws, request.path, dict(request.query))
        self.connections.append(conn)
        self.fake.notify()
        session: Session | None = None
        try:
            if not await self._check_query(conn):
                return ws
            await self._open.wait()  # a planned outage holds new connections here
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await self._close(conn, DECODE_ERROR, "send JSON text frames")
                    break
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await self._close(conn, DECODE_ERROR, "invalid JSON")
                    break
                op, data = payload.get("op"), payload.get("d")
                conn.opcodes.append(op)
                if op == HEARTBEAT:
                    await conn.send({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    if session is not None:
                        await self._close(conn, ALREADY_AUTHENTICATED, "already identified")
                        break
                    session = await self._identify(conn, data)
                elif op == RESUME:
                    session = await self._resume(conn, data)
                elif op == REQUEST_MEMBERS and session is not None:
                    await self._members_chunk(session, data)
                elif op not in (PRESENCE, VOICE):
                    await self._close(conn, UNKNOWN_OPCODE, f"unknown opcode {op}")
                    break
        finally:
            await self._closed(conn, session)
        return ws

    async def _check_query(self, conn: Connection) -> bool:
        query = conn.query
        if query.get("v") != "10":
            await self._close(conn, INVALID_API_VERSION, "use ?v=10")
            return False
        if query.get("encoding", "json") != "json":
            await self._close(conn, DECODE_ERROR, "the fake speaks encoding=json only")
            return False
        compress = query.get("compress")
        try:
            if compress == "zlib-stream":
                conn.compressor = ZlibFrames()
            elif compress == "zstd-stream":
                conn.compressor = ZstdFrames()
            elif compress:
                raise ImportError(compress)
        except ImportError:
            await self._close(conn, DECODE_ERROR, f"the fake cannot compress={compress}")
            return False
        return True

    async def _close(self, conn: Connection, code: int, reason: str) -> None:
        conn.closed_by_server = True
        await conn.ws.close(code=code, message=reason.encode())

    async def _closed(self, conn: Connection, session: Session | None) -> None:
        conn.closed_at = time.monotonic()
        conn.close_code = conn.ws.close_code
        if session is not None and session.conn is conn:
            session.conn = None
            # A client that closes with 1000/1001 ends its session, as on Discord.
            if not conn.closed_by_server and conn.close_code in (1000, 1001):
                session.resumable = False
                if self.by_shard.get(session.shard_id) is session:
                    del self.by_shard[session.shard_id]
        self.fake.notify()

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.fake.token:
            await self._close(conn, AUTH_FAILED, "Authentication failed.")
            return None
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED & ~self.fake.privileged_intents:
            await self._close(conn, DISALLOWED_INTENTS, "Disallowed intent(s).")
            return None
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]
        ):
            await self._close(conn, INVALID_SHARD, "Invalid shard.")
            return None
        session = Session(secrets.token_hex(16), intents, shard)
        self.sessions[session.id] = session
        self.by_shard[session.shard_id] = session
        async with session.lock:
            session.conn = conn
            await session.append("READY", self._ready(session))
            if intents & GUILDS:
                for guild in self.fake.guild_create_payloads(intents, shard):
                    await session.append("GUILD_CREATE", guild)
        self.fake.notify()
        return session

    def _ready(self, session: Session) -> dict[str, Any]:
        fake = self.fake
        data: dict[str, Any] = {
            "v": 10,
            "user": {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [
                {"id": str(guild.id), "unavailable": True}
                for guild in fake.guilds_of(session.shard)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": fake.resume_gateway_url,
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "geo_ordered_rtc_regions": [],
        }
        if session.shard is not None:
            data["shard"] = session.shard
        return data

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        """Answer REQUEST_GUILD_MEMBERS (needs the members intent) with one chunk."""
        if not session.intents & GUILD_MEMBERS:
            return
        fake = self.fake
        wanted = {int(i) for i in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        users = [
            u
            for u in fake.users.values()
            if (not wanted or u.id in wanted) and u.name.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        chunk: dict[str, Any] = {
            "guild_id": str(fake.guild_id),
            "members": [fake.member_payload(u) for u in users[: limit or None]],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        async with session.lock:
            await session.append("GUILD_MEMBERS_CHUNK", chunk)

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not session.resumable or data.get("token") != self.fake.token:
            await conn.send({"op": INVALID_SESSION, "d": False})
            return None
        since = data.get("seq") or 0
        async with session.lock:
            old = session.conn
            session.conn = conn
            if old is not None and old is not conn:
                old.closed_by_server = True
                await old.ws.close(code=UNKNOWN_ERROR)
            for entry in session.log:
                if entry.seq > since:
                    await session.send_entry(entry)
            await session.append("RESUMED", {})
            session.resumes += 1
        self.by_shard[session.shard_id] = session
        self.fake.notify()
        return session

    # ----- used by the fake ---------------------------------------------------------------
    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        intent: int = 0,
        on_sent: Callable[[float], None] | None = None,
        guild_id: int | None = None,
    ) -> bool:
        """Send an event to the session of the guild's shard (no guild: shard 0, as Discord
        sends DMs), buffered while it is disconnected.

        Returns False when no session would get it (no bot, or the intent is off).
        """
        session = self.session_for(guild_id)
        if session is None or (intent and not session.intents & intent):
            return False
        async with session.lock:
            await session.append(event, data, on_sent)
        return True

    @property
    def active(self) -> Session | None:
        """The session of shard 0 (the only one of an unsharded bot)."""
        return self.by_shard.get(0)

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that gets a guild's events (None: DMs, on shard 0)."""
        if guild_id is None:
            return self.active
        for session in self.by_shard.values():
            if session.shard is None or shard_of(guild_id, session.shard[1]) == session.shard[0]:
                return session
        return None

    async def drop(self, code: int = UNKNOWN_ERROR, abrupt: bool = False) -> bool:
        """Close the active session's connection from the server side; False if none."""
        session = self.active
        if session is None or session.conn is None:
            return False
        async with session.lock:
            conn, session.conn = session.conn, None
            conn.closed_by_server = True
        if abrupt and conn.request.transport is not None:
            conn.request.transport.close()
        else:
            await conn.ws.close(code=code, message=b"dropped by the fake")
        return True

    async def request_reconnect(self) -> bool:
        """Send RECONNECT (op 7): the client closes and resumes; False if nobody is connected."""
        session = self.active
        if session is None or session.conn is None:
            return False
        async with session.lock:
            return await session.conn.send({"op": RECONNECT, "d": None})

    def invalidate(self) -> None:
        """Make the active session non-resumable: its next RESUME gets INVALID_SESSION."""
        if self.active is not None:
            self.active.resumable = False

    @contextlib.asynccontextmanager
    async def outage(self) -> AsyncIterator[None]:
        """Drop the connection and hold every new one before HELLO until the block ends."""
        self._open.clear()
        try:
            await self.drop()
            yield
        finally:
            self._open.set()

    async def close_all(self) -> None:
        """Close every open connection (server shutdown)."""
        self._open.set()
        for conn in self.connections:
            if not conn.ws.closed:
                conn.closed_by_server = True
                await conn.ws.close(code=1001, message=b"fake Discord shutting down")
