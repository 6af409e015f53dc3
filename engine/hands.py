"""Hands (一手牌): what can be played, how hands compare, and which are gouji hands.

docs/rules.en.md §2. A hand is cards of at most one rank from 3 to A, with any number of 2s as
wildcards (贴钱) and any number of jokers attached (挂花). Suits never matter, so a hand is
held as a :class:`Play`: a multiset of ranks.

>>> classify(parse_cards("22777"))
Play.parse('77722')
>>> beats(parse_cards("99999"), parse_cards("22777"))
True
>>> is_gouji(parse_cards("2222T"))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .cards import (
    ACE,
    BIG_JOKER,
    NUM_RANKS,
    RANK_LETTERS,
    RANK_NAMES,
    SMALL_JOKER,
    THREE,
    TWO,
    Card,
    counts_of,
    parse_cards,
    rank_of,
)

NO_RANK = -1

# Smallest count of each normalised rank that makes a gouji hand (§2.2): 10×5, J×4, Q×3,
# K×2, A×2, 2×1. Ranks 3–9 are never gouji without a joker.
GOUJI_MIN_COUNT = {
    rank_of("T"): 5,
    rank_of("J"): 4,
    rank_of("Q"): 3,
    rank_of("K"): 2,
    rank_of("A"): 2,
    TWO: 1,
}


class HandError(ValueError):
    """Cards that do not form a hand; the message says why, in a player's words."""


class Play(NamedTuple):
    """A hand as a multiset of ranks.

    ``rank`` is the one number rank from 3 to A (0–11) with ``naturals`` cards of it, or
    ``NO_RANK`` (-1) with ``naturals == 0`` when the hand has only 2s and jokers.
    ``twos``, ``small`` and ``big`` count the 2s, small jokers (B) and big jokers (R).
    Build one with :func:`classify` or :meth:`Play.parse`.

    A Play is an ordinary named tuple of those five counts (so it copies, pickles and
    unpacks as one); its cards are :meth:`cards`, their number :attr:`size`.

    >>> p = Play.parse("7 2 7 2 7")
    >>> p, p.size, p.cards()
    (Play.parse('77722'), 5, [Card.parse('7'), Card.parse('7'), Card.parse('7'), Card.parse('2'), Card.parse('2')])
    """

    rank: int
    naturals: int
    twos: int
    small: int
    big: int

    @classmethod
    def parse(cls, text: str) -> Play:
        """``Play.parse("BB888")`` — classify card notation."""
        return classify(parse_cards(text))

    def __repr__(self) -> str:
        return f"Play.parse({self.canonical!r})"

    def __str__(self) -> str:
        return self.canonical

    @property
    def canonical(self) -> str:
        """Canonical notation, low to high: ``'77722BR'``."""
        head = RANK_LETTERS[self.rank] * self.naturals if self.naturals else ""
        return head + "2" * self.twos + "B" * self.small + "R" * self.big

    @property
    def size(self) -> int:
        """The number of cards."""
        return self.naturals + self.twos + self.small + self.big

    def cards(self) -> list[Card]:
        """The cards of this hand, low to high, without suits."""
        return [Card(r) for r, c in self.rank_counts() for _ in range(c)]

    def rank_counts(self) -> list[tuple[int, int]]:
        """``[(rank, count), …]`` of the actual cards, low to high, zero counts left out."""
        out = []
        if self.naturals:
            out.append((self.rank, self.naturals))
        if self.twos:
            out.append((TWO, self.twos))
        if self.small:
            out.append((SMALL_JOKER, self.small))
        if self.big:
            out.append((BIG_JOKER, self.big))
        return out

    def counts(self) -> list[int]:
        """The 15 rank counts of the cards of this hand."""
        c = [0] * NUM_RANKS
        for r, n in self.rank_counts():
            c[r] = n
        return c

    # --- the normalised hand (§2.1): 2s become the number rank, mixed jokers become small
    @property
    def number_rank(self) -> int:
        """The rank the number cards count as: the base rank, 2 (12) for 2s alone, or -1."""
        if self.naturals:
            return self.rank
        return TWO if self.twos else NO_RANK

    @property
    def number_count(self) -> int:
        """Number cards (the base rank and the 2s standing in for it)."""
        return self.naturals + self.twos

    @property
    def jokers(self) -> int:
        """Jokers of either colour."""
        return self.small + self.big

    @property
    def effective_small(self) -> int:
        """Small jokers after normalising: mixed jokers all count as small."""
        return self.small + self.big if self.small and self.big else self.small

    @property
    def effective_big(self) -> int:
        """Big jokers after normalising: none when a small joker is also in the hand."""
        return 0 if self.small else self.big

    def normalised(self) -> list[int]:
        """The normalised ranks, low to high, e.g. ``22777`` → ``[4, 4, 4, 4, 4]``."""
        return (
            [self.number_rank] * self.number_count
            + [SMALL_JOKER] * self.effective_small
            + [BIG_JOKER] * self.effective_big
        )

    @property
    def is_gouji(self) -> bool:
        """A gouji hand (够级牌, §2.2)."""
        if self.small or self.big:
            return True
        need = GOUJI_MIN_COUNT.get(self.number_rank)
        return need is not None and self.number_count >= need

    @property
    def opens_point(self) -> bool:
        """Wins the point (开点) if unanswered (§3.2): gouji, not a single, no joker."""
        return self.size > 1 and not self.jokers and self.is_gouji

    @property
    def has_three(self) -> bool:
        """Holds a 3 (what the bie-san variant restricts, §7)."""
        return self.rank == THREE and self.naturals > 0


ONE_RANK_HINT = "a hand is cards of one rank (2s and jokers may join)"
_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _describe_rank(rank: int) -> str:
    return RANK_NAMES[rank]


def classify(cards: Iterable[Card] | Play | str) -> Play:
    """The hand these cards make; :class:`HandError` (a ``ValueError``) if they make none.

    >>> classify("RB225555")
    Play.parse('555522BR')
    >>> classify("45")
    Traceback (most recent call last):
    ...
    engine.hands.HandError: two different ranks: 4 and 5 — a hand is cards of one rank (2s and jokers may join)
    """
    if isinstance(cards, Play):
        return cards
    if isinstance(cards, str):
        cards = parse_cards(cards)
    counts = counts_of(cards)
    return play_from_counts(counts)


def play_from_counts(counts: Sequence[int]) -> Play:
    """Classify 15 rank counts (see :func:`classify`)."""
    if len(counts) != NUM_RANKS or any(c < 0 for c in counts):
        raise ValueError(f"expected {NUM_RANKS} non-negative rank counts, got {list(counts)}")
    ranks = [r for r in range(ACE + 1) if counts[r]]
    if not ranks and not counts[TWO] and not counts[SMALL_JOKER] and not counts[BIG_JOKER]:
        raise HandError("no cards: a hand needs at least one card")
    if len(ranks) > 1:
        if len(ranks) >= 3 and ranks[-1] - ranks[0] == len(ranks) - 1:
            raise HandError(f"no straights in Gouji: {ONE_RANK_HINT}")
        names = [_describe_rank(r) for r in ranks]
        listed = ", ".join(names[:-1]) + " and " + names[-1]
        raise HandError(
            f"{_COUNT_WORDS.get(len(ranks), len(ranks))} different ranks: {listed} — {ONE_RANK_HINT}"
        )
    if ranks:
        rank = ranks[0]
        return Play(rank, counts[rank], counts[TWO], counts[SMALL_JOKER], counts[BIG_JOKER])
    return Play(NO_RANK, 0, counts[TWO], counts[SMALL_JOKER], counts[BIG_JOKER])


def beats(new: Iterable[Card] | Play | str, standing: Iterable[Card] | Play | str) -> bool:
    """Does ``new`` beat ``standing`` (§2.1)? Same number of cards, and after normalising
    and sorting each low to high, every card of ``new`` is strictly higher than the card in
    the same position of ``standing``.

    >>> beats("99BRR", "BB777")
    False
    """
    a = classify(new).normalised()
    b = classify(standing).normalised()
    return len(a) == len(b) and all(x > y for x, y in zip(a, b, strict=True))


def is_gouji(cards: Iterable[Card] | Play | str) -> bool:
    """Is this a gouji hand (够级牌, §2.2)? ``is_gouji("JJ2")`` is False (three Js)."""
    return classify(cards).is_gouji


def opens_point(cards: Iterable[Card] | Play | str) -> bool:
    """Would winning a round with this hand open the point (开点, §3.2)?"""
    return classify(cards).opens_point


def unbeatable(play: Play) -> bool:
    """True when no hand can beat ``play``: it holds big jokers and no small joker."""
    return play.effective_big > 0
