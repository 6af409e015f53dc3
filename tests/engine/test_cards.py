"""Cards, the shoe (docs/rules.en.md §1) and the text notation (docs/record.md)."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Card, CardError, classify, deal, format_cards, new_shoe, parse_cards
from engine.cards import BIG_JOKER, NUM_RANKS, RANK_LETTERS, SMALL_JOKER, counts_of

from .strategies import counts_text, shoe_hands


def ranks(text: str) -> str:
    return "".join(RANK_LETTERS[c.rank] for c in parse_cards(text))


# --- the shoe and the deal (§1)


def test_shoe_is_four_decks_of_216_cards() -> None:
    shoe = new_shoe()
    assert len(shoe) == 216
    by_rank = Counter(c.rank for c in shoe)
    assert all(by_rank[r] == 16 for r in range(13))
    assert by_rank[SMALL_JOKER] == 4 and by_rank[BIG_JOKER] == 4
    assert all(n == 4 for n in Counter(c for c in shoe if not c.is_joker).values())


def test_deal_gives_six_hands_of_36_that_make_up_the_shoe() -> None:
    hands = deal(7)
    assert [len(h) for h in hands] == [36] * 6
    assert Counter(c for h in hands for c in h) == Counter(new_shoe())


def test_deal_is_a_function_of_the_seed() -> None:
    assert deal(3) == deal(3)
    assert deal(3) != deal(4)


def test_dealt_hands_are_sorted_low_to_high() -> None:
    for hand in deal(11):
        assert [c.rank for c in hand] == sorted(c.rank for c in hand)


# --- notation (docs/record.md, card notation)


def test_canonical_format_sorts_low_to_high_without_suits_or_spaces() -> None:
    assert format_cards(parse_cards("R2 7 7B 72")) == "77722BR"


def test_ten_is_T_or_10() -> None:
    assert ranks("T 10 t") == "TTT"


def test_jokers_as_letters_or_chinese() -> None:
    assert ranks("B R b r 小王 大王 小花 大花") == "BRBRBRBR"


def test_letters_are_case_insensitive() -> None:
    assert ranks("jqka") == ranks("JQKA") == "JQKA"


def test_spaces_and_commas_are_ignored() -> None:
    assert ranks(" 4, 4,4\t，5 ") == "4445"


def test_suits_may_follow_a_rank() -> None:
    cards = parse_cards("4h 4H 4s Tc 10d")
    assert [str(c) for c in cards] == ["4h", "4h", "4s", "Tc", "Td"]
    assert format_cards(cards) == "444TT"


def test_all_ranks_in_order() -> None:
    assert format_cards("R B 2 A K Q J T 9 8 7 6 5 4 3") == "3456789TJQKA2BR"


def test_format_accepts_text_cards_and_plays() -> None:
    assert format_cards("22 777") == "77722"
    assert format_cards(classify("22 777")) == "77722"
    assert format_cards([Card(4), Card(12)]) == "72"


def test_empty_text_is_no_cards() -> None:
    assert parse_cards(" , ") == []
    assert format_cards("") == ""


@given(shoe_hands(max_size=36))
def test_format_and_parse_round_trip(counts: list[int]) -> None:
    text = format_cards(parse_cards(counts_text(counts)))
    assert counts_of(parse_cards(text)) == counts
    assert format_cards(text) == text


@given(shoe_hands(max_size=20), st.randoms(use_true_random=False))
def test_format_ignores_order_case_and_separators(counts: list[int], rnd) -> None:
    letters = list(counts_text(counts))
    rnd.shuffle(letters)
    messy = ", ".join(ch.lower() if rnd.random() < 0.5 else ch for ch in letters)
    assert format_cards(messy) == format_cards(counts_text(counts))


# --- errors a player can act on


def test_unknown_token_names_the_token_and_its_position() -> None:
    with pytest.raises(CardError, match=r"unknown card 'x' at position 4: use 3-9, T \(or 10\)"):
        parse_cards("7 7x")


def test_a_lone_1_is_not_a_ten() -> None:
    with pytest.raises(CardError, match=r"unknown card '1' at position 3"):
        parse_cards("7 1")


def test_jokers_take_no_suit() -> None:
    with pytest.raises(CardError, match=r"suit 'h' at position 2 follows a joker"):
        parse_cards("Rh")


def test_card_errors_are_value_errors() -> None:
    assert issubclass(CardError, ValueError)


def test_cards_reject_impossible_ranks_and_suits() -> None:
    with pytest.raises(CardError, match="no such rank 15"):
        Card(NUM_RANKS)
    with pytest.raises(CardError, match="no such card 4x"):
        Card(1, "x")
    with pytest.raises(CardError, match="no such card Rh"):
        Card(BIG_JOKER, "h")


def test_cards_are_values() -> None:
    card = Card(3, "h")
    assert card == Card(3, "h") != Card(3, "s")
    assert repr(card) == "Card.parse('6h')"
    assert eval(repr(card), {"Card": Card}) == card  # the repr pastes back
    assert pickle.loads(pickle.dumps(card)) == copy.deepcopy(card) == card
