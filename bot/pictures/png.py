"""Render views → PNG bytes, and the table picture's caption. Pure and blocking: call these
off the event loop (``GoujiBot.draw``: worker processes or threads). The views come from the
table service's views (``PublicView.table``, ``.scoreboard``) named by the caller
(:func:`bot.pictures.views.named`: Discord display names or "AI 3")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.text.catalog import text
from bot.text.options import house_rules
from render import (
    render_hand,
    render_leaderboard,
    render_profile,
    render_rating_board,
    render_series,
    render_table,
)
from render.encode import to_png
from render.models import (
    LeaderboardRow,
    ProfileView,
    RatingRow,
    SeriesView,
    TableView,
)
from render.table import table_palette

from .cache import reusable


def table_caption(lang: str, number: int, total: int, rules: Mapping[str, Any]) -> str:
    """The table picture's caption: game ``number`` of ``total`` and the house rules in
    force (``Options.changed()``): "第 1/5 局 · 本桌规则：贡牌：最大的牌"."""
    caption = text(lang, "table_caption", number=number, total=total)
    shown = house_rules(lang, dict(rules))
    if shown:
        caption += " · " + text(lang, "house_rules", rules=shown)
    return caption


def view_png(view: TableView, lang: str) -> bytes:
    """The table image of a view."""
    return to_png(render_table(view, lang=lang), palette=table_palette())


@reusable
def hand_png(
    cards: str, lang: str, highlight: str | None = None, title: str | None = None
) -> bytes:
    """A hand image (``highlight``: the hint's cards, lifted)."""
    picture = render_hand(cards, highlight=highlight or None, lang=lang, title=title, mapped=True)
    return to_png(picture)


def profile_png(view: ProfileView, lang: str) -> bytes:
    """A player's profile card."""
    return to_png(render_profile(view, lang=lang))


def leaderboard_png(rows: Sequence[LeaderboardRow], server: str, lang: str) -> bytes:
    """The server leaderboard, rows in order."""
    return to_png(render_leaderboard(list(rows), server=server, lang=lang))


def rating_board_png(rows: Sequence[RatingRow], server: str, lang: str) -> bytes:
    """The server's board by skill rating (技术分), rows in order."""
    return to_png(render_rating_board(list(rows), server=server, lang=lang))


@reusable
def series_view_png(view: SeriesView, lang: str) -> bytes:
    """The series scoreboard image of a view."""
    return to_png(render_series(view, lang=lang))
