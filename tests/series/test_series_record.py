"""Series records (docs/record.md ``gouji-series/1``) that are not right, and series bookkeeping:
clear errors that change nothing."""

from __future__ import annotations

import copy

import pytest

from engine.actions import Action, IllegalActionError
from engine.record import RecordError, ReplayError, replay_series
from engine.series import Series

from .helpers import build_series, everyone_opens, position

QUIET = ["4", "5", "6", "7", "8", "9"]  # seats finish in play order from the leader


def _five_quiet_games() -> dict:
    return build_series([position(QUIET, 0)] * 5)[1]


def test_a_series_is_five_games_and_a_sixth_is_refused():
    record = _five_quiet_games()
    assert len(replay_series(record)["games"]) == 5
    record["games"].append(copy.deepcopy(record["games"][0]))
    with pytest.raises(RecordError, match=r"games\[5\]"):
        replay_series(record)


def test_a_void_deal_does_not_use_up_one_of_the_five_games():
    record = _five_quiet_games()
    record["games"].insert(2, position(QUIET, 0, revolted=[1, 2]))
    out = replay_series(record)
    assert len(out["games"]) == 6 and out["games"][2]["to_act"] == []


def test_a_game_that_is_not_over_before_the_next_is_refused_where_it_stops():
    record = _five_quiet_games()
    del record["games"][1]["actions"][-1]
    with pytest.raises(ReplayError) as info:
        replay_series(record)
    err = info.value.to_json()["error"]
    assert err["game"] == 1 and err["index"] == len(record["games"][1]["actions"])
    assert "not over" in err["reason"]


def test_a_return_in_the_first_game_is_refused():
    record = _five_quiet_games()
    record["games"][0]["returns"] = ["0 return 4"]
    with pytest.raises(ReplayError) as info:
        replay_series(record)
    assert info.value.game == 0 and info.value.index == 0
    assert info.value.reason == "no_return_due"


def test_returns_hold_only_return_actions():
    _, record = build_series(
        [everyone_opens(), position(["345", "345", "345", "2 4", "RR 7", "7 8 9"], 1)]
    )
    record["games"][1]["returns"] = ["5 pass"]
    with pytest.raises(ReplayError) as info:
        replay_series(record)
    assert info.value.index == 0 and "return" in info.value.reason


def test_a_position_left_unplayable_by_tribute_is_a_record_error_and_changes_nothing():
    """大落 seat 4 holds only RR and pays both: it would start game 2 with no cards."""
    series, record = build_series([everyone_opens()])
    hands = ["345", "345", "345", "345", "R R", "3 7 8"]
    with pytest.raises(ValueError, match="seat 4 has no cards"):
        series.start_game(hands, None, (1, None, []))
    assert len(series.deals) == 1 and series.number_of_next_game == 2
    record["games"].append(position(hands, 1))
    with pytest.raises(RecordError, match=r"games\[1\]"):
        replay_series(record)


def test_a_return_that_would_leave_an_unplayable_position_is_undone():
    series, _ = build_series([everyone_opens()])
    series.start_game(["7", "345", "345", "2 7", "R R", "3 8"], None, (1, None, []))
    deal = series.current
    assert deal is not None
    assert series.to_act == [0]  # 头科's return was settled empty: seat 4 holds nothing
    hands = [list(h) for h in deal.hands]
    with pytest.raises(ValueError, match="seat 4 has no cards"):
        series.apply(Action.parse("0 return 7"))
    assert deal.pending_return is not None
    assert deal.hands == hands and deal.pending_return.giver == 0 and deal.game is None


def test_a_new_game_cannot_be_dealt_while_one_is_being_played():
    series = Series()
    series.start_game(QUIET, None, (0, None, []))
    with pytest.raises(IllegalActionError, match="game_not_over"):
        series.start_game(QUIET, None, (0, None, []))
