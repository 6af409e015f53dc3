"""The ``SEAT VERB [CARDS]`` shape the store accepts and checks on load."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from data import ActionShape, InvalidInputError, check_action
from data.actions import _PLAIN_CARDS, _check_cards, check_hands
from engine import CardError, parse_cards


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("0 play TTTTT", ActionShape(0, "play", "TTTTT")),
        ("5 play 9s 9h 2d R", ActionShape(5, "play", "9s 9h 2d R")),
        ("3 burn 44", ActionShape(3, "burn", "44")),
        ("1 return 4h 5s", ActionShape(1, "return", "4h 5s")),
        ("2 pass", ActionShape(2, "pass", None)),
        ("2 yield", ActionShape(2, "yield", None)),
        ("4 noburn", ActionShape(4, "noburn", None)),
        ("4 leave", ActionShape(4, "leave", None)),
        ("0 declare", ActionShape(0, "declare", None)),
        ("0 nodeclare", ActionShape(0, "nodeclare", None)),
        ("1 revolt", ActionShape(1, "revolt", None)),
        ("1 norevolt", ActionShape(1, "norevolt", None)),
    ],
)
def test_well_formed_actions_are_accepted(text, parsed) -> None:
    assert check_action(text) == parsed


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("6 pass", "not 'SEAT VERB"),
        ("0  pass", "not 'SEAT VERB"),
        (" 0 pass", "not 'SEAT VERB"),
        ("0 pass ", "not 'SEAT VERB"),
        ("0 pla", "unknown verb 'pla'"),
        ("0 play", "needs the cards"),
        ("0 play ", "not 'SEAT VERB"),
        ("0 play 9x", "not card notation"),
        ("0 pass 9", "takes no cards"),
        ("0 PLAY 9", "not 'SEAT VERB"),
        ("", "not 'SEAT VERB"),
        (None, "must be a string"),
    ],
)
def test_malformed_actions_are_refused_with_the_reason(text, reason) -> None:
    with pytest.raises(InvalidInputError, match=reason):
        check_action(text)


def test_hands_must_be_six_strings_of_card_notation() -> None:
    assert check_hands(["3s 4h", "R", "B", "2c", "", "TT"]) == ("3s 4h", "R", "B", "2c", "", "TT")
    with pytest.raises(InvalidInputError, match="six strings"):
        check_hands(["3"] * 5)
    with pytest.raises(InvalidInputError, match="seat 2 is not card notation"):
        check_hands(["3", "4", "xyz", "5", "6", "7"])
    with pytest.raises(InvalidInputError, match="seat 1 must be a string"):
        check_hands(["3", 4, "5", "6", "7", "8"])


@given(st.from_regex(_PLAIN_CARDS, fullmatch=True))
def test_the_fast_card_check_accepts_only_what_parse_cards_accepts(text) -> None:
    assert parse_cards(text)


@given(st.text(alphabet="3456789TJQKA2BRshdcx10 ,", max_size=12))
def test_card_check_agrees_with_parse_cards(text) -> None:
    try:
        expected = bool(parse_cards(text))
    except CardError:
        expected = False
    assert (_check_cards(text) is None) == expected
