"""A live table → render views (built by :mod:`bot.pictures.views`, the one adapter) → PNG
bytes. Pure and blocking: call these off the event loop (``GoujiBot.draw``: worker processes
or threads). Names come from the caller (Discord display names or "AI 3")."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.pictures import views
from bot.pictures.views import card_counter
from bot.service.live import LiveTable
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
    SeatView,
    SeriesView,
    TableView,
)


def table_view(live: LiveTable, names: Sequence[str], lang: str, bottom_seat: int = 0) -> TableView:
    """The table as the channel sees it: seats, standing hand, whose turn, burn, melee, the
    card counter if the table shows it. While tribute is returned: the seats and their cards."""
    series = live.series
    cur = series.current if series else None
    # 托管 marks a person the bot plays for; an AI seat is named "AI" already
    ai = [live.is_ai(s) and live.seats[s].user_id is not None for s in range(6)]
    caption = ""
    if series is not None and cur is not None:
        caption = text(lang, "table_caption", number=cur.number, total=series.games_total)
        rules = house_rules(lang, live.options.engine_options().changed())
        if rules:
            caption += " · " + text(lang, "house_rules", rules=rules)
    game = cur.game if cur else None
    if game is None:
        seats = tuple(
            SeatView(name=names[s], cards_left=min(len(cur.hands[s]) if cur else 0, 216), ai=ai[s])
            for s in range(6)
        )
        return TableView(
            seats=seats,
            to_act=tuple(series.to_act) if series else (),
            counter=card_counter([0] * 15) if live.options.counter else None,
            caption=caption,
            bottom_seat=bottom_seat,
        )
    view = views.table_view(
        game.observe(bottom_seat),
        names,
        ai=ai,
        caption=caption,
        show_counter=live.options.counter,
        public=True,
    )
    if game.window is not None:  # a burn window's seats stay hidden: who is asked can burn
        view = dataclasses.replace(view, to_act=())
    return view


def view_png(view: TableView, lang: str) -> bytes:
    """The table image of a view."""
    return to_png(render_table(view, lang=lang))


def hand_png(
    cards: str, lang: str, highlight: str | None = None, title: str | None = None
) -> bytes:
    """A hand image (``highlight``: the hint's cards, lifted)."""
    return to_png(render_hand(cards, highlight=highlight or None, lang=lang, title=title))


def series_view(live: LiveTable, names: Sequence[str]) -> SeriesView:
    """The current (or last) series' scoreboard; once it is over, with its rating changes."""
    shown = live.series_ratings
    ratings = shown[1] if shown is not None and shown[0] == live.series_id else ()
    return views.series_view(live.running, names, ratings=ratings)


def profile_png(view: ProfileView, lang: str) -> bytes:
    """A player's profile card."""
    return to_png(render_profile(view, lang=lang))


def leaderboard_png(rows: Sequence[LeaderboardRow], server: str, lang: str) -> bytes:
    """The server leaderboard, rows in order."""
    return to_png(render_leaderboard(list(rows), server=server, lang=lang))


def rating_board_png(rows: Sequence[RatingRow], server: str, lang: str) -> bytes:
    """The server's board by skill rating (技术分), rows in order."""
    return to_png(render_rating_board(list(rows), server=server, lang=lang))


def series_view_png(view: SeriesView, lang: str) -> bytes:
    """The series scoreboard image of a view."""
    return to_png(render_series(view, lang=lang))
