"""Points (docs/rules.en.md §8.6; docs/record.md series points): seat points, team scores, the leave
penalty, and void deals."""

from __future__ import annotations

import pytest

from engine.actions import IllegalActionError
from engine.record import replay_series
from engine.scoring import PLACE_POINTS, place_points, team_scores
from engine.series import Series

from .helpers import build_series, everyone_opens, game_of, position

RICH = "RRRBBB222345"


def test_place_points_are_four_two_zero_zero_minus_two_minus_four():
    assert PLACE_POINTS == {1: 4, 2: 2, 3: 0, 4: 0, 5: -2, 6: -4}
    assert place_points([2, 3, 4, 5, 6, 1], sweep=False) == [2, 0, 0, -2, -4, 4]


def test_seat_points_are_place_points_plus_one_per_tribute_card_received_minus_one_per_card_paid():
    # Game 2 (a position) starts with 落贡 only: 4 pays RR to 5, 3 pays R to 0.
    series, record = build_series([everyone_opens(), position([RICH] * 6, 1)])
    deal = series.deals[1]
    assert deal.tribute_points() == [1, 0, 0, -1, -2, 2]
    places = [p for p in game_of(deal).places if p is not None]  # finished: all six
    expected = [t + PLACE_POINTS[p] for t, p in zip(deal.tribute_points(), places, strict=True)]
    assert deal.score() == expected
    out = replay_series(record)
    assert out["games"][1]["score"] == expected
    assert out["totals"] == [a + b for a, b in zip(series.deals[0].score(), expected, strict=True)]


def test_a_players_game_score_is_the_sum_of_their_teams_seat_points():
    assert team_scores([4, 2, 0, 0, -2, -4]) == [2, -2, 2, -2, 2, -2]
    series, _ = build_series([everyone_opens()])
    team0 = sum(series.totals()[s] for s in (0, 2, 4))
    assert series.player_scores() == [team0, -team0] * 3


def test_team_points_sum_to_zero_in_every_game():
    series, _ = build_series([everyone_opens(), position([RICH] * 6, 1)])
    for deal in series.deals:
        assert sum(deal.score()) == 0
    assert sum(series.team_totals()) == 0


def test_leaving_costs_that_player_alone_ten_points():
    actions = ["2 leave"]  # seat 2 leaves at once; the quiet finish plays for it
    series, record = build_series([position(["4", "5", "6", "7", "8", "9"], 0, actions)])
    assert series.penalties() == [0, 0, -10, 0, 0, 0]
    assert series.totals() == place_points([1, 2, 3, 4, 5, 6], sweep=False)  # seat points unchanged
    team = series.team_totals()
    assert series.player_scores() == [team[0], team[1], team[0] - 10, team[1], team[0], team[1]]
    assert replay_series(record)["penalties"] == [0, 0, -10, 0, 0, 0]


def test_leaving_twice_in_one_game_is_refused():
    series, _ = build_series([position(["44", "5", "6", "7", "8", "9"], 0, ["2 leave"])])
    with pytest.raises(IllegalActionError):
        game_of(series.deals[0]).apply(game_of(series.deals[0]).actions[0])


VOID_DEAL = {  # real-game form: seats 1 and 2 hold no 2 and no joker and both revolt
    "seed": 3,
    "actions": [f"{s} nodeclare" for s in range(6)] + ["1 revolt", "2 revolt"],
}
REDEAL = position(["RR 4", "B 5", "2 6", "7", "2 8", "9 R"], 0)


def test_a_void_deal_is_no_game_and_its_tribute_does_not_count():
    """Game 2 is dealt and its tribute paid (大落 4 gives RR, 二落 3 a 2), then two revolt:
    void. The redeal is game 2 again; tribute is paid again from its hands, and only that
    counts."""
    void = dict(VOID_DEAL, hands=["4s 2h", "5s", "6s", "7s 2d", "8s B R R", "9s R"])
    series, record = build_series([everyone_opens(), void, REDEAL])
    void_deal, redeal = series.deals[1], series.deals[2]
    assert void_deal.void and void_deal.paid  # tribute was paid, then the deal went void
    assert void_deal.score() == [0] * 6 and void_deal.tribute_points() == [0] * 6
    assert void_deal.number == redeal.number == 2
    assert [d.number for d in series.counted] == [1, 2]
    # the redeal pays again: 4 gives its 2 and nothing else (no joker there), 3 nothing.
    assert [(p.kind, p.payer, p.receiver, len(p.cards)) for p in redeal.paid] == [
        ("place", 4, 5, 1)
    ]
    assert series.totals() == [
        a + b for a, b in zip(series.deals[0].score(), redeal.score(), strict=True)
    ]
    out = replay_series(record)
    assert out["games"][1]["score"] == [0] * 6 and out["games"][1]["to_act"] == []
    assert out["totals"] == series.totals()


def test_a_void_deal_does_not_count_towards_the_five_games():
    series = Series()
    series.start_game(["4", "5", "6", "7", "8", "9"], None, (0, None, [1, 2]))
    assert series.current is not None
    assert series.current.void and series.number_of_next_game == 1
    assert series.counted == []
