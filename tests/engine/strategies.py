"""Hypothesis strategies and a brute-force reference shared by the engine tests."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from hypothesis import strategies as st

from engine.cards import BIG_JOKER, NUM_RANKS, RANK_LETTERS, SMALL_JOKER, THREE, new_shoe
from engine.hands import HandError, Play, beats, play_from_counts

SHOE = new_shoe()
# Copies of each rank in the 216-card shoe: 16 of 3…2, 4 of each joker.
SHOE_LIMITS = [sum(1 for c in SHOE if c.rank == r) for r in range(NUM_RANKS)]


def counts_text(counts: Sequence[int]) -> str:
    """Card notation for rank counts (any order is fine for the parser)."""
    return "".join(RANK_LETTERS[r] * c for r, c in enumerate(counts))


@st.composite
def shoe_hands(draw: st.DrawFn, max_size: int = 12) -> list[int]:
    """Rank counts of up to ``max_size`` cards drawn from the shoe (its rank distribution)."""
    picks = draw(st.lists(st.integers(0, len(SHOE) - 1), unique=True, max_size=max_size))
    counts = [0] * NUM_RANKS
    for i in picks:
        counts[SHOE[i].rank] += 1
    return counts


@st.composite
def rank_hands(draw: st.DrawFn, max_size: int = 12) -> list[int]:
    """Rank counts of up to ``max_size`` cards, every rank equally likely (so 2s and jokers
    turn up often), within the shoe's limits."""
    ranks = draw(st.lists(st.integers(0, NUM_RANKS - 1), max_size=max_size))
    counts = [0] * NUM_RANKS
    for r in ranks:
        if counts[r] < SHOE_LIMITS[r]:
            counts[r] += 1
    return counts


def small_hands(max_size: int = 12) -> st.SearchStrategy[list[int]]:
    """Rank counts of a small hand, from either distribution."""
    return st.one_of(shoe_hands(max_size), rank_hands(max_size))


@st.composite
def plays(draw: st.DrawFn, max_size: int = 8) -> Play:
    """Any hand (§2) of at most ``max_size`` cards that four decks can hold."""
    size = draw(st.integers(1, max_size))
    small = draw(st.integers(0, min(4, size)))
    big = draw(st.integers(0, min(4, size - small)))
    twos = draw(st.integers(0, size - small - big))
    naturals = size - small - big - twos
    counts = [0] * NUM_RANKS
    if naturals:
        counts[draw(st.integers(THREE, 11))] = naturals
    counts[12], counts[SMALL_JOKER], counts[BIG_JOKER] = twos, small, big
    return play_from_counts(counts)


def sub_multisets(counts: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every non-empty sub-multiset of ``counts`` (as rank counts)."""
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if any(sub):
            yield sub


def sub_multisets_of_size(counts: Sequence[int], size: int) -> Iterator[list[int]]:
    """Every sub-multiset of ``counts`` with exactly ``size`` cards."""
    chosen = [0] * len(counts)

    def fill(rank: int, left: int) -> Iterator[list[int]]:
        if rank == len(counts):
            if left == 0:
                yield list(chosen)
            return
        for k in range(min(counts[rank], left) + 1):
            chosen[rank] = k
            yield from fill(rank + 1, left - k)
        chosen[rank] = 0

    yield from fill(0, size)


def brute_force_plays(
    counts: Sequence[int],
    standing: Play | None,
    bie_san: bool,
    candidates: Iterator[Sequence[int]] | None = None,
) -> list[str]:
    """The legal plays by definition: classify every sub-multiset, keep the hands that
    beat ``standing`` (when given) and obey the bie-san rule (when on). Canonical strings."""
    out = []
    for sub in candidates if candidates is not None else sub_multisets(counts):
        try:
            play = play_from_counts(sub)
        except HandError:
            continue
        if standing is not None and not beats(play, standing):
            continue
        if bie_san and sub[THREE] and (list(sub) != list(counts) or sum(sub) != sub[THREE]):
            continue  # §7: 3s only as the whole remaining hand, all 3s
        out.append(play.canonical)
    return out
