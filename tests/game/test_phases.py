"""docs/rules.en.md §5 (declaring, revolution, first leader) and §7 (bie-san: 3s, buying, stifling)."""

from __future__ import annotations

import pytest

from engine.actions import IllegalActionError
from engine.cards import deal, parse_cards
from engine.game import Game, Options

from .helpers import game, refused

# everyone holds a 2 except seat 1, who may revolt
HANDS = ["4 5 2", "4 5 6", "7 8 2", "7 9 2", "T J 2", "Q K 2"]


def real(hands, bie_san=False, seed=1) -> Game:
    return Game([parse_cards(h) for h in hands], options=Options(bie_san=bie_san), seed=seed)


def test_declaring_waits_for_every_seat_at_once_and_hides_answers():
    g = real(HANDS)
    assert g.phase == "declare" and g.to_act == [0, 1, 2, 3, 4, 5]
    g.apply_text("2 declare")
    assert g.to_act == [0, 1, 3, 4, 5]
    assert "2 declare" not in g.observe(0).history and "2 declare" in g.observe(2).history
    with pytest.raises(IllegalActionError, match="already_declared"):
        g.apply_text("2 nodeclare")


def test_playing_before_declaring_is_over_is_refused():
    g = real(HANDS)
    with pytest.raises(IllegalActionError, match="declare_time"):
        g.apply_text("0 play 4")


def test_only_a_player_without_2s_and_jokers_may_revolt():
    g = real(HANDS)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    assert g.phase == "revolt" and g.to_act == [1]
    with pytest.raises(IllegalActionError, match="may_not_revolt"):
        g.apply_text("0 revolt")


def test_revolutionary_sits_out_and_its_opposite_counts_as_opened_and_headless():
    g = real(HANDS)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    g.apply_text("1 revolt")
    assert g.phase == "play" and g.revolted[1] and not g.is_active(1)
    assert g.opened[4] and g.is_headless(4) and not g.opened[1]


def test_no_revolt_phase_when_nobody_may():
    g = real(["4 2", "5 B", "6 2", "7 R", "8 2", "9 2"])
    for s in range(6):
        g.apply_text(f"{s} declare")
    assert g.phase == "play" and g.declared == [True] * 6


def test_two_revolutionaries_void_the_deal():
    g = real(["4 5", "4 6", "7 8 2", "7 9 2", "T J 2", "Q K 2"])
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    g.apply_text("0 revolt")
    g.apply_text("1 revolt")
    assert g.phase == "void" and g.to_act == []


def test_revolutionary_takes_fourth_place():
    g = game(["9", "", "T", "J", "Q", "K"], revolted=[1], leader=0)
    for a in ["0 play 9", "2 play T", "3 play J", "4 play Q"]:
        g.apply_text(a)
    # seats 0 and 2 out; seat 3, then 4 (4th is the revolutionary's), then 5: one team left
    assert g.places[1] == 4 and sorted(p for p in g.places if p is not None) == [1, 2, 3, 4, 5, 6]


def test_revolutionary_takes_third_place_when_its_team_takes_first_and_second():
    g = game(
        ["45", "", "45", "T", "6", "J"], ["3 play T", "4 pass", "5 play J"], revolted=[1], leader=3
    )
    assert g.phase == "finished"  # seats 0, 2, 4 are all that hold cards: one team
    assert (g.places[3], g.places[5], g.places[1]) == (1, 2, 3)
    assert g.sweep  # 串三户 with the revolutionary as 三科


def test_first_leader_has_most_threes_of_one_suit():
    hands = ["3s 3h 4 2", "3c 3c 3c 5 2", "3d 6 2", "7 2", "8 2", "9 2"]
    g = real(hands)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    assert g.leader == 1


def test_first_leader_tie_is_broken_by_the_seed_deterministically():
    hands = ["3s 3s 4 2", "3h 3h 5 2", "6 2", "7 2", "8 2", "9 2"]
    leaders = set()
    for seed in range(20):
        g = real(hands, seed=seed)
        for s in range(6):
            g.apply_text(f"{s} nodeclare")
        leaders.add(g.leader)
        again = real(hands, seed=seed)
        for s in range(6):
            again.apply_text(f"{s} nodeclare")
        assert again.leader == g.leader
    assert leaders == {0, 1}


def test_bie_san_first_leader_counts_fours():
    hands = ["4s 4s 3s 3s 3s 2", "4h 4h 4h 3 2", "2 3", "2 3", "2 3", "2 3"]
    g = real(hands, bie_san=True)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    assert g.leader == 1


def test_bie_san_a_three_goes_out_only_as_the_last_hand_all_threes():
    hands = ["335", "66K", "77Q", "88J", "44T", "99A"]
    assert "three_last" == refused(hands, [], "0 play 33", **bie_san_options())
    g = game(hands, ["0 play 5", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass"], bie_san=True)
    assert [str(p) for p in g.legal_plays(0)] == ["33"]
    g.apply_text("0 play 33")
    assert g.places[0] == 1


def bie_san_options() -> dict:
    return {"options": {"bie_san": True}}


def test_bie_san_stifled_when_an_opponent_beats_the_hand_before_the_threes():
    hands = ["335", "66K", "77Q", "88J", "44T", "99A"]
    g = game(hands, ["0 play 5", "1 play 6"], bie_san=True)
    assert g.stifled == [(0, 1)]


def test_bie_san_not_stifled_when_a_teammate_beats_it():
    hands = ["335", "66K", "77Q", "88J", "44T", "99A"]
    g = game(hands, ["0 play 5", "1 pass", "2 play 7"], bie_san=True)
    assert g.stifled == []


def test_bie_san_buying_a_three_from_the_opposite():
    g = real(["4 5 2", "3 3 6", "3 7", "3 3 8", "3 9", "3 T"], bie_san=True)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    assert g.bought == [(0, 3, 0, g.bought[0][3])] and str(g.bought[0][3]) == "2"
    assert g.counts[0][0] == 1 and g.counts[3][0] == 1 and g.counts[3][12] == 1


def test_bie_san_buying_from_another_opponent_in_play_order():
    g = real(["4 5 B", "3 3 6", "3 7", "3 8", "3 9", "3 3 T"], bie_san=True)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    assert (g.bought[0][0], g.bought[0][1], str(g.bought[0][3])) == (0, 1, "B")


def test_bie_san_asking_a_teammate_for_a_three_costs_nothing():
    g = real(["4 5 R", "3 6", "3 3 7", "3 8", "3 9", "3 T"], bie_san=True)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    assert g.bought[0] == (0, 2, 0, None) and g.counts[0][14] == 1


def test_bie_san_no_three_no_two_no_joker_revolts_automatically():
    g = real(["4 5 6", "3 2", "3 7 2", "3 8 2", "3 9 2", "3 T 2"], bie_san=True)
    for s in range(6):
        g.apply_text(f"{s} nodeclare")
    assert g.revolted[0] and g.phase == "play"


def test_full_deals_start_with_thirty_six_cards_each():
    g = Game.from_deal(5)
    assert [sum(c) for c in g.counts] == [36] * 6
    assert g.cards == [sorted(h, key=lambda c: (c.rank, c.suit or "")) for h in deal(5)]


def test_a_revolted_seat_in_a_position_record_holds_no_cards():
    from engine.record import RecordError, replay_record

    with pytest.raises(RecordError, match="revolted seat"):
        replay_record(
            {
                "format": "gouji-record/1",
                "hands": ["KK9", "AA78", "AA5", "AA6", "AA79", "2B5"],
                "leader": 0,
                "revolted": [5],
                "actions": [],
            }
        )


def test_every_question_lists_its_no_first_which_is_what_the_clock_answers() -> None:
    """宣点, 革命, 要头 and the burn window: the first legal action is the default answer (the
    table service takes it when a player's clock runs out)."""
    g = Game([parse_cards(h) for h in HANDS], options=Options(gou_si_ji=True), seed=1)
    firsts = [str(g.legal_actions(0)[0])]
    for seat in range(6):
        g.apply_text(f"{seat} nodeclare")
    firsts.append(str(g.legal_actions(1)[0]))
    g.apply_text("1 revolt")
    firsts.append(str(g.legal_actions(4)[0]))
    burn = game(["KK59", "AAR7", "AA5", "AA4", "AA56", "3467"], ["0 play KK"])
    firsts.append(str(burn.legal_actions(1)[0]))
    assert firsts == ["0 nodeclare", "1 norevolt", "4 nokeephead", "1 noburn"]
