"""``gouji render``: render/cli.py's pictures, plus a table and a series scoreboard drawn
from a record (docs/record.md) — records are the engine's, so this part lives in the application.

    gouji render table examples/opening.json -o table.png [--seat 3]
    gouji render series examples/series.json -o series.png
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bot.cli.review import load_record
from render import cli as base

if TYPE_CHECKING:  # the engine and Pillow load only when a picture is drawn
    from PIL import Image

    from engine.game import Game
    from engine.series import Series


def _names(args: argparse.Namespace) -> list[str]:
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != 6:
            raise ValueError("--names takes six names separated by commas")
        return names
    from bot.text.langs import text

    return [text(args.lang, "term.seat", n=s) for s in range(6)]


def _load(path: str) -> dict[str, Any]:
    data = load_record(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a record (a JSON object)")
    return data


def _game_of(data: dict[str, Any]) -> Game:
    """The game a record ends in: its last game for a series record."""
    from engine.record import (
        SERIES_FORMAT,
        action_list,
        game_from_record,
        play_actions,
        series_from_record,
    )

    if data.get("format") == SERIES_FORMAT:
        series: Series = series_from_record(data)
        if series.current is None or series.current.game is None:
            raise ValueError("the series record has no game in play yet")
        return series.current.game
    game: Game = game_from_record(data)
    play_actions(game, action_list(data))
    return game


def _table(args: argparse.Namespace) -> Image.Image:
    from bot.pictures.views import table_view_of_game
    from render.table import render_table

    game = _game_of(_load(args.record))
    view = table_view_of_game(game, _names(args), viewer=args.seat)
    return render_table(view, lang=args.lang)


def _series(args: argparse.Namespace) -> Image.Image:
    from bot.pictures.views import series_view
    from engine.record import series_from_record
    from render.series import render_series

    series = series_from_record(_load(args.record))
    return render_series(series_view(series, _names(args)), lang=args.lang)


def _record_args(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("record", help="a gouji-record/1 or gouji-series/1 JSON file")
    sub.add_argument("--names", help="six display names, comma separated")


def _table_args(sub: argparse.ArgumentParser) -> None:
    _record_args(sub)
    sub.add_argument("--seat", type=int, default=0, choices=range(6), help="whose view (0-5)")


base.DRAWERS.setdefault("table", ("the table at the end of a record, as one seat sees it", _table))
base.DRAWERS.setdefault("series", ("the scoreboard of a series record", _series))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    base.add_arguments(parser, extra={"table": _table_args, "series": _record_args})


def run(args: argparse.Namespace) -> int:
    return base.run(args)
