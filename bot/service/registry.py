"""The registry of tables: the tables this process serves, found by id or by channel, and
those coming back (active in the database on this process's shards, not served here yet).

A front end finds a table here and holds it as a handle (it reads nothing of it but
``id``); everything else about it comes from the service's parts::

    live = service.tables.table_in(channel_id)  # or UserError: no_table, table_restoring
    live = service.tables.get(table_id)  # what a DM button or a URL carries
    live = await service.tables.reach(table_id)  # asks the database why not, if not
    service.tables.info(live)  # TableInfo: ids, place, options, seats
    service.tables.seat_for(live, user_id)  # or UserError: not_seated, left_table

Part of :class:`bot.service.tables.TableService` (its ``tables``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

from bot.service.clock import Clock
from bot.service.errors import OUTAGES, UserError
from bot.service.live import LiveTable
from bot.service.views import SeatInfo, TableInfo
from data import NotFoundError, Store
from data.claims import Shards
from data.models import ACTIVE_STATUSES

log = logging.getLogger("gouji.bot")


class Registry:
    """Every table served here (see the module doc)."""

    def __init__(self, store: Store, clock: Clock, shards: Shards | None) -> None:
        self.store = store
        self.clock = clock
        self.shards = shards
        self.by_id: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        # table id -> channel id: active in the database, on these shards, not served here
        # yet (being restored, or held by another process until its lease lapses)
        self.coming: dict[int, int] = {}

    def __iter__(self) -> Iterator[LiveTable]:
        """The tables served here, in the order they were opened or restored (a copy: a
        table may end while the caller goes through them)."""
        return iter(list(self.by_id.values()))

    def __contains__(self, table_id: object) -> bool:
        return table_id in self.by_id

    def __len__(self) -> int:
        return len(self.by_id)

    # ----------------------------------------------------------------- finding tables
    def table_at(self, channel_id: int | None) -> LiveTable | None:
        """The open table of a channel, or None (:meth:`table_in` refuses instead)."""
        table_id = self.by_channel.get(channel_id or 0)
        return self.by_id.get(table_id) if table_id is not None else None

    def table_in(self, channel_id: int | None) -> LiveTable:
        """The open table of a channel, or ``UserError('no_table')`` —
        ``UserError('table_restoring')`` while it is coming back (:attr:`coming`)."""
        live = self.table_at(channel_id)
        if live is None:
            if channel_id is not None and channel_id in self.coming.values():
                raise UserError("table_restoring")
            raise UserError("no_table")
        return live

    def get(self, table_id: int) -> LiveTable:
        """An open table by id (DM buttons carry it), or ``UserError('no_table')`` —
        ``UserError('table_restoring')`` while it is coming back (see :attr:`coming`)."""
        live = self.by_id.get(table_id)
        if live is None or live.ended:
            if table_id in self.coming:
                raise UserError("table_restoring")
            raise UserError("no_table")
        return live

    def find(self, table_id: int) -> LiveTable | None:
        """The table served here with this id, or None."""
        return self.by_id.get(table_id)

    async def reach(self, table_id: int) -> LiveTable:
        """:meth:`get`, asking the database when the table is not served here: the
        ``UserError`` says whether it is coming back (``table_restoring``: active on these
        shards), served by a process of other shards (``table_elsewhere``), or over
        (``no_table``). For a front end any process may be reached at (the browser)."""
        try:
            return self.get(table_id)
        except UserError as exc:
            if exc.key != "no_table":
                raise
        try:
            table = await self.store.get_table(table_id)
        except NotFoundError:
            raise UserError("no_table") from None
        except OUTAGES as exc:
            log.warning("looking for table %s failed: %s", table_id, exc)
            raise UserError("table_restoring") from None
        if table.status not in ACTIVE_STATUSES:
            raise UserError("no_table")
        if self.shards is not None and not self.shards.holds(table.guild_id):
            raise UserError("table_elsewhere")
        raise UserError("table_restoring")

    def tables_of(self, user_id: int) -> list[LiveTable]:
        """The open tables served here where ``user_id`` holds a seat (one they left
        included), the most recently active first."""
        seated = [t for t in self if not t.ended and t.seat_of(user_id) is not None]
        return sorted(seated, key=lambda t: t.last_activity, reverse=True)

    def open_tables(self) -> list[TableInfo]:
        """Every table this process serves, in the order they were opened or restored."""
        return [self.info(live) for live in self]

    # ----------------------------------------------------------------- a table's handle
    def info(self, live: LiveTable) -> TableInfo:
        """The table without its game: ids, place, options, seats. Cheap; any time."""
        seats = tuple(
            SeatInfo(
                seat=s.seat,
                user_id=s.user_id,
                ai_kind=s.ai_kind,
                ai_plays=live.is_ai(s.seat),
                standin=s.standin,
                left=s.seat in live.leavers,
                dm_refused=s.dm_refused,
            )
            for s in live.seats
        )
        t = live.table
        return TableInfo(
            id=t.id,
            guild_id=t.guild_id,
            channel_id=t.channel_id,
            creator_id=t.creator_id,
            message_id=t.message_id,
            options=live.options,
            seats=seats,
            open=not live.ended,
        )

    def seat_for(self, live: LiveTable, user_id: int) -> int:
        """The user's seat at this table, or ``UserError('not_seated')`` — or
        ``UserError('left_table')`` for a player who left the game (中途强退): they keep the
        penalty and lose the seat (no play, hint, hand or controller) until it ends."""
        seat = live.seat_of(user_id)
        if seat is None:
            raise UserError("not_seated")
        if seat in live.leavers:
            raise UserError("left_table", seat=seat)
        return seat

    @staticmethod
    def is_open(live: LiveTable) -> bool:
        """Whether the table is still served (not ended, broken or lost to another process)."""
        return not live.ended

    @staticmethod
    def playing(live: LiveTable) -> bool:
        """Whether a series is being played at the table (started and not over)."""
        return live.playing

    @staticmethod
    def series_started(live: LiveTable) -> bool:
        """Whether a series was started at the table (being played, or over)."""
        return live.series is not None

    @staticmethod
    def waited_on(live: LiveTable) -> frozenset[int]:
        """The seats of people the table waits on now (their clock runs)."""
        return live.waiting

    # ----------------------------------------------------------------- in and out
    def touch(self, live: LiveTable) -> None:
        """Someone did something at the table (idle tables end: ``end_idle``)."""
        live.last_activity = self.clock.now()

    def register(self, live: LiveTable) -> None:
        """Serve the table here (opened, or restored)."""
        self.touch(live)
        self.by_id[live.id] = live
        if live.table.channel_id > 0:  # a table outside Discord is in no channel
            self.by_channel[live.table.channel_id] = live.id
        self.coming.pop(live.id, None)

    def forget(self, live: LiveTable) -> None:
        """The table is over here (ended, set aside or lost): out of memory, its background
        tasks stopped. Call it with the table's lock held."""
        live.ended = True
        self.by_channel.pop(live.table.channel_id, None)
        self.by_id.pop(live.id, None)
        live.ranked = None
        for name, task in list(live.tasks.items()):
            if task is not asyncio.current_task():
                task.cancel()
            live.tasks.pop(name, None)
