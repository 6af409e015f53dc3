"""docs/rules.en.md §3.5 (four-way melee) and §3.6 (end of the game)."""

from __future__ import annotations

from .helpers import game, refused, run

MELEE = ["9", "T", "5KK8J", "6AA8J", "7QQ822", "4JJ3Q"]
TO_MELEE = ["0 play 9", "1 play T", "2 pass", "3 pass", "4 pass", "5 pass"]


def test_melee_begins_once_the_second_finishers_hand_is_settled():
    g = game(MELEE, ["0 play 9", "1 play T"])
    assert g.places[:2] == [1, 2] and not g.melee  # seat 1's T is still answered as usual
    for a in TO_MELEE[2:]:
        g.apply_text(a)
    assert g.melee and g.turn == 2  # seat 1 finished: the next active seat leads


def test_melee_passing_does_not_shut_a_player_out():
    g = game(MELEE, TO_MELEE + ["2 play 5", "3 pass", "4 play 7", "5 pass", "2 pass"])
    assert g.turn == 3
    g.apply_text("3 play 8")  # seat 3 passed earlier this round
    assert g.standing_seat == 3


def test_melee_round_ends_when_every_other_player_passes_in_a_row():
    g = game(MELEE, TO_MELEE + ["2 play 5", "3 pass", "4 play 7", "5 pass", "2 pass", "3 pass"])
    assert g.turn == 4 and g.standing is None


def test_melee_has_no_gouji_restriction_no_burn_and_no_opening():
    actions = TO_MELEE + ["2 play KK", "3 play AA", "4 play 22", "5 pass", "2 pass", "3 pass"]
    r = run(MELEE, actions)
    assert r["melee"] and r["burns"] == [] and r["to_act"] == [4]
    assert r["opened"] == [False] * 6


def test_no_yield_in_the_melee():
    assert "melee" in refused(MELEE, TO_MELEE + ["2 play 5"], "3 yield")
    g = game(MELEE, TO_MELEE + ["2 play 5"])
    assert all(a.verb != "yield" for a in g.legal_actions(3))


def test_game_ends_when_one_team_holds_all_cards_left_fewer_cards_first_then_play_order():
    hands = ["9", "345", "T", "35", "J", "36"]
    r = run(hands, ["0 play 9", "1 pass", "2 play T", "3 pass", "4 play J"])
    assert r["finished"] and r["to_act"] == []
    # seats 3 and 5 both hold two cards: seat 5 comes first after seat 4, the last finisher
    assert r["places"] == [1, 6, 2, 5, 3, 4]


def test_sweep_doubles_place_points_and_owes_no_tribute():
    hands = ["9", "345", "T", "35", "J", "36"]
    r = run(hands, ["0 play 9", "1 pass", "2 play T", "3 pass", "4 play J"])
    assert r["chuan_san_hu"]
    assert r["points"] == [8, -8, 4, -4, 0, 0]
    assert r["tribute"] == []
