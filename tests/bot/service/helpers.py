"""Shared set-up for the table-service tests: a real SQLite store in tmp_path, a recording
presenter, and a driver that plays the humans' turns with the hint."""

from __future__ import annotations

import random

from bot.service.live import LiveTable
from bot.service.presenter import RecordingPresenter
from bot.service.tables import TableService
from data import Store

GUILD, CHANNEL = 1000, 2000
HUMANS = (101, 102, 103, 104)  # seats 0-3; seats 4 and 5 are AI


def make_service(store: Store, **kwargs) -> tuple[TableService, RecordingPresenter]:
    presenter = RecordingPresenter()
    kwargs.setdefault("ai_delay", 0)
    kwargs.setdefault("rng", random.Random(7))
    return TableService(store, presenter, **kwargs), presenter


async def seated_table(service: TableService, options: dict | None = None) -> LiveTable:
    """Four humans in seats 0-3 and AI players in 4 and 5, not started."""
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], options or {})
    for user in HUMANS[1:]:
        await service.join(CHANNEL, user)
    await service.add_ai(CHANNEL, HUMANS[0])
    return live


async def play_humans(service: TableService, live: LiveTable, max_steps: int = 20000) -> int:
    """Let every human take the hint until the series ends; returns the actions taken."""
    steps = 0
    while live.playing and steps < max_steps:
        await service.settle(live)
        if not live.playing:
            break
        waiting = [s for s in live.series.to_act if not live.is_ai(s)]
        for seat in waiting:
            await service.act_hint(live, live.seats[seat].user_id)
            steps += 1
            break
    return steps
