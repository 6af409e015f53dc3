"""Legal plays (docs/rules.en.md §2, §2.1, §7): complete and exact, checked against brute force
and pinned by the perft table in perft.json."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CardError, HandError, Play, classify, deal, format_cards, legal_plays
from engine.cards import BIG_JOKER, SMALL_JOKER, THREE, TWO, counts_of

from .perft import STANDINGS, compute_table, load_table
from .strategies import (
    brute_force_plays,
    plays,
    small_hands,
    sub_multisets_of_size,
)


def texts(hand, standing=None, bie_san=False) -> list[str]:
    return [format_cards(p) for p in legal_plays(hand, standing, bie_san=bie_san)]


# --- small examples


def test_leads_of_a_small_hand() -> None:
    assert sorted(texts("KK2")) == sorted(["K", "KK", "K2", "KK2", "2"])


def test_leads_with_jokers_attach_any_number_of_each() -> None:
    assert sorted(texts("9BR")) == sorted(["9", "9B", "9R", "9BR", "B", "R", "BR"])


def test_answers_are_the_same_size_and_higher() -> None:
    assert sorted(texts("33 KK 2 A", "QQ")) == ["A2", "K2", "KK"]


def test_answers_to_a_joker_part_need_big_jokers() -> None:
    assert texts("888 99 BB RR", "BB777") == ["888RR"]
    # 99BRR would count as 99BBB; 99RRR needs three big jokers.
    assert texts("99 B RR", "BB777") == []
    assert sorted(texts("99 RRR", "BB777")) == ["99RRR"]


def test_nothing_answers_big_jokers_without_a_small_one() -> None:
    assert texts(format_cards("3456789TJQKA2BR" * 4), "R2") == []


def test_mixed_jokers_answer_number_hands_as_small_jokers() -> None:
    assert "BR" in texts("BR", "AA")
    assert texts("BR", "BB") == []


def test_bie_san_3s_only_as_the_whole_hand() -> None:
    assert "3" not in texts("33 4", bie_san=True)
    assert "32" not in texts("3 2", bie_san=True)
    assert texts("333", bie_san=True) == ["333"]
    assert texts("33 4") == ["3", "33", "4"]


def test_bie_san_keeps_the_other_hands() -> None:
    assert sorted(texts("3 44 2 B", bie_san=True)) == sorted(
        ["4", "44", "42", "442", "4B", "44B", "42B", "442B", "2", "B", "2B"]
    )


def test_empty_hand_has_no_plays() -> None:
    assert legal_plays("") == [] and legal_plays("", "3") == []


def test_hand_as_text_cards_counts_or_play() -> None:
    text = "7 7 2 B"
    expected = sorted(texts(text, "66"))
    cards = classify("772B").cards()
    assert sorted(texts(cards, "66")) == expected
    assert sorted(texts(counts_of(cards), "66")) == expected
    assert sorted(texts(classify("772B"), "66")) == expected
    assert sorted(texts(text, classify("66"))) == expected
    assert sorted(texts(text, classify("66").cards())) == expected


def test_plays_are_plays_that_format_cards_accepts() -> None:
    for play in legal_plays(deal(1)[0]):
        assert isinstance(play, Play)
        assert classify(format_cards(play)) == play


def test_a_standing_hand_that_is_not_a_hand_is_refused() -> None:
    with pytest.raises(HandError, match="two different ranks: 4 and 5"):
        legal_plays("77", "45")
    with pytest.raises(CardError, match="unknown card 'x' at position 2"):
        legal_plays("77", "4x")


# --- complete and exact: against brute force over every sub-multiset


@settings(max_examples=300, deadline=None)
@given(small_hands(12), st.booleans())
def test_leads_equal_brute_force(counts: list[int], bie_san: bool) -> None:
    got = texts(counts, bie_san=bie_san)
    assert len(got) == len(set(got)), "duplicate plays"
    assert set(got) == set(brute_force_plays(counts, None, bie_san))


@settings(max_examples=400, deadline=None)
@given(small_hands(12), plays(max_size=6), st.booleans())
def test_answers_equal_brute_force(counts: list[int], standing: Play, bie_san: bool) -> None:
    got = texts(counts, standing, bie_san)
    assert len(got) == len(set(got)), "duplicate plays"
    assert set(got) == set(brute_force_plays(counts, standing, bie_san))


@settings(max_examples=200, deadline=None)
@given(small_hands(12), st.data())
def test_answers_to_hands_from_the_same_shoe_equal_brute_force(counts, data) -> None:
    """Standing hands drawn from the player's own kind of cards, so answers are common."""
    leads = legal_plays(counts)
    if not leads:
        return
    standing = data.draw(st.sampled_from(leads))
    got = texts(counts, standing)
    assert len(got) == len(set(got))
    assert set(got) == set(brute_force_plays(counts, standing, False))


@given(small_hands(12), plays(max_size=6))
def test_3s_beat_nothing(counts: list[int], standing: Play) -> None:
    """Why bie-san 3s can only go out on a lead (§7): no hand holding a 3 beats anything."""
    assert all(play.rank != THREE for play in legal_plays(counts, standing))


# --- perft: exact counts for fixed 36-card hands


def test_perft_table_matches() -> None:
    stored, computed = load_table(), compute_table()
    assert stored["standings"] == computed["standings"]
    for seed, entries in stored["deals"].items():
        for seat, entry in enumerate(entries):
            assert computed["deals"][seed][seat] == entry, f"deal({seed}) seat {seat}"
    assert stored == computed


def lead_count_by_formula(counts: list[int], bie_san: bool) -> int:
    """Leads counted, not listed: each number rank 3–A with k ≥ 1 of its cards, any 2s and
    any jokers; or 2s and jokers alone; with bie-san, 3s only as an all-3s whole hand."""
    extras = (counts[TWO] + 1) * (counts[SMALL_JOKER] + 1) * (counts[BIG_JOKER] + 1)
    ranks = range(THREE + 1 if bie_san else THREE, TWO)
    total = sum(counts[r] for r in ranks) * extras + extras - 1
    if bie_san and counts[THREE] and counts[THREE] == sum(counts):
        total += 1
    return total


def test_perft_leads_agree_with_a_count_by_formula() -> None:
    for seed, entries in load_table()["deals"].items():
        for hand, entry in zip(deal(int(seed)), entries, strict=True):
            counts = counts_of(hand)
            assert entry["leads"] == lead_count_by_formula(counts, False)
            assert entry["leads_bie_san"] == lead_count_by_formula(counts, True)


@pytest.mark.parametrize("seed", [1, 2])
def test_perft_answers_agree_with_brute_force(seed: int) -> None:
    """Brute force over every sub-multiset of the standing hand's size."""
    entries = load_table()["deals"][str(seed)]
    for hand, entry in zip(deal(seed), entries, strict=True):
        counts = counts_of(hand)
        for text in STANDINGS:
            standing = classify(text)
            candidates = sub_multisets_of_size(counts, standing.size)
            expected = brute_force_plays(counts, standing, False, candidates)
            assert entry["answers"][text] == len(expected), (seed, entry["hand"], text)
            assert set(texts(counts, standing)) == set(expected)
