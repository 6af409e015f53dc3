"""``gouji render``: draw a picture to a PNG file.

    gouji render hand "33 TTTTT 22 BR" -o hand.png [--highlight BR] [--lang en]
    gouji render demo-table -o table.png        (also demo-series, demo-profile, demo-leaderboard)

Each kind is a sub-command with its own arguments, so more can be added (e.g. ``table RECORD``)
by adding a sub-parser and an entry of :data:`DRAWERS`. Pillow is imported only when drawing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .labels import LANGS

if TYPE_CHECKING:
    from PIL.Image import Image


def _hand(args: argparse.Namespace) -> Image:
    """The hand given on the command line."""
    from .hand import render_hand

    return render_hand(args.cards, highlight=args.highlight, lang=args.lang)


def _demo(name: str) -> Callable[[argparse.Namespace], Image]:
    """A drawer of the built-in sample ``name``."""

    def draw(args: argparse.Namespace) -> Image:
        from . import demo
        from .profile import render_leaderboard, render_profile
        from .series import render_series
        from .table import render_table

        if name == "table":
            return render_table(demo.demo_table(), lang=args.lang)
        if name == "series":
            return render_series(demo.demo_series(), lang=args.lang)
        if name == "profile":
            return render_profile(demo.demo_profile(), lang=args.lang)
        return render_leaderboard(demo.demo_leaderboard(), server="山东老乡会", lang=args.lang)

    return draw


# kind -> (help, draw(args) -> PIL image)
DRAWERS: dict[str, tuple[str, Callable[[argparse.Namespace], Image]]] = {
    "hand": ("a hand of cards, grouped by rank", _hand),
    "demo-table": ("a sample table from built-in example data", _demo("table")),
    "demo-series": ("a sample five-game series scoreboard", _demo("series")),
    "demo-profile": ("a sample player profile", _demo("profile")),
    "demo-leaderboard": ("a sample server leaderboard", _demo("leaderboard")),
}


def add_arguments(
    parser: argparse.ArgumentParser,
    extra: dict[str, Callable[[argparse.ArgumentParser], None]] | None = None,
) -> None:
    """The ``gouji render`` sub-commands and their arguments. ``extra`` maps a kind added to
    :data:`DRAWERS` by a caller (``bot/cli/render.py``) to a function adding its arguments."""
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    for kind, (help_text, _draw) in DRAWERS.items():
        sub = kinds.add_parser(kind, help=help_text, description=help_text)
        if kind == "hand":
            sub.add_argument("cards", help='the hand in card notation, e.g. "33 TTTTT 22 BR"')
            sub.add_argument("--highlight", help="cards of the hand to highlight, e.g. BR")
        if extra and kind in extra:
            extra[kind](sub)
        sub.add_argument("-o", "--output", required=True, help="the PNG file to write")
        sub.add_argument("--lang", choices=LANGS, default="zh", help="label language")


def run(args: argparse.Namespace) -> int:
    """Draw the picture and write it; 0 on success, 2 with a message on bad input."""
    from .encode import to_png
    from .errors import RenderInputError

    try:
        image = DRAWERS[args.kind][1](args)
    except (RenderInputError, ValueError) as exc:
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
