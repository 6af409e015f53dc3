"""Shared set-up for the table-service tests: a real SQLite store in tmp_path, a recording
presenter, and a driver that plays the humans' turns with the hint."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random

from bot.service.live import LiveTable
from bot.service.presenter import RecordingPresenter
from bot.service.tables import TableService
from data import Store

GUILD, CHANNEL = 1000, 2000
HUMANS = (101, 102, 103, 104)  # seats 0-3; seats 4 and 5 are AI


def user_at(live: LiveTable, seat: int) -> int:
    """The user id of a person's seat (not an AI's)."""
    user_id = live.seats[seat].user_id
    assert user_id is not None, f"seat {seat} is an AI's"
    return user_id


class FakeClock:
    """A :class:`~bot.service.clock.Clock` that moves only when a test says so."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.t + max(0.0, seconds), next(self._order), future))
        await future

    def sleeping(self) -> int:
        """How many tasks wait on this clock."""
        return sum(1 for *_, f in self._sleepers if not f.done())

    def advance(self, seconds: float) -> None:
        """Move time on, waking every sleeper whose time has come (they run at the next
        await of the test)."""
        self.t += seconds
        while self._sleepers and self._sleepers[0][0] <= self.t:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)


async def run_clock(
    clock: FakeClock, service: TableService, live: LiveTable, seconds: float
) -> None:
    """Move the clock on by ``seconds`` and wait until the table's timer has done its work
    and the automatic actions that follow are taken."""
    await service.settle(live)
    timer = live.tasks["timer"]
    clock.advance(seconds)
    await asyncio.wait({timer})
    await service.settle(live)


async def clocked_table(
    store: Store, turn_time: int, warn_before: float
) -> tuple[TableService, RecordingPresenter, LiveTable, FakeClock]:
    """A started table (four humans, two AI seats) whose clock is a :class:`FakeClock`."""
    clock = FakeClock()
    service, presenter = make_service(store, warn_before=warn_before, clock=clock)
    live = await seated_table(service, {"turn_time": turn_time})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    return service, presenter, live, clock


def make_service(store: Store, **kwargs) -> tuple[TableService, RecordingPresenter]:
    presenter = RecordingPresenter()
    kwargs.setdefault("ai_delay", 0)
    kwargs.setdefault("rng", random.Random(7))
    return TableService(store, presenter, **kwargs), presenter


async def seated_table(service: TableService, options: dict | None = None) -> LiveTable:
    """Four humans in seats 0-3 and AI players in 4 and 5, not started."""
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], options or {})
    for user in HUMANS[1:]:
        await service.join(service.tables.table_in(CHANNEL), user)
    await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0])
    return live


async def humans_act(service: TableService, live: LiveTable, steps: int) -> None:
    """The humans take the hint ``steps`` times (the AI seats play between), then the table
    settles."""
    for _ in range(steps):
        await service.settle(live)
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        await service.act_hint(live, user_at(live, seat))
    await service.settle(live)


async def play_humans(service: TableService, live: LiveTable, max_steps: int = 20000) -> int:
    """Let every human take the hint until the series ends; returns the actions taken."""
    steps = 0
    while live.playing and steps < max_steps:
        await service.settle(live)
        if not live.playing:
            break
        waiting = [s for s in live.running.to_act if not live.is_ai(s)]
        for seat in waiting:
            await service.act_hint(live, user_at(live, seat))
            steps += 1
            break
    return steps
