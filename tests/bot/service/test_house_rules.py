"""A table's house rules (docs/rules.en.md §9): chosen when it opens, kept with the table and the
series, played by the engine, written into the records; the 要头 question after a
revolution with 够死级 on."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest

from bot.service.errors import UserError
from bot.service.live import TableOptions
from data import Store
from engine.options import Options
from engine.record import replay_series

from .helpers import (
    CHANNEL,
    HUMANS,
    FakeClock,
    make_service,
    play_humans,
    run_clock,
    seated_table,
)

REVOLT_RNG = 37  # the service's first deal from this rng: only seat 0 holds no 2 and no joker


def test_table_options_carry_every_engine_option() -> None:
    chosen: dict[str, Any] = {"gou_si_ji": True, "tribute_cards": "biggest", "open_rule": "wide"}
    opts = TableOptions.from_json({**chosen, "series": False})
    assert opts.rules == Options(**chosen)
    assert opts.rules.changed() == chosen
    assert TableOptions.from_json(opts.to_json()) == opts


def test_table_options_hold_the_engine_options_not_a_copy_of_them() -> None:
    own = {f.name for f in fields(TableOptions)} - {"rules"}
    assert own.isdisjoint(Options().to_json()), "no house rule spelled twice"
    assert TableOptions().rules == Options(), "the engine's defaults"
    # stored as before: one flat object, the house rules beside the table's own settings
    stored = TableOptions().to_json()
    assert set(stored) == own | set(Options().to_json())
    assert {k: stored[k] for k in Options().to_json()} == Options().to_json()


@pytest.mark.parametrize("bad", [{"burn_check": "any"}, {"gou_si_ji": "yes"}, {"tribute_cards": 3}])
def test_a_bad_house_rule_is_refused_naming_it(bad: dict) -> None:
    with pytest.raises(UserError) as caught:
        TableOptions.from_json(bad)
    assert caught.value.key == "bad_option"
    assert next(iter(bad)) in caught.value.params["what"]


async def test_house_rules_are_kept_with_the_table_and_the_series(db_path) -> None:
    rules: dict[str, Any] = {"gou_si_ji": True, "burn_check": "seeds", "no_single_return": False}
    async with await Store.open(db_path) as store:
        service, _ = make_service(store)
        live = await seated_table(service, rules)
        await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
        assert live.running.options == Options(**rules)
        series_id = live.series_id
        assert series_id is not None
        await service.close()
    async with await Store.open(db_path) as store:
        service, _ = make_service(store)
        assert await service.restore() == []
        again = service.tables.table_in(CHANNEL)
        assert again.options.rules == Options(**rules)
        assert again.running.options == Options(**rules)
        record = await store.export_series_record(series_id)
        assert record["options"] == rules
        await service.close()


async def test_keep_the_head_is_asked_of_the_revolutionarys_opposite(store) -> None:
    """docs/rules.en.md §3.4 with 够死级 on: after a revolution the revolutionary's opposite chooses
    要头 or 无头; the answer is announced and recorded."""
    service, presenter = make_service(store, rng=random.Random(REVOLT_RNG))
    live = await seated_table(service, {"gou_si_ji": True, "series": False})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    kinds = []
    while live.running_game.phase != "play":
        await service.settle(live)
        kind = service.views.question_kind(live)
        kinds.append(kind)
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        verb = {"declare": "nodeclare", "revolt": "revolt" if seat == 0 else "norevolt"}
        await service.act(live, HUMANS[seat], verb.get(kind, "keephead"), None)
    assert "head" in kinds
    assert live.running_game.revolted[0]
    assert {"ev_revolt", "ev_keephead"} <= set(presenter.announced())
    await play_humans(service, live)
    record = await service.archive.series_record(live)
    assert record["options"] == {"gou_si_ji": True}
    assert "3 keephead" in record["games"][0]["actions"]


async def test_an_unanswered_keep_the_head_question_is_headless(store) -> None:
    """The 要头 question takes its default like the others when the clock runs out: 无头,
    and the seat is not counted as timed out."""
    clock = FakeClock()
    service, presenter = make_service(store, rng=random.Random(REVOLT_RNG), clock=clock)
    live = await seated_table(service, {"gou_si_ji": True, "series": False, "turn_time": 5})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    while live.running_game.phase != "head":
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        verb = {"declare": "nodeclare", "revolt": "revolt" if seat == 0 else "norevolt"}
        await service.act(live, HUMANS[seat], verb[live.running_game.phase], None)
        await service.settle(live)
    assert live.running.to_act == [3]
    await run_clock(clock, service, live, 5)
    assert live.running_game.phase == "play"
    assert "3 nokeephead" in await store.get_actions(live.game_id)
    assert "ev_nokeephead" in presenter.announced()
    assert all(s.timeouts == 0 and not s.standin for s in await store.get_seats(live.id))
    await service.close()


@pytest.mark.parametrize(
    "rule",
    [
        {"no_single_return": False},
        {"tribute_cards": "biggest"},
        {"gou_si_ji": True},
        {"burn_check": "seeds"},
        {"open_rule": "wide"},
    ],
    ids=lambda rule: next(iter(rule)),
)
async def test_a_series_plays_to_its_end_under_each_house_rule_and_replays(store, rule) -> None:
    """The bot's flow (AI seats, hints for the people, tribute returns, the questions)
    finishes a five-game series under each house rule; its record carries the rule and
    replays to the same scores."""
    service, _ = make_service(store, rng=random.Random(REVOLT_RNG))
    live = await seated_table(service, rule)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    assert not live.playing and live.running.finished
    record = await service.archive.series_record(live)
    assert record["options"] == rule
    assert replay_series(record)["totals"] == live.running.totals()
    await service.close()
