"""docs/rules.en.md §4: burning (烧牌)."""

from __future__ import annotations

from .helpers import game, refused, run

# Seat 0 leads KK. Seats 1 and 2 can burn with AA (one set, or none, left beside jokers);
# seat 4's AA would leave two sets and no joker: not a completable burn.
BURNABLE = ["KK59", "AAR7", "AA5", "AA4", "AA56", "3467"]


def test_burn_window_asks_every_eligible_seat_before_the_opposite():
    g = game(BURNABLE, ["0 play KK"])
    assert g.to_act == [1, 2]  # not 3 (the opposite), not 4 (cannot complete), not 5
    assert [str(a) for a in g.legal_actions(1)] == ["1 noburn", "1 burn AA"]


def test_no_burn_lets_the_opposite_answer():
    r = run(BURNABLE, ["0 play KK", "1 noburn", "2 noburn"])
    assert r["to_act"] == [3] and r["burns"] == []


def test_burn_priority_goes_to_the_team_of_the_burned_player():
    r = run(BURNABLE, ["0 play KK", "1 burn AA", "2 burn AA"])
    assert r["burns"] == [{"burner": 2, "burned": 0, "result": "ongoing"}]
    assert r["hands"][1] == "7AAR"  # the other would-be burner keeps its cards


def test_burn_priority_within_a_team_goes_in_play_order():
    hands = ["KK59", "AAR7", "3456", "AA4", "AA56", "AA"]
    r = run(hands, ["0 play KK", "5 burn AA", "1 burn AA"])
    assert r["burns"][0]["burner"] == 1


def test_burn_must_be_completable():
    g = game(["KK59", "AA57", "AA5", "AA4", "AA56", "3467"], ["0 play KK"])
    assert 1 not in g.to_act and 4 not in g.to_act


def test_burners_hand_is_answered_only_by_its_opposite():
    g = game(BURNABLE, ["0 play KK", "1 burn AA", "2 noburn"])
    assert g.to_act == [4] and g.standing_seat == 1


def test_burner_leads_must_carry_a_joker_except_the_last():
    actions = ["0 play KK", "1 burn AA", "2 noburn", "4 pass"]
    assert "burn_lead" == refused(BURNABLE, actions, "1 play 7")
    g = game(BURNABLE, actions)
    assert sorted(str(p) for p in g.legal_plays(1)) == ["7R", "R"]


def test_burn_succeeds_when_the_burner_goes_out_and_the_burned_owes_tribute():
    actions = ["0 play KK", "1 burn AA", "2 noburn", "4 pass", "1 play R", "4 pass", "1 play 7"]
    r = run(BURNABLE, actions)
    assert r["burns"] == [{"burner": 1, "burned": 0, "result": "success"}]
    assert r["places"][1] == 1


def test_successful_burns_are_those_whose_burner_went_out_not_the_broken_ones():
    hands = ["KK59", "AAR7", "AA5", "AA4", "AA56", "22B"]
    actions = ["0 play KK", "1 burn AA", "2 noburn", "5 noburn", "5 burn 22", "2 pass"]
    g = game(hands, [*actions, "5 play B"])
    assert [(b.burner, b.result) for b in g.burns] == [(1, "broken"), (5, "success")]
    assert [(b.burner, b.burned) for b in g.successful_burns()] == [(5, 1)]
    assert len(g.successful_burns(5)) == 1 and g.successful_burns(1) == []
    assert game(hands, actions).successful_burns() == []  # ongoing: not yet a success


def test_burn_is_broken_when_someone_beats_the_burner():
    hands = ["KK59", "AAR7", "AA5", "AA4", "22R56", "3467"]
    r = run(hands, ["0 play KK", "1 burn AA", "2 noburn", "4 noburn", "4 play 22"])
    assert r["burns"] == [{"burner": 1, "burned": 0, "result": "broken"}]


def test_a_burners_hand_can_be_burned_which_breaks_the_first_burn():
    hands = ["KK59", "AAR7", "AA5", "AA4", "AA56", "22B"]
    g = game(hands, ["0 play KK", "1 burn AA", "2 noburn", "5 noburn"])
    assert g.standing_seat == 1 and g.to_act == [5]  # a new window: only seat 5 beats AA
    g.apply_text("5 burn 22")
    assert [(b.burner, b.burned, b.result) for b in g.burns] == [
        (1, 0, "broken"),
        (5, 1, "ongoing"),
    ]


def test_a_burn_that_goes_out_succeeds_even_when_it_begins_the_melee():
    # seat 0 goes out with KK (four left in play: the melee waits for it to be settled);
    # seat 1 burns it with its last two cards: the burn is complete, not broken
    r = run(["KK", "AA", "99", "55", "66", ""], ["0 play KK", "1 burn AA"], revolted=[5])
    assert r["burns"] == [{"burner": 1, "burned": 0, "result": "success"}] and r["melee"]
    full = [
        "0 play KK",
        "1 burn AA",
        "2 pass",
        "3 pass",
        "4 pass",
        "2 play 99",
        "3 pass",
        "4 pass",
        "3 play 55",
    ]
    r = run(["KK", "AA", "99", "55", "66", ""], full, revolted=[5])
    assert r["finished"] and {"kind": "burn", "from": 0, "to": 1, "count": 1} in r["tribute"]


MELEE_BURN = ["KK", "AAR77", "66", "99J", "88Q", ""]
MELEE_BURN_ACTIONS = ["0 play KK", "1 burn AA", "2 pass", "3 pass", "4 pass"]


def test_into_the_melee_a_burn_goes_on_and_succeeds_on_the_burners_last_card():
    """docs/rules.en.md §4 Into the melee: a burn still going on when the melee begins goes on;
    001: "如果中间对头压牌或其他人烧此烧牌者，则算“解烧”" — the start of the melee is neither.
    The minimal record of issue 18."""
    start = run(MELEE_BURN, ["0 play KK", "1 burn AA"], revolted=[5])
    assert start["melee"] and start["burns"][0]["result"] == "ongoing"
    r = run(
        MELEE_BURN,
        MELEE_BURN_ACTIONS + ["1 play 7R", "2 pass", "3 pass", "4 pass", "1 play 7"],
        revolted=[5],
    )
    assert r["burns"] == [{"burner": 1, "burned": 0, "result": "success"}]


def test_into_the_melee_the_burners_leads_are_free():
    """§4: "their leads need no joker and need not keep the burn completable, since 四户乱缠
    lifts the burn rules" (001: "其余四人将不再按够级、过牌、让牌、烧牌等规则进行")."""
    r = run(MELEE_BURN, MELEE_BURN_ACTIONS + ["1 play 77"], revolted=[5])
    assert r["burns"][0]["result"] == "ongoing"


def test_into_the_melee_a_burn_breaks_when_another_player_beats_the_burner():
    """§4: "The burn is broken if another player, of either team, beats one of the burner's
    hands before the burner goes out"."""
    r = run(MELEE_BURN, MELEE_BURN_ACTIONS + ["1 play 77", "2 pass", "3 play 99"], revolted=[5])
    assert r["burns"][0]["result"] == "broken"


def test_bie_san_a_burn_that_leaves_only_threes_can_be_stifled():
    hands = ["KK4", "AA333", "5", "6", "2279", "8"]
    r = run(hands, ["0 play KK", "1 burn AA", "4 play 22"], options={"bie_san": True})
    assert r["burns"][0]["result"] == "broken"
    assert r["stifled"] == [{"seat": 1, "by": 4}]
