"""The shape of a logged action: ``SEAT VERB [CARDS]`` (docs/record.md).

The store checks the shape only — seat, verb, and that the cards are card notation; whether
the action is legal is the engine's business.

>>> check_action("3 play 9s 9h 2d")
ActionShape(seat=3, verb='play', cards='9s 9h 2d')
>>> check_action("0 nodeclare").cards is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine import CardError, parse_cards
from engine.actions import VERBS_WITH_CARDS, Verb

from .errors import InvalidInputError

#: Verbs without cards (the engine's verbs, :class:`engine.actions.Verb`, that take none).
BARE_VERBS = frozenset(Verb) - VERBS_WITH_CARDS

_SHAPE = re.compile(r"([0-5]) ([a-z]+)(?: (\S(?:.*\S)?))?")


@dataclass(frozen=True, slots=True)
class ActionShape:
    """A logged action split into its parts; ``cards`` is the notation as written."""

    seat: int
    verb: str
    cards: str | None


# The form the bot writes (``str(card)`` joined by spaces, or canonical without spaces): a
# strict subset of card notation, checked fast; anything else goes through parse_cards.
_PLAIN_CARDS = re.compile(r"(?:[3-9TJQKA2][shdc]?|[BR])(?: ?(?:[3-9TJQKA2][shdc]?|[BR]))*")


@lru_cache(maxsize=4096)
def _check_cards(cards: str) -> str | None:
    """None when ``cards`` is card notation holding at least one card, else the reason."""
    if _PLAIN_CARDS.fullmatch(cards):
        return None
    try:
        parsed = parse_cards(cards)
    except CardError as exc:
        return str(exc)
    return None if parsed else "no cards"


def check_action(text: object) -> ActionShape:
    """Split an action string, or raise :class:`InvalidInputError` saying what is wrong."""
    if not isinstance(text, str):
        raise InvalidInputError(f"an action must be a string 'SEAT VERB [CARDS]', not {text!r}")
    match = _SHAPE.fullmatch(text)
    if match is None:
        raise InvalidInputError(
            f"action {text!r} is not 'SEAT VERB [CARDS]': a seat 0-5, one space, a verb, "
            "and for play/burn/return one space and the cards"
        )
    seat, verb, cards = int(match[1]), match[2], match[3]
    if verb in VERBS_WITH_CARDS:
        if cards is None:
            raise InvalidInputError(
                f"action {text!r}: {verb!r} needs the cards, e.g. '{seat} {verb} 9s 9h'"
            )
        problem = _check_cards(cards)
        if problem is not None:
            raise InvalidInputError(f"action {text!r}: the cards are not card notation ({problem})")
    elif verb in BARE_VERBS:
        if cards is not None:
            raise InvalidInputError(f"action {text!r}: {verb!r} takes no cards")
    else:
        known = ", ".join(sorted(Verb))
        raise InvalidInputError(f"action {text!r}: unknown verb {verb!r} (known: {known})")
    return ActionShape(seat, verb, cards)


def check_hands(hands: object) -> tuple[str, ...]:
    """Six strings in card notation (a revolted seat's ``""`` allowed), or
    :class:`InvalidInputError`."""
    if not isinstance(hands, list | tuple) or len(hands) != 6:
        raise InvalidInputError(f"hands must be a list of six strings, seat 0 to 5, not {hands!r}")
    for seat, hand in enumerate(hands):
        if not isinstance(hand, str):
            raise InvalidInputError(f"hand of seat {seat} must be a string, not {hand!r}")
        if hand.strip():
            problem = _check_cards(hand)
            if problem is not None:
                raise InvalidInputError(f"hand of seat {seat} is not card notation ({problem})")
    return tuple(hands)
