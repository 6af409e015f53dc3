"""Supervised background work: a refused or failing AI falls back to a legal action in every
phase, and nothing is left running. (A failing database: test_outages.py.)"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from functools import partial

from bot.service.live import LiveTable
from bot.service.supervise import Supervisor
from engine.actions import Action, Verb

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    clocked_table,
    make_service,
    play_humans,
    run_clock,
    seated_table,
)

REVOLT_SEED = 1  # deal(1): seat 1 holds no 2 and no joker, so the first game has a revolt phase


class FirstSeed(random.Random):
    """Deals ``REVOLT_SEED`` first, then shuffles as usual."""

    def __init__(self) -> None:
        super().__init__(5)
        self.first = True

    def randrange(self, *args, **kwargs):
        if self.first:
            self.first = False
            return REVOLT_SEED
        return super().randrange(*args, **kwargs)


def _fallbacks(caplog) -> Counter[str]:
    """How many fallbacks the service logged, by question kind."""
    found: Counter[str] = Counter()
    for record in caplog.records:
        if "instead of the AI's choice" in record.getMessage():
            found[record.args[2]] += 1
    return found


async def test_a_refused_ai_action_falls_back_to_a_legal_one_in_every_phase(store, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="gouji.bot")
    service, presenter = make_service(store, rng=FirstSeed())
    real = service._ai_action
    asked: Counter[str] = Counter()

    async def every_other_one_illegal(live: LiveTable, seat: int) -> Action:
        kind = service._prompt_kind(live)
        asked[kind] += 1
        if asked[kind] % 2 == 0:
            return await real(live, seat)
        if live.game is None:
            return Action(seat, Verb.PASS)  # a pass while tribute is returned
        return Action(seat, Verb.RETURN, "3")  # a return while the game is on

    service._ai_action = every_other_one_illegal  # type: ignore[method-assign]
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    await service.add_ai(CHANNEL, HUMANS[0])  # seats 1-5 are AI
    await service.start(CHANNEL, HUMANS[0])
    await play_humans(service, live)
    assert live.series is not None and live.running.finished
    assert set(_fallbacks(caplog)) == {"declare", "revolt", "burn", "turn", "return"}
    assert not presenter.of("broken")
    await service.close()


async def test_an_ai_that_raises_falls_back_too(store, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="gouji.bot")
    service, presenter = make_service(store)

    async def broken_ai(live: LiveTable, seat: int) -> Action:
        raise KeyError("a bug in the AI")

    service._ai_action = broken_ai  # type: ignore[method-assign]
    live = await seated_table(service, {"series": False})
    await service.start(CHANNEL, HUMANS[0])
    await play_humans(service, live)
    assert live.running.finished and not presenter.of("broken")
    assert any("the AI failed to choose" in r.getMessage() for r in caplog.records)
    await service.close()


async def test_a_timed_out_turn_falls_back_when_the_ai_is_refused(store, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="gouji.bot")
    service, presenter, live, clock = await clocked_table(store, turn_time=5, warn_before=0)

    async def illegal(live: LiveTable, seat: int) -> Action:
        return Action(seat, Verb.RETURN, "3")

    service._ai_action = illegal  # type: ignore[method-assign]

    def human_turns_taken() -> int:
        return sum(
            1
            for r in caplog.records
            if "instead of the AI's choice" in r.getMessage() and r.args[1] in range(4)
        )

    for _ in range(30):
        await run_clock(clock, service, live, 5)
        if human_turns_taken():
            break
    assert human_turns_taken(), "a person's timed-out turn was played by the fallback"
    assert not presenter.of("broken")
    await service.close()


async def test_shutting_down_waits_until_every_task_has_ended() -> None:
    """The bot releases its table claims right after ``cancel_all``: a task still cleaning
    up (rolling back its transaction) must be done by then."""
    supervisor = Supervisor()
    cleaned: list[int] = []

    async def work(n: int) -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            await asyncio.sleep(0)  # the cleanup itself awaits
            cleaned.append(n)

    for n in range(3):
        supervisor.start(n, "play", partial(work, n))
    await asyncio.sleep(0)
    await supervisor.cancel_all()
    assert sorted(cleaned) == [0, 1, 2] and not supervisor.tasks
