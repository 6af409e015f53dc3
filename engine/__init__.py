"""The Gouji (够级) rules engine: pure, deterministic, no I/O.

The conformance surface (other code and outside tests rely on these names):
``parse_cards``, ``format_cards``, ``classify``, ``beats``, ``is_gouji``, ``legal_plays``,
``title_for``.
"""

from .cards import Card, CardError, deal, format_cards, new_shoe, parse_cards
from .hands import HandError, Play, beats, classify, is_gouji, opens_point
from .movegen import legal_plays
from .scoring import title_for

__all__ = [
    "Card",
    "CardError",
    "HandError",
    "Play",
    "beats",
    "classify",
    "deal",
    "format_cards",
    "is_gouji",
    "legal_plays",
    "new_shoe",
    "opens_point",
    "parse_cards",
    "title_for",
]
