"""Record rules of docs/record.md that issue 18 found unchecked."""

from __future__ import annotations

import pytest

import engine
from engine.record import RecordError, replay_record

from .helpers import run


def test_a_real_game_refuses_an_empty_hand_of_a_seat_that_did_not_revolt():
    """docs/record.md: hands hold "at least one card each, except revolted seats"."""
    rec = {"format": "gouji-record/1", "hands": ["3h3h4", "", "5B", "6R", "7", "892"]}
    with pytest.raises(RecordError, match="seat 1"):
        replay_record(rec)


def test_a_revolutionary_holds_fourth_place_at_once():
    """docs/rules.en.md §5.4: a revolutionary "ranks 四科" — known from the revolution on."""
    r = run(["55", "66", "77", "88", "99", ""], [], revolted=[5])
    assert r["places"] == [None, None, None, None, None, 4]


def test_a_revolutionary_moves_up_to_third_when_its_team_takes_first_and_second():
    """docs/rules.en.md §5.4: "or 三科 if their team takes 头科 and 二科 (串三户)"."""
    hands = ["3", "K", "46", "Q", "5", ""]
    actions = ["1 play K", "2 pass", "3 pass", "4 pass", "0 pass", "2 play 4", "3 play Q"]
    r = run(hands, actions[:1], leader=1, revolted=[5])
    assert r["places"] == [None, 1, None, None, None, 4]
    r = run(hands, actions, leader=1, revolted=[5])
    assert r["finished"] and r["places"][1] == 1 and r["places"][3] == 2 and r["places"][5] == 3
    assert r["chuan_san_hu"]


def test_a_revolted_seats_hand_is_shown_empty_in_a_real_game():
    hands = ["3h 3h 5", "6 7", "8 9", "2 T", "B J", "R Q"]
    rec = {"format": "gouji-record/1", "hands": hands, "seed": 1}
    rec["actions"] = [f"{s} nodeclare" for s in range(6)] + ["0 revolt", "1 norevolt", "2 norevolt"]
    out = replay_record(rec)
    assert out["hands"][0] == "" and out["places"][0] == 4


def test_title_for_is_at_the_top_level_of_engine():
    assert engine.title_for(0) == "新人报到"
