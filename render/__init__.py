"""Pictures of the game, drawn with Pillow from plain data (render/models.py).

Public API (each returns a ``PIL.Image.Image`` in RGB; encode with :func:`to_png`)::

    render_hand(cards, highlight=None, lang="zh", title=None)
    render_table(view: TableView, lang="zh")
    render_series(view: SeriesView, lang="zh")
    render_profile(view: ProfileView, lang="zh")
    render_leaderboard(rows: list[LeaderboardRow], server="", lang="zh", limit=10)
    to_png(image) -> bytes

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
    "to_png": "render.encode",
    "title_for": "render.titles",
    "RenderInputError": "render.errors",
    "Action": "render.models",
    "Burn": "render.models",
    "CardCounter": "render.models",
    "SeatView": "render.models",
    "TableView": "render.models",
    "SeriesGame": "render.models",
    "SeriesView": "render.models",
    "ProfileView": "render.models",
    "LeaderboardRow": "render.models",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
