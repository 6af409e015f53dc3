"""复盘: a seat's costliest decisions against the strong AI, from its own view only."""

from __future__ import annotations

import copy
import json

import pytest

from engine.actions import Verb
from engine.ai import review as review_mod
from engine.ai.hint import EXPERT, decide
from engine.ai.review import Review, decisions_of, review, review_record
from engine.ai.view import view_of_game
from engine.game import Game, Phase
from engine.replay_steps import NotFinishedError, Replay
from tests.game.randomplay import OPTION_SETS
from tests.replay.helpers import expert_record, planted_game, record_of

PLANTED_DEAL = 5  # deal 5: seat 3 leads 3222BR, its 2s and jokers spent on a single 3
SMALL_BUDGET = 120


@pytest.fixture(scope="module")
def planted() -> tuple[Replay, int, int]:
    game, seat, index = planted_game(PLANTED_DEAL)
    return Replay.from_record(record_of(game)), seat, index


def test_a_planted_bad_play_is_the_costliest_mistake(planted) -> None:
    replay, seat, index = planted
    result = review(replay, seat, seed=1, budget=1200)
    assert result.mistakes, "the planted play was not found"
    top = result.mistakes[0]
    assert top.step == index
    assert top.action == replay.action(index + 1)
    assert top.suggested != top.action and top.cost - top.margin > 0


def test_the_same_seed_gives_the_same_review(planted) -> None:
    replay, seat, _ = planted
    one = review(replay, seat, seed=4, budget=SMALL_BUDGET)
    two = review(replay, seat, seed=4, budget=SMALL_BUDGET)
    assert one == two


def test_only_clear_differences_are_reported_costliest_first(planted) -> None:
    replay, seat, _ = planted
    result = review(replay, seat, seed=2, budget=600)
    assert len(result.mistakes) <= 5
    costs = [m.cost for m in result.mistakes]
    assert costs == sorted(costs, reverse=True)
    for m in result.mistakes:
        assert m.suggested != m.action
        assert m.cost - m.margin > 0
        assert m.action == replay.action(m.step + 1) and m.action.seat == seat
        assert m.suggested in replay.game_at(m.step).legal_actions(seat)


def test_every_choice_of_the_seat_is_a_decision_and_forced_ones_are_not() -> None:
    replay = Replay.from_record(expert_record(3))
    for seat in (0, 3):
        found = decisions_of(replay, seat)
        steps = {d.step for d in found}
        for index, action in enumerate(replay.actions):
            if action.seat != seat:
                continue
            legal = replay.game_at(index).legal_actions(seat)
            if len(legal) == 1:
                assert index not in steps  # nothing to choose: a pass with no beat
        assert all(d.taken == replay.action(d.step + 1) for d in found)
        assert all(d.taken in d.actions and len(d.actions) > 1 for d in found)
        # declaring (宣点) is reviewed too
        assert any(d.taken.verb in (Verb.DECLARE, Verb.NODECLARE) for d in found)


def test_worlds_keep_the_seat_s_cards_and_guess_the_others() -> None:
    replay = Replay.from_record(expert_record(3))
    truth = None
    for d in decisions_of(replay, 2, seed=1):
        if d.obs.phase != "play" or d.obs.standing is None:
            continue
        truth = replay.game_at(d.step)
        worlds = d._worlds(4)
        for world in worlds:
            assert world.counts[2] == list(d.obs.counts)
            assert [sum(c) for c in world.counts] == [sum(c) for c in truth.counts]
        # the hidden hands are guessed, not read: they differ from the real ones
        assert any(w.counts[s] != truth.counts[s] for w in worlds for s in range(6) if s != 2)
        break
    assert truth is not None


def test_the_review_sees_only_the_seat_s_observation(planted, monkeypatch) -> None:
    """Every decision is built from ``observe(seat)`` of the reviewed seat."""
    replay, seat, _ = planted
    seen = []
    real = Game.observe  # the class the review builds its games of

    def spy(game, s):
        seen.append(s)
        return real(game, s)

    monkeypatch.setattr(Game, "observe", spy)
    decisions_of(replay, seat)
    assert seen and set(seen) == {seat}


def test_the_budget_bounds_the_rollouts(planted) -> None:
    replay, seat, _ = planted
    found = decisions_of(replay, seat)
    floor = review_mod.FIRST_WORLDS[0] * sum(len(d.actions) for d in found)
    for budget in (SMALL_BUDGET, 600):
        result = review(replay, seat, seed=3, budget=budget)
        assert result.rollouts <= max(budget, floor)
        assert result.decisions == len(found)


def test_the_json_has_what_the_picture_needs(planted) -> None:
    replay, seat, index = planted
    result = review(replay, seat, seed=1, budget=600)
    data = json.loads(json.dumps(result.to_json()))
    assert data["ok"] and data["seat"] == seat and data["budget"] == 600
    for item, m in zip(data["mistakes"], result.mistakes, strict=True):
        assert set(item) == {
            "step",
            "action",
            "suggested",
            "cost",
            "margin",
            "worlds",
            "hand",
            "standing",
            "standing_seat",
        }
        game = replay.game_at(item["step"])
        assert item["hand"] == game.hand_text(seat)
        assert item["standing"] == (None if game.standing is None else str(game.standing))
        assert item["action"] == str(m.action)


def test_only_a_finished_game_is_reviewed_and_seats_are_0_to_5() -> None:
    record = copy.deepcopy(expert_record(3))
    record["actions"] = record["actions"][:50]
    with pytest.raises(NotFinishedError):
        review_record(record, 0)
    with pytest.raises(ValueError, match="seat"):
        review(Replay.from_record(expert_record(3)), 6)


def test_a_review_with_nothing_clear_is_empty_not_invented() -> None:
    # a few worlds per decision are too little evidence for any mistake
    replay = Replay.from_record(expert_record(3))
    result = review(replay, 1, seed=0, budget=1)
    assert isinstance(result, Review) and result.mistakes == ()


def test_after_a_seat_leaves_its_actions_are_not_its_own_and_not_reviewed() -> None:
    record = copy.deepcopy(expert_record(3))
    record["actions"].insert(60, "4 leave")
    replay = Replay.from_record(record)
    before = decisions_of(Replay.from_record(expert_record(3)), 4)
    after = decisions_of(replay, 4)
    assert after and all(d.step < 60 for d in after)
    assert [d.step for d in after] == [d.step for d in before if d.step < 60]


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_every_game_is_reviewed_whatever_its_house_rules(name) -> None:
    """A game under each option set is reviewed: its decisions are played out (rollouts
    under the table's rules)."""
    game = Game.from_deal(31, OPTION_SETS[name])
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        seat = game.to_act[0]
        game.apply(decide(view_of_game(game, seat), EXPERT))
    result = review(Replay.from_record(record_of(game)), 1, seed=0, budget=SMALL_BUDGET)
    assert result.decisions > 5 and result.rollouts > result.decisions
