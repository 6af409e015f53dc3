"""``gouji plays HAND [--answer STANDING] [--bie-san]``: list the legal plays of a hand.

Prints every distinct hand (docs/rules.en.md §2) the cards can make as a lead, or every hand that
beats STANDING, one line per number of cards, weakest first::

    $ gouji plays "KK2" --answer QQ
    2 plays beat QQ from KK2:
      2 cards: K2 KK
"""

from __future__ import annotations

import argparse
import sys

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


def run(args: argparse.Namespace) -> int:
    """Print the plays; exit status 2 with a message for cards that cannot be read."""
    try:
        cards = parse_cards(args.hand)
    except CardError as error:
        print(f"gouji plays: cannot read HAND: {error}", file=sys.stderr)
        return 2
    try:
        standing = classify(args.answer) if args.answer is not None else None
    except (CardError, HandError) as error:
        print(f"gouji plays: cannot read --answer: {error}", file=sys.stderr)
        return 2
    print("\n".join(describe(cards, standing, args.bie_san)))
    return 0
