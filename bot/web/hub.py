"""The browser's side of the table service: every open socket, and the updates they get.

:class:`Hub` listens to the service (:mod:`bot.service.presenter`) like the Discord
presenter does. Any event of a table with sockets marks it changed; one flush per change
burst (coalesced: a burst of events is one update) takes the views of that moment under the
table's lock — one public view, each connected seat's private view
(:meth:`~bot.service.front.FrontDoor.seat_views`) — words the public part once per language
and sends every socket its frame: the public part and its own seat's part (a spectator:
none; a player who left the game, 中途强退: none either). A socket that reads slowly only
ever has the newest state waiting (:class:`Connection`), so it never holds the others up.

A table this process stops serving because its claim was lost (another process took it
over: the service's ``moved``) sends its sockets to come back: they are told so and closed
with :data:`RETRY`, and the pages come back by themselves.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from aiohttp import web

from bot.service.live import LiveTable
from bot.service.presenter import Listener
from bot.service.tournaments import TableStandings
from bot.service.views import TableInfo
from bot.text.catalog import seat_name, text
from bot.text.params import SeatNamer
from bot.web.frames import Encoded, Gone, MePart, TablePart, Wait, encode, encode_state
from bot.web.identity import Visitor
from bot.web.wire import event_part, public_part, seat_part

if TYPE_CHECKING:
    from bot.service.tables import TableService

log = logging.getLogger("gouji.web")

#: a table's tournament and its standings (the Discord bot's
#: :meth:`~bot.service.tournaments.TournamentService.standings_for_table`); None: no event
EventStandings: TypeAlias = Callable[[int], Awaitable[TableStandings | None]]


class Names(Protocol):
    """How the people of a table are named (the Discord bot's ``People``; ``gouji web``'s
    :class:`LocalNames`)."""

    def names(self, table: TableInfo, lang: str) -> list[str]:
        """The six seats' names (a person's, "AI 3", "(empty)")."""
        ...

    def display_name(self, user_id: int) -> str:
        """A user's name."""
        ...


class LocalNames:
    """Names given at the table (``gouji web``): users by the names they chose, AI seats as
    the catalog names them."""

    def __init__(self, users: dict[int, str] | None = None) -> None:
        self.users = dict(users or {})

    def display_name(self, user_id: int) -> str:
        return self.users.get(user_id, f"#{user_id}")

    def names(self, table: TableInfo, lang: str) -> list[str]:
        return [
            seat_name(
                lang,
                seat.seat,
                None if seat.user_id is None else self.display_name(seat.user_id),
                seat.ai_kind is not None,
            )
            for seat in table.seats
        ]


#: how the server closes a socket (the client reads the code): the table ended (``gone``); the
#: link or the person was refused (``gone``), for good; come back by yourself (``wait``: the
#: table is coming back, the server is full) — the client tries again, a few seconds apart
GONE, REFUSED, RETRY = 4000, 4001, 4002


def seat_of(info: TableInfo, user_id: int | None) -> int | None:
    """The seat a socket's user plays: None for a spectator, and for a player who left the
    game (中途强退: the AI plays the seat; its hand is no longer theirs to see)."""
    seat = info.seat_of(user_id) if user_id is not None else None
    if seat is None or info.seats[seat].left:
        return None
    return seat


def frame(kind: Literal["gone", "wait"], *, text: str) -> str:
    """A socket's last word before it is closed: ``gone`` (the client stops there) or
    ``wait`` (it comes back by itself)."""
    said: Gone | Wait = Gone(t="gone", text=text) if kind == "gone" else Wait(t="wait", text=text)
    return encode(said)


class Connection:
    """One person's socket: who (``visitor``), in which language, and what is waiting to be
    sent — replies in order, and at most one state (a newer one replaces it)."""

    def __init__(self, ws: web.WebSocketResponse, visitor: Visitor, lang: str) -> None:
        self.ws, self.visitor, self.lang = ws, visitor, lang
        self.replies: deque[str] = deque()
        self.state: str | None = None
        self.wake = asyncio.Event()
        self.sent = 0  # frames sent (the benchmark counts them)
        self.shown = False  # the page is shown (it says so: a ``shown`` request)
        self.writer = asyncio.get_running_loop().create_task(self._write())

    @property
    def user_id(self) -> int | None:
        return self.visitor.user_id

    def reply(self, message: str) -> None:
        self.replies.append(message)
        self.wake.set()

    def post_state(self, message: str) -> None:
        self.state = message
        self.wake.set()

    async def _write(self) -> None:
        try:
            while not self.ws.closed:
                await self.wake.wait()
                self.wake.clear()
                while self.replies or self.state is not None:
                    message: str | None
                    if self.replies:
                        message = self.replies.popleft()
                    else:
                        message, self.state = self.state, None
                    if message is None or self.ws.closed:
                        break
                    await self.ws.send_str(message)
                    self.sent += 1
        except (ConnectionError, RuntimeError):  # the socket went away while writing
            pass

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        """Send what is waiting, then close the socket."""
        await asyncio.sleep(0)
        self.wake.set()
        await asyncio.sleep(0)
        await self.ws.close(code=code, message=message)
        self.writer.cancel()


class Hub(Listener):
    """Every socket of every table this process serves (see the module doc)."""

    def __init__(
        self,
        service: TableService,
        names: Names,
        *,
        now: Callable[[], float] = time.time,
        events: EventStandings | None = None,
    ) -> None:
        """``events``: where a round's table finds its tournament's standings, sent in the
        public part (None: no tournaments here, ``gouji web``)."""
        self.service, self.names, self.now = service, names, now
        self.events = events
        self.tables: dict[int, set[Connection]] = {}
        self.versions: dict[int, int] = {}  # table -> updates sent (the frames' "v")
        self._pending: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        service.listen(self)

    # ----------------------------------------------------------------- sockets
    def attach(self, conn: Connection, live: LiveTable) -> None:
        """A socket joins the table: it gets the table's state at once."""
        self.tables.setdefault(live.id, set()).add(conn)
        self.service.look(live, conn.user_id, True)
        self._changed(live)

    def detach(self, conn: Connection) -> None:
        conns = self.tables.get(conn.visitor.table_id)
        if conns is not None and conn in conns:
            conns.discard(conn)
            live = self.service.tables.find(conn.visitor.table_id)
            if live is not None:
                self.service.look(live, conn.user_id, False)
                if conn.shown:
                    self.service.show(live, conn.user_id, False)
            if not conns:
                self.tables.pop(conn.visitor.table_id, None)
        conn.writer.cancel()

    def show(self, conn: Connection, live: LiveTable, shown: bool) -> None:
        """The socket's page is shown or hidden now (the Page Visibility API): the service
        is told of each change once."""
        if conn.shown != shown:
            conn.shown = shown
            self.service.show(live, conn.user_id, shown)

    def refresh(self, live: LiveTable) -> None:
        """Send the table's sockets its state again (a socket changed language)."""
        self._changed(live)

    async def close(self) -> None:
        """Close every socket (the server stops)."""
        self.service.unlisten(self)
        for conns in list(self.tables.values()):
            for conn in list(conns):
                await conn.close(1001, b"server stopping")
        for task in list(self._tasks):
            task.cancel()

    # ----------------------------------------------------------------- the service's events
    def table_changed(self, live: LiveTable) -> None:
        self._changed(live)

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        self._changed(live)

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        self._changed(live)

    def hand_changed(self, live: LiveTable, seat: int) -> None:
        self._changed(live)

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        self._changed(live)

    def answered(self, live: LiveTable, seat: int) -> None:
        self._changed(live)

    def closed(self, live: LiveTable, key: str) -> None:
        self._gone(live.id, key)

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        self._gone(table_id, "table_broken")

    def _gone(self, table_id: int, key: str) -> None:
        conns = self.tables.pop(table_id, set())
        for conn in conns:
            reason = text(conn.lang, key) if key != "table_broken" else text(conn.lang, "ended")
            conn.reply(frame("gone", text=text(conn.lang, "web_gone", reason=reason)))
            self.spawn(conn.close(GONE, b"table gone"))

    def moved(self, live: LiveTable) -> None:
        for conn in self.tables.pop(live.id, set()):
            conn.reply(frame("wait", text=text(conn.lang, "table_restoring")))
            self.spawn(conn.close(RETRY, b"come back"))

    # ----------------------------------------------------------------- updates
    def spawn(self, job: Any) -> None:
        """Run ``job`` (a coroutine) in the background, kept until done."""
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a socket update failed", exc_info=task.exception())

    def _changed(self, live: LiveTable) -> None:
        if live.id in self._pending or live.id not in self.tables:
            return
        self._pending.add(live.id)
        self.spawn(self._flush(live))

    async def _flush(self, live: LiveTable) -> None:
        self._pending.discard(live.id)  # a change from now on is another update
        if self.events is not None and live.id in self.tables:
            # read before the views: the views and the version are taken with no wait
            # between, so a later flush never sends an older state under a newer version
            event = await self._event(live.id)
        else:
            event = None
        conns = list(self.tables.get(live.id, ()))
        if not conns or not self.service.tables.is_open(live):
            return
        info = self.service.tables.info(live)
        seats = {seat for c in conns if (seat := seat_of(info, c.user_id)) is not None}
        public, private = await self.service.views.seat_views(live, seats)
        version = self.versions[live.id] = self.versions.get(live.id, 0) + 1
        now = self.now()
        worded: dict[str, tuple[Encoded[TablePart], SeatNamer]] = {}
        for conn in conns:
            if conn.lang not in worded:
                names = self.names.names(public.info, conn.lang)
                users = {u: self.names.display_name(u) for u in public.info.users()}
                table_part = public_part(public, names, conn.lang, users)
                if event is not None:
                    table_part["event"] = event_part(event, conn.lang, self.names.display_name)
                part = Encoded(table_part)
                worded[conn.lang] = (part, SeatNamer(names, users))
            table, namer = worded[conn.lang]
            seat = seat_of(public.info, conn.user_id)
            mine: MePart | None = None
            if seat is not None and seat in private:
                mine = seat_part(private[seat], conn.lang, namer)
            conn.post_state(encode_state(version, now, table, Encoded(mine)))

    async def _event(self, table_id: int) -> TableStandings | None:
        """The table's tournament now, if it is a round's table (a failed read: none, this
        time; the table's state goes out all the same)."""
        assert self.events is not None
        try:
            return await self.events(table_id)
        except Exception:
            log.exception("the standings of table %s could not be read", table_id)
            return None
