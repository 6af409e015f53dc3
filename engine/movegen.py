"""Legal plays: every distinct hand a player can make, as a lead or as an answer.

Generated from rank counts, never from suits (as DouZero does): for an answer, only hands
of the standing hand's size whose every part beats it are built, so nothing that cannot be
legal is ever enumerated.

>>> [str(p) for p in legal_plays("KK2", "QQ")]
['K2', 'KK']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from .cards import ACE, BIG_JOKER, NUM_RANKS, SMALL_JOKER, THREE, TWO, Card, counts_of, parse_cards
from .hands import NO_RANK, Play, classify


def hand_counts(hand: Iterable[Card] | Sequence[int] | str) -> list[int]:
    """15 rank counts from cards, card notation, or counts already."""
    if isinstance(hand, str):
        return counts_of(parse_cards(hand))
    if (
        isinstance(hand, (list, tuple))
        and len(hand) == NUM_RANKS
        and all(isinstance(x, int) for x in hand)
    ):
        return [int(x) for x in hand]
    return counts_of(cast("Iterable[Card]", hand))


def legal_plays(
    hand: Iterable[Card] | Sequence[int] | str,
    standing: Iterable[Card] | Play | str | None = None,
    *,
    bie_san: bool = False,
) -> list[Play]:
    """Every distinct hand (multiset of ranks) playable from ``hand``: any hand when
    ``standing`` is None (a lead), else only hands that beat ``standing``.

    With ``bie_san`` (憋三, §7) a hand containing a 3 is legal only as the player's whole
    remaining hand, all 3s.
    """
    counts = hand_counts(hand)
    if standing is None:
        return lead_plays(counts, bie_san)
    return answer_plays(counts, classify(standing), bie_san)


def lead_plays(counts: Sequence[int], bie_san: bool = False) -> list[Play]:
    """All hands that can be led from ``counts``."""
    twos, small, big = counts[TWO], counts[SMALL_JOKER], counts[BIG_JOKER]
    jokers = [(s, g) for s in range(small + 1) for g in range(big + 1)]
    out: list[Play] = []
    append = out.append
    first = THREE
    if bie_san and counts[THREE]:
        first = THREE + 1
        if counts[THREE] == sum(counts):
            append(Play(THREE, counts[THREE], 0, 0, 0))
    for rank in range(first, ACE + 1):
        have = counts[rank]
        if not have:
            continue
        for k in range(1, have + 1):
            for k2 in range(twos + 1):
                for s, g in jokers:
                    append(Play(rank, k, k2, s, g))
    for k2 in range(twos + 1):
        for s, g in jokers:
            if k2 or s or g:
                append(Play(NO_RANK, 0, k2, s, g))
    return out


def answer_plays(counts: Sequence[int], standing: Play, bie_san: bool = False) -> list[Play]:
    """All hands from ``counts`` that beat ``standing`` (§2.1)."""
    if standing.effective_big:
        return []  # big jokers and no small joker: nothing beats it
    size = standing.size
    need_big = standing.effective_small  # each small joker must meet a big joker
    floor = standing.number_rank  # number cards must be strictly higher than this
    twos, small, big = counts[TWO], counts[SMALL_JOKER], counts[BIG_JOKER]
    if need_big:
        # Small jokers of ours would make any mix count as small: big jokers only.
        jokers = [(0, g) for g in range(need_big, min(big, size) + 1)]
    else:
        jokers = [
            (s, g) for s in range(min(small, size) + 1) for g in range(min(big, size - s) + 1)
        ]
    first = max(floor + 1, THREE + 1 if bie_san else THREE)
    out: list[Play] = []
    append = out.append
    for s, g in jokers:
        m = size - s - g
        if m == 0:
            append(Play(NO_RANK, 0, 0, s, g))
            continue
        for rank in range(first, ACE + 1):
            have = counts[rank]
            if not have:
                continue
            for k in range(max(1, m - twos), min(have, m) + 1):
                append(Play(rank, k, m - k, s, g))
        if floor < TWO and twos >= m:
            append(Play(NO_RANK, 0, m, s, g))
    return out
