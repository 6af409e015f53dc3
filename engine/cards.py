"""Cards, the four-deck shoe and the text notation (docs/record.md, card notation).

Ranks are small integers, low to high::

    3 4 5 6 7 8 9 T J Q K A 2 B R
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14

``B`` is the small (black) joker 小王, ``R`` the big (red) joker 大王.

>>> format_cards(parse_cards("R2 7 7B 72"))
'77722BR'
>>> parse_cards("10 小王")
[Card.parse('T'), Card.parse('B')]
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from engine.hands import Play

RANK_LETTERS = "3456789TJQKA2BR"
NUM_RANKS = 15
TWO = 12  # rank index of the 2
SMALL_JOKER = 13  # 小王 / 小花, written B
BIG_JOKER = 14  # 大王 / 大花, written R
ACE = 11
THREE = 0
FOUR = 1
SUITS = "shdc"

RANK_NAMES = {i: ("10" if c == "T" else c) for i, c in enumerate(RANK_LETTERS)}
RANK_NAMES[SMALL_JOKER] = "小王"
RANK_NAMES[BIG_JOKER] = "大王"


class CardError(ValueError):
    """Text that is not card notation. The message names the token and its position;
    ``typed`` is the whole text read, when the error is a text's (a front end quotes it)."""

    def __init__(self, message: str, typed: str | None = None) -> None:
        super().__init__(message)
        self.typed = typed


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank (0–14, see the module doc) and a suit (``s h d c``, None for jokers
    or when the suit does not matter)."""

    rank: int
    suit: str | None = None

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 0 <= self.rank < NUM_RANKS):
            raise CardError(f"no such rank {self.rank!r}: ranks run from 0 (3) to 14 (R)")
        if self.suit is not None and (self.suit not in SUITS or self.rank >= SMALL_JOKER):
            raise CardError(f"no such card {RANK_LETTERS[self.rank]}{self.suit}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """``Card.parse("6h")`` — one card in card notation (:func:`parse_cards`)."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise CardError(f"{text!r} is {len(cards)} cards, not one")
        return cards[0]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank] + (self.suit or "")

    @property
    def is_joker(self) -> bool:
        """True for 小王 (B) and 大王 (R)."""
        return self.rank >= SMALL_JOKER


def rank_of(letter: str) -> int:
    """The rank index of a rank letter: ``rank_of('T') == 7``."""
    return RANK_LETTERS.index(letter.upper())


def parse_cards(text: str) -> list[Card]:
    """Parse card notation into cards, in the order written.

    Letters are case-insensitive; spaces and commas are ignored; ``10`` is ``T``;
    小王/大王 (also 小花/大花) stand for ``B``/``R``; a suit letter may follow a rank
    (not a joker). Raises :class:`CardError` naming the bad token and its position.

    >>> [str(c) for c in parse_cards("4h 4h, 4s 10")]
    ['4h', '4h', '4s', 'T']
    >>> parse_cards("7 x")
    Traceback (most recent call last):
    ...
    engine.cards.CardError: unknown card 'x' at position 3: use 3-9, T (or 10), J, Q, K, A, 2, B (small joker) and R (big joker)
    """
    cards: list[Card] = []
    i, n = 0, len(text)
    last_end = -1  # index just after the last card read
    while i < n:
        ch = text[i]
        if ch.isspace() or ch in ",，、":
            i += 1
            continue
        pos = i + 1  # 1-based position for messages
        if text.startswith("10", i):
            rank, i = 7, i + 2
        elif text.startswith("小王", i) or text.startswith("小花", i):
            rank, i = SMALL_JOKER, i + 2
        elif text.startswith("大王", i) or text.startswith("大花", i):
            rank, i = BIG_JOKER, i + 2
        elif ch.upper() in RANK_LETTERS:
            rank, i = RANK_LETTERS.index(ch.upper()), i + 1
        elif ch.lower() in SUITS and cards and cards[-1].is_joker and pos - 1 == last_end:
            raise CardError(
                f"suit {ch!r} at position {pos} follows a joker: jokers have no suit", text
            )
        else:
            raise CardError(
                f"unknown card {ch!r} at position {pos}: use 3-9, T (or 10), J, Q, K, A, 2, "
                "B (small joker) and R (big joker)",
                text,
            )
        suit = None
        if rank < SMALL_JOKER and i < n and text[i].lower() in SUITS:
            # A suit letter directly after a rank, unless it starts the next card ("B" is
            # not a suit, so only s h d c qualify; none of them is a rank letter).
            suit = text[i].lower()
            i += 1
        cards.append(Card(rank, suit))
        last_end = i
    return cards


def counts_of(cards: Iterable[Card]) -> list[int]:
    """How many cards of each rank: a list of 15 counts.

    Also accepts a :class:`~engine.hands.Play` (anything with a ``counts()`` method).
    """
    own_counts = getattr(cards, "counts", None)
    if callable(own_counts):
        return list(own_counts())
    counts = [0] * NUM_RANKS
    for card in cards:
        counts[card.rank] += 1
    return counts


def format_counts(counts: Iterable[int]) -> str:
    """Canonical notation of rank counts: ``format_counts([3, 0, ...])`` → ``'333'``."""
    return "".join(RANK_LETTERS[r] * c for r, c in enumerate(counts) if c)


def format_cards(cards: Iterable[Card] | Play | str) -> str:
    """Canonical notation: sorted low to high, no suits, no spaces.

    Accepts cards, a :class:`~engine.hands.Play`, or text in card notation.

    >>> format_cards("r 2 T 10")
    'TT2R'
    """
    if isinstance(cards, str):
        cards = parse_cards(cards)
    canonical = getattr(cards, "canonical", None)  # a Play's
    if canonical is not None:
        return str(canonical)
    return format_counts(counts_of(cast("Iterable[Card]", cards)))


def new_shoe() -> list[Card]:
    """The 216-card shoe: four 54-card decks, in a fixed order."""
    shoe = []
    for _deck in range(4):
        for rank in range(TWO + 1):
            for suit in SUITS:
                shoe.append(Card(rank, suit))
        shoe.append(Card(SMALL_JOKER))
        shoe.append(Card(BIG_JOKER))
    return shoe


def deal(seed: int) -> list[list[Card]]:
    """Shuffle the shoe with ``seed`` and deal 36 cards to each of six seats.

    The same seed always gives the same deal (Python's ``random.Random``).
    """
    shoe = new_shoe()
    random.Random(seed).shuffle(shoe)
    return [sorted(shoe[seat::6], key=card_sort_key) for seat in range(6)]


def card_sort_key(card: Card) -> tuple[int, str]:
    """Sort cards by rank, then suit (jokers, without suit, first within their rank)."""
    return (card.rank, card.suit or "")
