"""A table of its own for the browser, without Discord (``gouji web``, the tests, the
benchmark): the table service on a store, the web server beside it, people in the chosen
seats and AI players in the others, one link per person and one to watch.

    async with LocalTable(store, people={0: "济南"}, ai="hint") as local:
        print(local.link(0))                 # http://127.0.0.1:8080/#1.1.0.…
        await local.started.wait()           # the series starts once every person came

Each person is user ``seat + 1``; the table is its creator's own, in no server or channel
(:func:`bot.service.tables.own_place`). The links are
tickets signed with a secret of this process, so they die with it. The series starts when
every person's link has been opened once (``start_now``: at once).
"""

from __future__ import annotations

import asyncio
import random
from types import TracebackType
from typing import Any

from bot.service.presenter import Listener
from bot.service.tables import TableService
from bot.service.tickets import Tickets
from bot.web.app import WebTable
from bot.web.hub import LocalNames
from bot.web.identity import TicketGate, Visitor
from data import Store
from data.claims import default_instance


def user_of(seat: int) -> int:
    """The user id of the person in ``seat``."""
    return seat + 1


class LocalTable:
    """One browser table on ``store`` (see the module doc)."""

    def __init__(
        self,
        store: Store,
        people: dict[int, str],
        *,
        ai: str = "hint",
        options: dict[str, Any] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        public_host: str | None = None,
        ai_delay: float = 0.8,
        rng: random.Random | None = None,
        start_now: bool = False,
        heartbeat: float = 20.0,
        listener: Listener | None = None,
    ) -> None:
        if not people or any(not 0 <= s < 6 for s in people):
            raise ValueError("people sit in seats 0 to 5, at least one")
        self.store, self.people, self.ai = store, dict(people), ai
        self.options = dict(options or {})
        self.host, self.port, self.public_host = host, port, public_host
        self.start_now = start_now
        # an instance of its own: after a crash the next run takes the old table back at once
        # (and ends it) instead of finding its channel held by the dead process's claim
        self.service = TableService(
            store,
            listener or Listener(),
            ai_delay=ai_delay,
            rng=rng,
            instance=default_instance("gouji web"),
        )
        self.tickets = Tickets()
        self.names = LocalNames({user_of(s): name for s, name in self.people.items()})
        self.site = WebTable(
            self.service, TicketGate(self.tickets), self.names, heartbeat=heartbeat
        )
        self.site.on_visit = self._visited
        self.came: set[int] = set()
        self.started = asyncio.Event()
        self.table_id = 0

    async def __aenter__(self) -> LocalTable:
        await self.open()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def open(self) -> None:
        """Serve: end the table a previous run left open (its links are gone), open a new
        one with the people and the AI players, start the web server."""
        await self.service.restore()
        for old in self.service.tables:  # every table here is the browser's own
            info = self.service.tables.info(old)
            await self.service.end(old, info.creator_id, True)
        creator = user_of(min(self.people))
        live = await self.service.open_table(None, None, creator, self.options)
        self.table_id = live.id
        if min(self.people) != 0:  # the table seats its creator at 0: move them to theirs
            await self.service.leave(live, creator)
        for seat in sorted(self.people):
            if user_of(seat) != creator or seat != 0:
                await self.service.join(live, user_of(seat), seat)
        if len(self.people) < 6:
            await self.service.add_ai(live, creator, kind=self.ai)
        self.port = await self.site.start(self.host, self.port)
        if self.start_now:
            await self.start()

    async def start(self) -> None:
        if not self.started.is_set():
            self.started.set()
            live = self.service.tables.get(self.table_id)
            await self.service.start(live, user_of(min(self.people)))

    def _visited(self, visitor: Visitor) -> None:
        if visitor.table_id != self.table_id or visitor.user_id is None:
            return
        self.came.add(visitor.user_id)
        if not self.started.is_set() and self.came >= {user_of(s) for s in self.people}:
            self.site.hub.spawn(self.start())

    def link(self, seat: int | None) -> str:
        """The link of ``seat``'s person (None: to watch)."""
        user = user_of(seat) if seat is not None else None
        token = self.tickets.issue(self.table_id, user, expires=0)
        return f"http://{self.public_host or self.host}:{self.port}/#{token}"

    async def close(self) -> None:
        await self.site.stop()
        await self.service.close()
