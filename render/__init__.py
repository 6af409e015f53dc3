"""Pictures of the game, drawn with Pillow from plain data (render/models.py).

Public API (each returns a ``PIL.Image.Image`` in RGB; encode with :func:`to_png`)::

    render_hand(cards, highlight=None, lang="zh", title=None)
    render_table(view: TableView, lang="zh")
    render_series(view: SeriesView, lang="zh")
    render_profile(view: ProfileView, lang="zh")
    render_leaderboard(rows: list[LeaderboardRow], server="", lang="zh", limit=10)
    to_png(image) -> bytes
    warm_up()  # optional, at start-up: draws the cached art (~1.5 s) before the first picture

Names are imported lazily, so ``import render`` (and ``gouji --help``) does not load Pillow.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "render_hand": "render.hand",
    "render_table": "render.table",
    "render_series": "render.series",
    "render_profile": "render.profile",
    "render_leaderboard": "render.profile",
    "render_rating_board": "render.profile",
    "to_png": "render.encode",
    "title_for": "render.titles",
    "RenderInputError": "render.errors",
    "LastAction": "render.models",
    "Burn": "render.models",
    "CardCounter": "render.models",
    "SeatView": "render.models",
    "TableView": "render.models",
    "SeriesGame": "render.models",
    "SeriesView": "render.models",
    "ProfileView": "render.models",
    "LeaderboardRow": "render.models",
    "RatingRow": "render.models",
    "RatingView": "render.models",
}

__all__ = sorted([*_EXPORTS, "warm_up"])


def warm_up() -> None:
    """Fill the module-level caches (fonts, every card face at every size the pictures use,
    card backs), so that the first picture a player asks for is as fast as the rest."""
    from . import demo
    from .cards import card_face
    from .hand import CARD_W, render_hand
    from .series import render_series
    from .table import MINI_W, STANDING_W, render_table, table_palette

    for width in (CARD_W, MINI_W, STANDING_W):
        for rank in range(15):
            for suit in (None, "s", "h", "d", "c") if rank < 13 else (None,):
                card_face(rank, suit, width)
    render_hand("3456789TJQKA2BR", highlight="R", mapped=True)  # and the hand palette
    render_table(demo.demo_table())
    table_palette()
    render_series(demo.demo_series())


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
