"""The web server's door: how many connections it keeps, and for how long one may stay
without a request.

The browser table's port is open to anyone, and every connection holds one of the process's
file descriptors — the same ones its database and its Discord connection need. A connection
that never sends a request would otherwise stay for ever, and a process out of descriptors
accepts no player and logs each failed ``accept()`` (asyncio: a line and a traceback per
try, many a second). So the door:

- closes a connection that has no request in progress for :data:`IDLE` seconds: a silent one
  (no request line yet), a slow one (headers never finished) or a kept-alive one between two
  requests;
- keeps at most ``limit`` connections (:func:`connection_limit`: the open-file limit less
  :data:`RESERVE` for the rest of the process); one more closes the connection idle longest
  to make room, or — none idle: every one is a request or a socket — is closed itself;
- listens on :class:`Listening` sockets, which keep a descriptor in reserve: out of
  descriptors all the same, ``accept()`` spends it to take each waiting connection and close
  it at once, where asyncio would log every try;
- says what it refused at most once a minute (:class:`Seldom`).

:func:`open_files` raises the process's soft limit of open files to its hard limit.

    door = Door(connection_limit(open_files()))
    app = web.Application(middlewares=[door.middleware])
    servers = await door.serve(runner.server, "127.0.0.1", 8080)
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from aiohttp import web

log = logging.getLogger("gouji.web")

IDLE = 5.0  # seconds a connection may stay without a request in progress
RESERVE = 256  # descriptors left to the rest of the process (database, Discord, files)
FEWEST = 16  # connections allowed however low the open-file limit
BACKLOG = 128  # connections the kernel holds for accept()
SAY_EVERY = 60.0  # seconds between two log lines of one kind
SHORT = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def open_files() -> int:
    """Raise the soft limit of open files to the hard limit where the system allows it;
    the soft limit now (1,024 where it cannot be read)."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as exc:
            log.warning("the open-file limit stays %d (raising it failed: %s)", soft, exc)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_limit(files: int) -> int:
    """The connections a process of ``files`` open files keeps at once."""
    return max(FEWEST, files - RESERVE)


class Seldom:
    """A warning for what may happen many times a second: said the first time, then at most
    once every :data:`SAY_EVERY` seconds with how many times it happened meanwhile."""

    def __init__(self, what: str, every: float = SAY_EVERY) -> None:
        self.what, self.every = what, every
        self.count = 0
        self.said = -every

    def note(self) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.said >= self.every:
            log.warning("the web server %s (%d since the last note)", self.what, self.count)
            self.count, self.said = 0, now


class Listening(socket.socket):
    """A listening socket that keeps one descriptor in reserve (see the module doc)."""

    def __init__(self, family: int, short: Seldom) -> None:
        super().__init__(family, socket.SOCK_STREAM)
        self.short = short
        self.spare = _spare()

    def accept(self) -> tuple[socket.socket, Any]:
        try:
            return super().accept()
        except OSError as exc:
            if exc.errno not in SHORT:
                raise
            self.short.note()
            if not self._refuse_waiting():
                raise  # no descriptor to spare: asyncio's own way (a pause of a second)
            raise BlockingIOError(errno.EAGAIN, "waiting connections refused") from None

    def _refuse_waiting(self) -> bool:
        """Out of descriptors: take each waiting connection with the spare one and close it
        at once (its peer sees it closed); False when there is no spare."""
        if self.spare < 0:
            return False
        os.close(self.spare)
        try:
            for _ in range(BACKLOG):
                try:
                    conn, _ = super().accept()
                except OSError:  # none waiting (or the spare was taken meanwhile)
                    break
                conn.close()
        finally:
            self.spare = _spare()
        return True

    def close(self) -> None:
        if self.spare >= 0:
            os.close(self.spare)
            self.spare = -1
        super().close()


def _spare() -> int:
    try:
        return os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return -1


class _Guarded(asyncio.Protocol):
    """One connection: aiohttp's protocol inside, the door's count around it."""

    def __init__(self, door: Door, inner: asyncio.Protocol) -> None:
        self.door, self.inner = door, inner
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # a TCP server's: a Transport
        self.admitted = self.door.came(self)
        if self.admitted:
            self.inner.connection_made(transport)
        else:
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.left(self)
        if self.admitted:
            self.inner.connection_lost(exc)


class Door:
    """The web server's connections (see the module doc): at most ``limit`` at once, none
    without a request in progress for longer than ``idle`` seconds."""

    def __init__(self, limit: int, *, idle: float = IDLE) -> None:
        self.limit, self.wait = limit, idle
        self.count = 0
        self.idle: dict[_Guarded, None] = {}  # no request in progress, longest first
        self.by_transport: dict[asyncio.Transport, _Guarded] = {}
        self.crowded = Seldom("closed idle connections to make room for new ones")
        self.full = Seldom("refused connections: every one was busy")
        self.short = Seldom("ran out of file descriptors and refused waiting connections")

    # ----------------------------------------------------------------- listening
    async def serve(
        self, make: Callable[[], asyncio.Protocol], host: str, port: int
    ) -> list[asyncio.Server]:
        """Listen on ``host:port`` (0: a free port; every address ``host`` names), each
        connection made by ``make`` (aiohttp's server) inside the door's watch."""
        loop = asyncio.get_running_loop()
        servers = []
        for sock in await self._sockets(host, port):
            server = await loop.create_server(
                lambda: _Guarded(self, make()), sock=sock, backlog=BACKLOG
            )
            servers.append(server)
        return servers

    async def _sockets(self, host: str, port: int) -> list[Listening]:
        loop = asyncio.get_running_loop()
        found = await loop.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
        made: list[Listening] = []
        try:
            for family, _, _, _, address in dict.fromkeys(found):
                sock = Listening(family, self.short)
                made.append(sock)
                if os.name == "posix":
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind((address[0], port, *address[2:]))
                port = port or sock.getsockname()[1]  # the others on the same port
                sock.listen(BACKLOG)
                sock.setblocking(False)
        except BaseException:
            for sock in made:
                sock.close()
            raise
        return made

    # ----------------------------------------------------------------- connections
    def came(self, conn: _Guarded) -> bool:
        """A new connection: counted and idle; False when it must be closed at once."""
        if self.count >= self.limit:
            oldest = next(iter(self.idle), None)
            if oldest is None:
                self.full.note()
                return False
            self.crowded.note()
            self._close(oldest)
        self.count += 1
        assert conn.transport is not None
        self.by_transport[conn.transport] = conn
        self._rest(conn)
        return True

    def left(self, conn: _Guarded) -> None:
        if conn.admitted:
            self.count -= 1
        self._busy(conn)
        if conn.transport is not None:
            self.by_transport.pop(conn.transport, None)

    def _rest(self, conn: _Guarded) -> None:
        self._busy(conn)  # idle from now: the last of the idle
        self.idle[conn] = None
        conn.timer = asyncio.get_running_loop().call_later(self.wait, self._close, conn)

    def _busy(self, conn: _Guarded) -> None:
        self.idle.pop(conn, None)
        if conn.timer is not None:
            conn.timer.cancel()
            conn.timer = None

    def _close(self, conn: _Guarded) -> None:
        self._busy(conn)
        if conn.transport is not None:
            conn.transport.close()

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A request in progress: its connection is busy (a socket: until it closes)."""
        transport = request.transport
        conn = self.by_transport.get(transport) if transport is not None else None
        if conn is not None:
            self._busy(conn)
        try:
            return await handler(request)
        finally:
            if conn is not None and conn.transport in self.by_transport:
                self._rest(conn)  # still open: idle until its next request

    def close(self) -> None:
        """Stop every timer (the server stops)."""
        for conn in list(self.idle):
            self._busy(conn)
