"""串三户 (docs/rules.en.md §6, §8.5): no tribute next game, the sweep game's place points doubled."""

from __future__ import annotations

from engine.record import replay_series
from engine.scoring import is_sweep, place_points

from .helpers import build_series, everyone_opens, game_of, position

RICH = "RRRBBB222345"
# Team 0 sweeps: 0 goes out with its 4, 2 with a 6, 4 with an 8 (beating 3's 7). Team 1 then
# takes the last places by cards left: 3 (T), 1 (99), 5 (JQK).
SWEEP_HANDS = ["4", "599", "6", "7T", "8", "JQK"]
SWEEP_ACTIONS = ["0 play 4", "1 play 5", "2 play 6", "3 pass", "4 pass", "5 pass", "1 pass"]
SWEEP_ACTIONS += ["3 play 7", "4 play 8"]
SWEEP_PLACES = [1, 5, 2, 4, 3, 6]


def test_sweep_is_one_team_taking_first_second_and_third():
    assert is_sweep([1, 5, 2, 4, 3, 6])
    assert is_sweep([4, 1, 5, 2, 6, 3])
    assert not is_sweep([1, 2, 3, 4, 5, 6])
    assert not is_sweep([1, 4, 2, 5, 6, 3])  # team 0 has 1st and 2nd, 3rd is team 1's


def test_sweep_doubles_the_place_points():
    assert place_points(SWEEP_PLACES, sweep=True) == [8, -4, 4, 0, 0, -8]
    assert place_points(SWEEP_PLACES, sweep=False) == [4, -2, 2, 0, 0, -4]


def test_sweep_game_place_points_doubled_and_nothing_owed_next_game():
    # Both seats 1 and 5 declared and nobody opened: without the sweep 点贡 would be owed.
    game1 = position(
        SWEEP_HANDS, 0, SWEEP_ACTIONS, declared=[False, True, False, False, False, True]
    )
    series, record = build_series([game1, position([RICH] * 6, 0)])
    g1 = game_of(series.deals[0])
    assert g1.places == SWEEP_PLACES and g1.sweep
    assert g1.points() == [8, -4, 4, 0, 0, -8]
    assert g1.tribute() == []
    assert series.deals[1].paid == [] and series.deals[1].returns == []
    out = replay_series(record)
    assert out["games"][0]["chuan_san_hu"] is True
    assert out["games"][0]["tribute"] == []
    assert out["games"][1]["paid"] == [] and out["games"][1]["returned"] == []


def test_sweep_doubles_place_points_but_not_the_tribute_paid_at_the_start_of_that_game():
    """Game 2 is the sweep; it began with 落贡 from game 1 (大落 4 pays 22 to 头科 5, 二落 3
    pays a 2 to 二科 0; neither receiver holds a rank the payer keeps, so nothing returns)."""
    hands = ["4", "599", "6", "7T2", "8 2 2", "JQK"]
    actions = ["0 play 4", "0 play 2"] + SWEEP_ACTIONS[1:]
    series, record = build_series([everyone_opens(), position(hands, 0, actions)])
    deal = series.deals[1]
    assert game_of(deal).places == SWEEP_PLACES and game_of(deal).sweep
    assert deal.tribute_points() == [1, 0, 0, -1, -2, 2]
    assert deal.score() == [1 + 8, -4, 4, -1, -2, 2 - 8]
    assert replay_series(record)["games"][1]["score"] == deal.score()


def test_revolutionary_whose_teammates_take_first_and_second_counts_as_third_a_sweep():
    """Seat 0 revolts; its teammates 2 and 4 go out first and second: 0 is 三科, 串三户."""
    hands = ["", "59", "4", "6T", "7", "8J"]
    actions = ["2 play 4", "3 play 6", "4 play 7"]
    series, record = build_series(
        [position(hands, 2, actions, revolted=[0]), position([RICH] * 6, 0)]
    )
    g1 = game_of(series.deals[0])
    assert g1.places[0] == 3 and g1.places[2] == 1 and g1.places[4] == 2
    points = g1.points()
    assert g1.sweep and points is not None and points[0] == 0 and points[2] == 8
    assert series.deals[1].paid == []
    assert replay_series(record)["games"][0]["chuan_san_hu"] is True


def test_revolutionary_holds_fourth_place_when_their_team_does_not_take_first_and_second():
    hands = ["", "59", "4", "6T", "8", "7J"]
    actions = ["2 play 4", "3 play 6", "4 pass", "5 play 7", "1 play 9"]
    series, _ = build_series([position(hands, 2, actions, revolted=[0])])
    g1 = game_of(series.deals[0])
    assert g1.places[0] == 4 and not g1.sweep
