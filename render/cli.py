"""``gouji render``: draw a hand, or the built-in sample table, series, profile or leaderboard,
to a PNG file. Pillow is imported only when a picture is drawn."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

KINDS = ("hand", "demo-table", "demo-series", "demo-profile", "demo-leaderboard")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``gouji render`` arguments."""
    parser.add_argument(
        "kind", choices=KINDS, help="what to draw: a hand from CARDS, or a built-in sample"
    )
    parser.add_argument(
        "cards", nargs="?", help='the hand in card notation, e.g. "33 TTTTT 22 BR" (hand only)'
    )
    parser.add_argument("-o", "--output", required=True, help="the PNG file to write")
    parser.add_argument(
        "--highlight", help="cards of the hand to highlight, in card notation (hand only)"
    )
    parser.add_argument(
        "--lang", choices=("zh", "en"), default="zh", help="language of the labels (default zh)"
    )


def _draw(args: argparse.Namespace):
    from . import demo
    from .hand import render_hand
    from .profile import render_leaderboard, render_profile
    from .series import render_series
    from .table import render_table

    if args.kind == "hand":
        return render_hand(args.cards, highlight=args.highlight, lang=args.lang)
    if args.kind == "demo-table":
        return render_table(demo.demo_table(), lang=args.lang)
    if args.kind == "demo-series":
        return render_series(demo.demo_series(), lang=args.lang)
    if args.kind == "demo-profile":
        return render_profile(demo.demo_profile(), lang=args.lang)
    return render_leaderboard(demo.demo_leaderboard(), server="山东老乡会", lang=args.lang)


def run(args: argparse.Namespace) -> int:
    """Draw the picture and write it; 0 on success, 2 with a message on bad input."""
    if args.kind == "hand" and args.cards is None:
        print(
            'gouji render hand: give the cards, e.g. gouji render hand "33 TTTTT 22 BR" -o hand.png',
            file=sys.stderr,
        )
        return 2
    if args.kind != "hand" and (args.cards is not None or args.highlight is not None):
        print(
            f"gouji render {args.kind}: takes no cards or --highlight (it draws built-in sample data)",
            file=sys.stderr,
        )
        return 2
    from .encode import to_png
    from .errors import RenderInputError

    try:
        image = _draw(args)
    except RenderInputError as exc:
        print(f"gouji render {args.kind}: {exc}", file=sys.stderr)
        return 2
    data = to_png(image)
    try:
        Path(args.output).write_bytes(data)
    except OSError as exc:
        print(f"gouji render: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.output} ({image.width}x{image.height}, {len(data) // 1024} KB)")
    return 0
