"""Hands: classification, comparison, gouji hands and 开点 (docs/rules.en.md §2, §2.1, §2.2, §3.2).

One test per rule or example of the rule book, named after it.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import HealthCheck, assume, given, settings

from engine import HandError, Play, beats, classify, is_gouji, legal_plays, opens_point
from engine.cards import NUM_RANKS, RANK_LETTERS, TWO, rank_of
from engine.hands import NO_RANK, unbeatable

from .strategies import SHOE_LIMITS, plays


def normalised(text: str) -> str:
    return "".join(RANK_LETTERS[r] for r in classify(text).normalised())


# --- §2: what can be played


def test_single_is_any_one_card() -> None:
    for letter in RANK_LETTERS:
        play = classify(letter)
        assert play.size == 1 and play.canonical == letter


@pytest.mark.parametrize("text", ["44", "555", "8888888", "222"])
def test_set_is_cards_of_one_rank(text: str) -> None:
    assert classify(text).canonical == text


def test_22777_counts_as_five_7s() -> None:
    assert normalised("22777") == "77777"


def test_266_counts_as_666() -> None:
    assert normalised("266") == "666"


def test_2T_counts_as_TT() -> None:
    assert normalised("2T") == "TT"


def test_BB888_is_two_small_jokers_with_three_8s() -> None:
    assert classify("BB888") == Play(rank_of("8"), 3, 0, 2, 0)
    assert normalised("BB888") == "888BB"


def test_RR22229999_is_two_big_jokers_with_eight_9s() -> None:
    assert classify("RR22229999") == Play(rank_of("9"), 4, 4, 0, 2)
    assert normalised("RR22229999") == "99999999RR"


def test_jokers_with_only_2s_stay_2s() -> None:
    assert classify("RR222") == Play(NO_RANK, 0, 3, 0, 2)
    assert normalised("RR222") == "222RR"


@pytest.mark.parametrize("text", ["R", "BB", "RRR"])
def test_jokers_alone_are_a_hand(text: str) -> None:
    assert normalised(text) == text


def test_mixed_jokers_count_as_small() -> None:
    assert normalised("RB22 5555") == "555555BB"


def test_RB_is_two_small_jokers() -> None:
    assert normalised("RB") == "BB"


def test_two_different_ranks_are_not_a_hand() -> None:
    with pytest.raises(HandError, match=r"^two different ranks: 4 and 5 — a hand is cards of one"):
        classify("45")


def test_2s_join_only_one_other_rank() -> None:
    with pytest.raises(HandError, match="two different ranks: 10 and K"):
        classify("T2K")


def test_several_different_ranks_are_all_named() -> None:
    with pytest.raises(HandError, match="three different ranks: 4, 7 and A"):
        classify("47A")


def test_no_straights_in_gouji() -> None:
    with pytest.raises(HandError, match="no straights in Gouji"):
        classify("34567")


def test_no_cards_is_not_a_hand() -> None:
    with pytest.raises(HandError, match="no cards"):
        classify("")


def test_hand_errors_are_value_errors() -> None:
    assert issubclass(HandError, ValueError)


# --- §2.1: comparing hands


def test_99999_beats_22777() -> None:
    assert beats("99999", "22777")


def test_88888_beats_27777() -> None:
    assert beats("88888", "27777")


def test_TTTTT_does_not_beat_TTTTT() -> None:
    assert not beats("TTTTT", "TTTTT")


def test_RR888_beats_BB777() -> None:
    assert beats("RR888", "BB777")


def test_99RRR_beats_BB777() -> None:
    assert beats("99RRR", "BB777")


def test_99BRR_does_not_beat_BB777() -> None:
    assert normalised("99BRR") == "99BBB"
    assert not beats("99BRR", "BB777")


def test_888_does_not_beat_77() -> None:
    assert not beats("888", "77")


def test_RR_beats_22_and_BB() -> None:
    assert beats("RR", "22") and beats("RR", "BB")


def test_BR_does_not_beat_BB() -> None:
    assert not beats("BR", "BB")


def test_a_joker_part_must_be_beaten_by_higher_jokers() -> None:
    assert not beats("AAB", "88B")
    assert beats("AAR", "88B")


def test_the_number_part_must_be_beaten_by_higher_numbers() -> None:
    assert not beats("77R", "88B")


def test_2s_alone_beat_any_number_rank_of_the_same_size() -> None:
    assert beats("22", "AA") and beats("22", "A2") and not beats("A2", "22")


@given(plays().filter(lambda p: p.big and not p.small), plays())
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_big_jokers_without_small_are_unbeatable(standing: Play, new: Play) -> None:
    assert unbeatable(standing)
    assert not beats(new, standing)
    assert legal_plays(new.counts(), standing) == []


@given(plays())
def test_no_hand_beats_itself(play: Play) -> None:
    assert not beats(play, play)


@given(plays(), plays())
def test_beating_is_one_way(a: Play, b: Play) -> None:
    assert not (beats(a, b) and beats(b, a))


@given(plays(), plays(), plays())
def test_beating_is_transitive(a: Play, b: Play, c: Play) -> None:
    if beats(a, b) and beats(b, c):
        assert beats(a, c)


@given(plays(), plays())
def test_only_hands_of_the_same_size_compare(a: Play, b: Play) -> None:
    if a.size != b.size:
        assert not beats(a, b) and not beats(b, a)


# --- §2.2: gouji hands


@pytest.mark.parametrize(
    "text", ["TTTTT", "JJJJ", "2222T", "QQQ", "KK", "2", "R", "B444", "AAA", "JJJ2", "K2"]
)
def test_gouji_hands(text: str) -> None:
    assert is_gouji(text)


@pytest.mark.parametrize("text", ["TTTT", "JJ2", "99999", "22777"])
def test_not_gouji_hands(text: str) -> None:
    assert not is_gouji(text)


def test_ranks_3_to_9_are_never_gouji_without_a_joker() -> None:
    for letter in "3456789":
        assert not is_gouji(letter * 16)
        assert not is_gouji(letter * 8 + "2" * 8)
        assert is_gouji(letter + "B")
    assert not is_gouji("999999")


def test_any_hand_containing_a_joker_is_gouji() -> None:
    assert is_gouji("B") and is_gouji("3R") and is_gouji("RB") and is_gouji("22BR")


def test_gouji_thresholds_by_rank() -> None:
    for letter, need in [("T", 5), ("J", 4), ("Q", 3), ("K", 2), ("A", 2)]:
        assert not is_gouji(letter * (need - 1))
        assert is_gouji(letter * need)
        assert is_gouji(letter + "2" * (need - 1))


@given(plays(), plays())
def test_any_hand_beating_a_gouji_hand_is_gouji(standing: Play, new: Play) -> None:
    assume(standing.is_gouji)
    if beats(new, standing):
        assert new.is_gouji
    # Every hand four decks can make that beats it (legal_plays is checked against
    # brute force in test_movegen.py), so the property is not left to chance hits.
    for answer in legal_plays(SHOE_LIMITS, standing):
        assert answer.is_gouji, answer


# --- §3.2: which gouji hands open the point (开点)


def test_22_opens_but_2_does_not() -> None:
    assert opens_point("22")
    assert not opens_point("2")


def test_KK_opens() -> None:
    assert opens_point("KK")


def test_R_and_BKK_do_not_open() -> None:
    assert not opens_point("R")
    assert not opens_point("BKK")


@pytest.mark.parametrize("text", ["TTTTT", "JJJJ", "QQQ", "K2", "AA", "2222T", "222"])
def test_gouji_sets_without_jokers_open(text: str) -> None:
    assert opens_point(text)


@pytest.mark.parametrize("text", ["RR", "22B", "BR", "TTTTTB", "A", "K"])
def test_singles_and_hands_with_jokers_do_not_open(text: str) -> None:
    assert not opens_point(text)


def test_normal_hands_do_not_open() -> None:
    assert not opens_point("99999") and not opens_point("JJJ") and not opens_point("TTTT")


# --- the Play value


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("TTTTT", "TTTTT"), ("22777", "77722"), ("BB888", "888BB"), ("R2299", "9922R")],
)
def test_notation_examples_are_hands(text: str, canonical: str) -> None:
    assert classify(text).canonical == canonical


def test_play_repr_names_its_cards() -> None:
    assert repr(classify("7 2 7 B 7")) == "Play.parse('7772B')"
    assert eval(repr(classify("R2299")), {"Play": Play}) == classify("R2299")  # pastes back
    assert Play.parse("BB888") == classify("8B8B8")


def test_play_cards_and_counts() -> None:
    play = classify("RB225555")
    assert "".join(str(c) for c in play.cards()) == "555522BR"
    counts = play.counts()
    assert len(counts) == NUM_RANKS and counts[TWO] == 2 and sum(counts) == play.size == 8


def test_play_copies_and_pickles_as_a_value() -> None:
    play = classify("22777")
    assert copy.copy(play) == copy.deepcopy(play) == pickle.loads(pickle.dumps(play)) == play
    assert play._replace(naturals=2).canonical == "7722"
    rank, naturals, twos, small, big = play
    assert (rank, naturals, twos, small, big) == (rank_of("7"), 3, 2, 0, 0)


def test_classify_accepts_cards_text_and_plays() -> None:
    play = classify("22777")
    assert classify(play) is play
    assert classify(play.cards()) == play
