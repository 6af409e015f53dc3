"""Supervised background work: a refused or failing AI falls back to a legal action in every
phase, and nothing is left running. (A failing database: test_outages.py.)"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections import Counter
from functools import partial
from typing import Any

from bot.service import flow
from bot.service.supervise import Supervisor
from engine.actions import Action, Verb
from engine.ai import make_player
from engine.observation import Observation

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


class MisbehavingAI:
    """An AI seat's player that chooses ``wrong(real, obs)`` for an action and
    ``wrong_return(real, returnable, n)`` for a 还贡 (each may ask ``real``, the seat's real
    player, or raise): the AI breaks where the service cannot see into it."""

    def __init__(self, real: Any, wrong: Any, wrong_return: Any) -> None:
        self.real, self.wrong, self.wrong_return = real, wrong, wrong_return

    def act(self, obs: Observation) -> Action:
        return self.wrong(self.real, obs)

    def choose_return(self, returnable: Any, n: int) -> str:
        return self.wrong_return(self.real, returnable, n)


def break_the_ai(monkeypatch, wrong: Any, wrong_return: Any) -> None:
    """Every AI player the service makes from now on is a :class:`MisbehavingAI`."""

    def make(kind: str, seed: int) -> MisbehavingAI:
        return MisbehavingAI(make_player(kind, seed), wrong, wrong_return)

    monkeypatch.setattr(flow, "make_player", make)


async def test_a_refused_ai_action_falls_back_to_a_legal_one_in_every_phase(
    store, caplog, monkeypatch
) -> None:
    caplog.set_level(logging.WARNING, logger="gouji.bot")
    asked: Counter[object] = Counter()

    def every_other_one_illegal(real: Any, obs: Observation) -> Action:
        kind = frozenset(a.verb for a in obs.legal_actions)  # one kind of question
        asked[kind] += 1
        if asked[kind] % 2 == 0:
            return real.act(obs)
        return Action(obs.seat, Verb.RETURN, "3")  # a return while the game is on

    def every_other_return_illegal(real: Any, returnable: Any, n: int) -> str:
        asked["return"] += 1
        if asked["return"] % 2 == 0:
            return real.choose_return(returnable, n)
        return real.choose_return(returnable, n) + "R"  # one card too many

    break_the_ai(monkeypatch, every_other_one_illegal, every_other_return_illegal)
    service, presenter = make_service(store, rng=FirstSeed())
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0])  # seats 1-5 are AI
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    assert live.series is not None and live.running.finished
    assert set(_fallbacks(caplog)) == {"declare", "revolt", "burn", "turn", "return"}
    assert not presenter.of("broken")
    await service.close()


async def test_an_ai_that_raises_falls_back_too(store, caplog, monkeypatch) -> None:
    caplog.set_level(logging.WARNING, logger="gouji.bot")

    def broken(*args: Any) -> Any:
        raise KeyError("a bug in the AI")

    break_the_ai(monkeypatch, broken, broken)
    service, presenter = make_service(store)
    live = await seated_table(service, {"series": False})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    assert live.running.finished and not presenter.of("broken")
    assert any("the AI failed to choose" in r.getMessage() for r in caplog.records)
    await service.close()


async def test_a_timed_out_turn_falls_back_when_the_ai_is_refused(
    store, caplog, monkeypatch
) -> None:
    caplog.set_level(logging.WARNING, logger="gouji.bot")

    def illegal(real: Any, obs: Observation) -> Action:
        return Action(obs.seat, Verb.RETURN, "3")

    break_the_ai(monkeypatch, illegal, illegal)
    service, presenter, live, clock = await clocked_table(store, turn_time=5, warn_before=0)

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


async def test_an_ai_thinking_leaves_the_table_free_for_its_people(store, monkeypatch) -> None:
    """A strong AI thinks for up to a second, in a thread: meanwhile the table's people are
    shown their views and questions (each takes the table's lock), not made to wait."""
    thinking, think_on = threading.Event(), threading.Event()

    def slow(real: Any, obs: Observation) -> Action:
        thinking.set()
        think_on.wait(10)
        return real.act(obs)

    break_the_ai(monkeypatch, slow, lambda real, returnable, n: real.choose_return(returnable, n))
    service, presenter = make_service(store)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {"series": False})
    for user in HUMANS[1:]:
        await service.join(service.tables.table_in(CHANNEL), user)
    await service.add_ai(
        service.tables.table_in(CHANNEL), HUMANS[0], kind="strong"
    )  # thinks in a thread
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    try:
        assert await asyncio.to_thread(thinking.wait, 10), "the AI seats never thought"
        view = await asyncio.wait_for(service.views.private_view(live, 0), 5)
        assert view.hand, "the person's view came while the AI was thinking"
    finally:
        think_on.set()
    game = live.current.game
    assert game is not None
    moves = len(game.actions)
    await service.settle(live)  # the AI's choice, thought without the lock, is taken
    assert not presenter.of("broken") and len(game.actions) > moves
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
