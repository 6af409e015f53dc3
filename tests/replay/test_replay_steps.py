"""录像: every step of a finished game, and the key moments to jump to."""

from __future__ import annotations

import copy

import pytest

from engine.actions import Action
from engine.game import Game
from engine.record import RecordError, ReplayError, game_from_record, state_json
from engine.replay_steps import (
    BURN,
    BURN_END,
    FINISH,
    KEYFRAME_EVERY,
    MELEE,
    OPEN,
    ROUND,
    NotFinishedError,
    Replay,
)
from tests.replay.helpers import expert_record

BURN_SEED = 17  # an expert game with two burns


def _by_hand(record: dict, step: int) -> dict:
    game = game_from_record(record)
    for text in record["actions"][:step]:
        game.apply_text(text)
    return state_json(game)


def test_every_step_is_the_game_after_that_many_actions() -> None:
    record = expert_record(BURN_SEED)
    replay = Replay.from_record(record)
    assert replay.steps == len(record["actions"]) > 2 * KEYFRAME_EVERY
    for step in range(replay.steps + 1):
        assert state_json(replay.game_at(step)) == _by_hand(record, step), step


def test_step_zero_is_the_deal_and_the_last_step_the_end() -> None:
    replay = Replay.from_record(expert_record(3))
    first, last = replay.game_at(0), replay.game_at(replay.steps)
    assert first.phase == "declare" and sum(map(sum, first.counts)) == 216
    assert last.finished and str(replay.action(replay.steps)) == expert_record(3)["actions"][-1]


def test_a_state_handed_out_is_a_copy() -> None:
    replay = Replay.from_record(expert_record(3))
    game = replay.game_at(20)
    game.apply(game.legal_actions(game.to_act[0])[-1])
    assert state_json(replay.game_at(20)) == _by_hand(expert_record(3), 20)


def test_steps_out_of_range_are_refused() -> None:
    replay = Replay.from_record(expert_record(3))
    with pytest.raises(IndexError):
        replay.game_at(replay.steps + 1)
    with pytest.raises(IndexError):
        replay.game_at(-1)
    with pytest.raises(IndexError):
        replay.action(0)


def test_a_round_starts_when_the_table_is_empty_and_someone_leads() -> None:
    replay = Replay.from_record(expert_record(BURN_SEED))
    rounds = replay.moments_of(ROUND)
    assert [m.number for m in rounds] == list(range(1, len(rounds) + 1))
    for m in rounds:
        game = replay.game_at(m.step)
        assert game.phase == "play" and game.standing is None and game.turn == m.seat
        # the next action is that seat's lead
        assert replay.action(m.step + 1).seat == m.seat
        assert replay.action(m.step + 1).verb == "play"
    # the first round begins once declaring is over
    assert rounds[0].step == 6
    assert all(
        replay.game_at(s).standing is not None
        for s in range(rounds[0].step + 1, replay.steps)
        if s not in {m.step for m in rounds} and replay.game_at(s).phase == "play"
    )


def test_each_open_finish_and_the_melee_are_moments_at_the_step_they_happen() -> None:
    replay = Replay.from_record(expert_record(BURN_SEED))
    final = replay.game_at(replay.steps)
    opens = replay.moments_of(OPEN)
    assert sorted(m.seat for m in opens if m.seat is not None) == [
        s for s in range(6) if final.opened[s]
    ]
    for m in opens:
        assert m.seat is not None  # every open is a seat's
        assert replay.game_at(m.step).opened[m.seat]
        assert not replay.game_at(m.step - 1).opened[m.seat]
    finishes = replay.moments_of(FINISH)
    assert [m.seat for m in finishes] == final.finish_order
    for m in finishes:
        assert m.seat is not None
        assert replay.game_at(m.step).places[m.seat] == m.place
        assert replay.game_at(m.step - 1).places[m.seat] is None
        assert replay.action(m.step).seat == m.seat  # went out with their own play
    (melee,) = replay.moments_of(MELEE)
    assert replay.game_at(melee.step).melee and not replay.game_at(melee.step - 1).melee


def test_a_burn_has_a_start_and_an_end() -> None:
    replay = Replay.from_record(expert_record(BURN_SEED))
    starts, ends = replay.moments_of(BURN), replay.moments_of(BURN_END)
    final = replay.game_at(replay.steps)
    assert [(m.seat, m.other) for m in starts] == [(b.burner, b.burned) for b in final.burns]
    assert [(m.seat, m.other, m.result) for m in ends] == [
        (b.burner, b.burned, b.result) for b in final.burns
    ]
    for start, end in zip(starts, ends, strict=True):
        assert start.step < end.step
        assert replay.game_at(start.step).current_burn is not None
        assert replay.action(start.step).verb == "burn"
        assert replay.game_at(end.step).current_burn is None


def test_the_rounds_of_a_small_position() -> None:
    rec = {
        "format": "gouji-record/1",
        "leader": 0,
        "hands": ["TTTTT6", "KK55", "AA44", "J2", "QQQ9", "889"],
        "actions": [
            "0 play TTTTT",
            "3 pass",
            "0 play 6",
            "1 play K",
            "2 play A",
            "3 play 2",
            "4 pass",
            "5 pass",
            "1 pass",
            "2 pass",
            "3 play J",
            "4 play Q",
            "5 pass",
            "1 play K",
            "2 play A",
            "4 pass",
            "5 pass",
            "1 pass",
            "2 play 44",
            "4 pass",
            "5 play 88",
            "1 pass",
            "4 play QQ",
            "5 pass",
            "1 pass",
            "4 play 9",
        ],
    }
    replay = Replay.from_record(rec)
    assert [m.step for m in replay.moments_of(ROUND)] == [0, 2, 10, 18, 25]


def test_an_unfinished_game_cannot_be_replayed() -> None:
    record = copy.deepcopy(expert_record(3))
    record["actions"] = record["actions"][:-1]
    with pytest.raises(NotFinishedError, match="not over"):
        Replay.from_record(record)


def test_a_void_deal_cannot_be_replayed() -> None:
    ranks = "".join(r * 16 for r in "3456789TJQKA2") + "BBBBRRRR"
    hands = [ranks[i * 36 : (i + 1) * 36] for i in range(6)]  # seats 0-4 may revolt
    actions = [f"{s} nodeclare" for s in range(6)] + ["0 revolt", "1 revolt"]
    actions += [f"{s} norevolt" for s in (2, 3, 4)]
    record = {"format": "gouji-record/1", "hands": hands, "actions": actions}
    with pytest.raises(NotFinishedError, match="void"):
        Replay.from_record(record)


def test_an_illegal_action_names_its_index() -> None:
    record = copy.deepcopy(expert_record(3))
    record["actions"][10] = "0 play RRRR"
    with pytest.raises(ReplayError) as err:
        Replay.from_record(record)
    assert err.value.index == 10


def test_a_series_game_replays_from_its_hands_after_tribute() -> None:
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parents[2] / "examples" / "series.json").read_text())
    from engine.record import series_from_record

    series = series_from_record(data)
    finished = [d for d in series.deals if d.finished]
    for deal in finished:
        assert deal.game is not None
        replay = Replay.from_record(data, game=deal.number)
        assert state_json(replay.game_at(replay.steps)) == state_json(deal.game)
        assert replay.game_at(0).dealt == deal.game.dealt
    last = finished[-1].game
    assert last is not None and Replay.from_record(data).final.places == last.places
    with pytest.raises(NotFinishedError):
        Replay.from_record(data, game=99)


def test_a_game_record_has_no_game_number() -> None:
    with pytest.raises(RecordError):
        Replay.from_record(expert_record(3), game=2)
    with pytest.raises(RecordError):
        Replay.from_record({"format": "nope"})


def test_the_replay_does_not_change_the_game_it_starts_from() -> None:
    record = expert_record(3)
    initial = game_from_record(record)
    before = state_json(initial)
    Replay(initial, [Action.parse(a) for a in record["actions"]])
    assert state_json(initial) == before and isinstance(initial, Game)


def test_a_real_series_game_after_tribute_replays_from_its_starting_hands() -> None:
    from engine.actions import Verb
    from engine.ai.hint import EXPERT, decide
    from engine.ai.view import view_of_game
    from engine.cards import deal
    from engine.record import series_from_record
    from engine.series import Series

    series = Series()
    entries = []
    for seed in (1, 2):
        current = series.start_game(deal(seed), seed)
        returns = []
        while current.pending_return is not None:
            giver = current.pending_return.giver
            action = Action(giver, Verb.RETURN, series.default_return(giver))
            series.apply(action)
            returns.append(str(action))
        game = current.game
        assert game is not None
        while not game.finished:
            seat = game.to_act[0]
            game.apply(decide(view_of_game(game, seat), EXPERT))
        entries.append(
            {
                "hands": [" ".join(str(c) for c in h) for h in current.dealt],
                "seed": seed,
                "returns": returns,
                "actions": [str(a) for a in game.actions],
            }
        )
    data = {"format": "gouji-series/1", "games": entries}
    second = series_from_record(data).deals[1]
    assert second.paid, "the second game began with tribute"
    replay = Replay.from_record(data, game=2)
    assert second.game is not None
    assert replay.game_at(0).dealt == second.game.dealt != second.dealt
    assert state_json(replay.final) == state_json(second.game)
