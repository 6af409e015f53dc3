"""``gouji plays HAND [--answer STANDING] [--bie-san]``: list the legal plays of a hand.

Prints every distinct hand (docs/rules.en.md §2) the cards can make as a lead, or every hand that
beats STANDING, one line per number of cards, weakest first::

    $ gouji plays "KK2" --answer QQ
    2 plays beat QQ from KK2:
      2 cards: K2 KK
"""

from __future__ import annotations

import argparse

from bot.cli import CommandError
from engine import (
    Card,
    CardError,
    HandError,
    Play,
    classify,
    format_cards,
    legal_plays,
    parse_cards,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``gouji plays``."""
    parser.add_argument("hand", help='the cards in hand, e.g. "33 77 2 B" (3-9 T J Q K A 2 B R)')
    parser.add_argument(
        "--answer", metavar="STANDING", help="list only the hands that beat this standing hand"
    )
    parser.add_argument(
        "--bie-san",
        action="store_true",
        help="bie-san variant (憋三): 3s only as the whole remaining hand, all 3s",
    )


def display_order(play: Play) -> tuple[int, ...]:
    """Sort key: fewer cards first; then fewer jokers, big ones last; then low to high."""
    return play.size, play.jokers, play.big, play.number_rank, play.twos


def describe(cards: list[Card], standing_play: Play | None, bie_san: bool) -> list[str]:
    """The lines ``gouji plays`` prints."""
    plays = sorted(legal_plays(cards, standing_play, bie_san=bie_san), key=display_order)
    hand = format_cards(cards) or "no cards"
    n = len(plays)
    if standing_play is None:
        head = f"{n} lead{'s' * (n != 1)} from {hand}:" if plays else f"no leads from {hand}"
    elif plays:
        head = f"{n} play{'s' * (n != 1)} beat{'s' * (n == 1)} {standing_play} from {hand}:"
    else:
        head = f"nothing in {hand} beats {standing_play}: pass"
    lines = [head]
    by_size: dict[int, list[str]] = {}
    for play in plays:
        by_size.setdefault(play.size, []).append(play.canonical)
    for size, texts in by_size.items():
        lines.append(f"  {size} card{'s' if size > 1 else ''}: {' '.join(texts)}")
    return lines


def read_cards(text: str, what: str) -> list[Card]:
    """The cards of ``text`` (HAND or --answer); :class:`CommandError` for text that is no
    cards or more than a hand: the bot's bound on typed cards (``LONGEST_CARDS``
    characters), and a dealt hand's cards (36), so that the plays listed stay few (the 36
    cards 2×16 B×4 R×4 A×12 list about 100 KB)."""
    from bot.service.tables import LONGEST_CARDS
    from engine.cards import new_shoe

    most = len(new_shoe()) // 6  # a dealt hand: four decks among six seats
    if len(text) > LONGEST_CARDS:
        raise CommandError(f"cannot read {what}: longer than {LONGEST_CARDS} characters")
    try:
        cards = parse_cards(text)
    except CardError as error:
        raise CommandError(f"cannot read {what}: {error}") from None
    if len(cards) > most:
        raise CommandError(f"cannot read {what}: {len(cards)} cards, and a hand holds {most}")
    return cards


def run(args: argparse.Namespace) -> int:
    """Print the plays; a :class:`CommandError` for cards that cannot be read."""
    cards = read_cards(args.hand, "HAND")
    standing = None
    if args.answer is not None:
        try:
            standing = classify(read_cards(args.answer, "--answer"))
        except HandError as error:
            raise CommandError(f"cannot read --answer: {error}") from None
    print("\n".join(describe(cards, standing, args.bie_san)))
    return 0
