"""docs/rules.en.md §3: turn flow, who may answer, yield, opening, finishing, headless."""

from __future__ import annotations

from .helpers import game, refused, run

# No seat can burn anything here: every hand keeps at least three sets and no joker.
PLAIN = ["5QQ89", "6KK8T", "7AA89", "3228T", "4TT89", "9JJ8T"]


def test_lead_may_not_pass():
    assert "lead_no_pass" == refused(PLAIN, [], "0 pass")


def test_answers_go_round_in_play_order_and_unanswered_player_leads_again():
    r = run(PLAIN, ["0 play 5", "1 play 6", "2 pass", "3 pass", "4 pass", "5 pass", "0 pass"])
    assert r["to_act"] == [1]


def test_not_your_turn_names_who_plays():
    assert refused(PLAIN, ["0 play 5"], "2 play 7") == "not_your_turn (seats=1)"


def test_passed_player_is_shut_out_of_the_round():
    actions = ["0 play 5", "1 pass", "2 play 7"]
    assert "passed_round (seat=1)" == refused(
        PLAIN, actions + ["3 pass", "4 pass", "5 pass"], "1 play K"
    )
    r = run(PLAIN, actions + ["3 pass", "4 pass", "5 pass", "0 pass"])
    assert r["to_act"] == [2]  # seat 1 got no turn on seat 2's hand


def test_passed_player_may_answer_its_opposite():
    actions = ["0 play 5", "1 pass", "2 pass", "3 pass", "4 play T", "5 pass", "0 pass"]
    assert run(PLAIN, actions)["to_act"] == [1]


def test_passed_player_stays_passed_after_answering_its_opposite():
    hands = ["5QQ89", "6KK8T", "7AA89", "3228T", "4TT89", "9JJ8T"]
    g = game(hands, ["0 play 5", "1 pass", "2 pass", "3 pass", "4 play T", "5 play J", "0 pass"])
    # seat 5's J: seat 1 passed and 5 is not its opposite; seat 2 passed but 5 is its opposite
    assert g.queue == [2, 4]
    g.apply_text("2 pass")
    g.apply_text("4 pass")
    assert g.to_act == [5] and g.standing is None
    g2 = game(
        hands,
        ["0 play 5", "1 pass", "2 pass", "3 pass", "4 play T", "5 pass", "0 pass", "1 play K"],
    )
    assert g2.passed[1] and g2.queue == [4]


def test_gouji_hand_only_its_opposite_may_answer():
    hands = ["KK5", "AA67", "AA78", "228", "9TJ", "JQ4"]
    reason = refused(hands, ["0 play KK"], "1 play AA")
    assert reason == "gouji_opposite_only (seat=1, q=0, opp=3)"
    assert run(hands, ["0 play KK"])["to_act"] == [3]


def test_unanswered_gouji_hand_its_player_leads_and_opens():
    r = run(["KK5", "AA67", "AA78", "228", "9TJ", "JQ4"], ["0 play KK", "3 pass"])
    assert r["to_act"] == [0] and r["opened"][0]


def test_opposite_answers_gouji_hand_and_opens_with_twos():
    r = run(["KK5", "AA67", "AA78", "228", "9TJ", "JQ4"], ["0 play KK", "3 play 22", "0 pass"])
    assert r["to_act"] == [3] and r["opened"] == [False, False, False, True, False, False]


def test_single_two_does_not_open():
    r = run(["25", "36", "47", "58", "69", "7T"], ["0 play 2", "3 pass"])
    assert r["to_act"] == [0] and not r["opened"][0]


def test_joker_hand_does_not_open():
    r = run(["BKK5", "AA67", "AA78", "338", "9TJ", "JQ4"], ["0 play BKK", "3 pass"])
    assert r["to_act"] == [0] and not r["opened"][0]


def test_non_gouji_hand_does_not_open():
    r = run(PLAIN, ["0 play QQ", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass"])
    assert r["to_act"] == [0] and not r["opened"][0]


def test_finisher_takes_first_place_and_the_next_seat_takes_over_the_lead():
    r = run(
        ["9", "36", "47", "58", "36", "37"],
        ["0 play 9", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass"],
    )
    assert r["places"][0] == 1 and r["to_act"] == [1]


def test_take_over_lead_skips_finished_seats():
    hands = ["9", "T", "47", "58", "36", "37"]
    r = run(hands, ["0 play 9", "1 play T", "2 pass", "3 pass", "4 pass", "5 pass"])
    assert r["places"][:2] == [1, 2] and r["to_act"] == [2]


def test_unbeaten_last_gouji_hand_opens():
    r = run(["KK", "AA67", "AA78", "338", "9TJ", "JQ4"], ["0 play KK", "3 pass"])
    assert r["places"][0] == 1 and r["opened"][0] and r["to_act"] == [1]


def test_last_gouji_hand_is_answered_only_by_the_opposite():
    reason = refused(["KK", "AA67", "AA78", "338", "9TJ", "JQ4"], ["0 play KK"], "1 play AA")
    assert reason == "gouji_opposite_only (seat=1, q=0, opp=3)"


def test_headless_player_may_answer_a_gouji_hand_without_burning():
    hands = ["AA7", "3456", "3457", "9", "KK58", "3468"]
    g = game(hands, ["3 play 9", "4 pass", "5 pass", "0 pass", "1 pass", "2 pass"], leader=3)
    assert g.places[3] == 1 and g.turn == 4 and g.is_headless(0)
    g.apply_text("4 play KK")
    assert g.to_act == [0]  # seat 0 is headless, seat 1 the opposite
    g.apply_text("0 play AA")
    assert g.burns == [] and g.standing_seat == 0


def test_headless_players_hands_may_be_answered_by_anyone():
    hands = ["AA7", "3456", "3457", "9", "KK58", "3468"]
    g = game(hands, ["3 play 9", "4 pass", "5 pass", "0 pass", "1 pass", "2 pass"], leader=3)
    for a in ["4 play 5", "5 pass", "0 play 7", "1 pass", "2 pass", "4 pass"]:
        g.apply_text(a)
    assert g.turn == 0 and g.standing is None
    g.apply_text("0 play AA")  # gouji, but seat 0 is headless: a normal hand, no burn window
    assert not g.standing_restricted and g.window is None
    assert g.queue == [1, 2, 4, 5]


def test_yield_lets_the_next_two_seats_answer_first_then_comes_back_once():
    g = game(PLAIN, ["0 play 5", "1 pass", "2 pass"])
    assert "3 yield" in [str(a) for a in g.legal_actions(3)]
    g.apply_text("3 yield")
    assert g.to_act == [4]
    g.apply_text("4 pass")
    assert g.to_act == [5]
    g.apply_text("5 pass")
    assert g.to_act == [3]
    assert "3 yield" not in [str(a) for a in g.legal_actions(3)]
    g.apply_text("3 pass")
    assert g.to_act == [0] and g.standing is None


def test_yield_a_second_time_is_refused():
    actions = ["0 play 5", "1 pass", "2 pass", "3 yield", "4 pass", "5 pass"]
    assert "yield_twice" == refused(PLAIN, actions, "3 yield")


def test_yielder_counts_as_not_passed_when_someone_beats():
    g = game(PLAIN, ["0 play 5", "1 pass", "2 pass", "3 yield", "4 play 9"])
    assert g.queue == [5, 0, 1, 3]  # seat 1 answers its opposite; seat 3 did not pass


def test_yield_only_on_the_opposites_hand():
    assert "yield_opposite_only" == refused(PLAIN, ["0 play 5"], "1 yield")


def test_no_yield_on_a_gouji_hand():
    hands = ["KK5", "AA67", "AA78", "228", "9TJ", "JQ4"]
    assert "yield_gouji" == refused(hands, ["0 play KK"], "3 yield")


def test_a_play_must_have_as_many_cards():
    assert "wrong_size (cards=KK, standing=5, size=1)" == refused(PLAIN, ["0 play 5"], "1 play KK")


def test_a_play_must_beat_every_card():
    assert "not_higher (cards=8, standing=9)" == refused(PLAIN, ["0 play 9"], "1 play 8")


def test_cards_not_held_are_refused_and_change_nothing():
    g = game(PLAIN, ["0 play 5"])
    before = (g.to_act, [list(c) for c in g.counts], len(g.actions))
    import pytest

    from engine.actions import IllegalActionError

    with pytest.raises(IllegalActionError, match=r"not_held_hand \(cards=AA, hand=68TKK\)"):
        g.apply_text("1 play AA")
    assert before == (g.to_act, [list(c) for c in g.counts], len(g.actions))
