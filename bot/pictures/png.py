"""Engine state → render views → PNG bytes. Pure and blocking: call these off the event loop
(``GoujiBot.draw``: worker processes or threads). Names come from the caller (Discord display names or "AI 3")."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.live import LiveTable
from bot.text.catalog import text
from engine.cards import BIG_JOKER, SMALL_JOKER, TWO
from engine.scoring import title_for
from render import render_hand, render_leaderboard, render_profile, render_series, render_table
from render.encode import to_png
from render.models import (
    Action as ViewAction,
)
from render.models import (
    Burn,
    CardCounter,
    LeaderboardRow,
    ProfileView,
    SeatView,
    SeriesGame,
    SeriesView,
    TableView,
)


def _last_action(raw: str | None) -> ViewAction | None:
    """The engine's last action of a seat (``"KK"``, ``"burn KK"``, ``"pass"``) as a view."""
    if not raw:
        return None
    if raw in ("pass", "yield"):
        return ViewAction(raw)
    if raw.startswith("burn "):
        return ViewAction("burn", raw[5:])
    return ViewAction("play", raw)


def table_view(live: LiveTable, names: Sequence[str], lang: str, bottom_seat: int = 0) -> TableView:
    """The table as drawn: seats, standing hand, whose turn, burn, melee, card counter."""
    series = live.series
    cur = series.current if series else None
    game = cur.game if cur else None
    seats = []
    for s in range(6):
        ai = live.is_ai(s) and live.seats[s].ai_kind is not None
        if game is None:
            left = len(cur.hands[s]) if cur else 0
            seats.append(SeatView(name=names[s], cards_left=min(left, 216), ai=ai))
            continue
        seats.append(
            SeatView(
                name=names[s],
                cards_left=sum(game.counts[s]),
                place=game.places[s],
                declared=game.declared[s] and game.phase != "declare",
                opened=game.opened[s],
                headless=game.is_active(s) and game.is_headless(s),
                revolted=game.revolted[s],
                ai=ai,
                last_action=_last_action(game.last_action[s]),
            )
        )
    counter = None
    if live.options.counter:
        played = game.played if game else [0] * 15
        counter = CardCounter(
            big_jokers=4 - played[BIG_JOKER],
            small_jokers=4 - played[SMALL_JOKER],
            twos=16 - played[TWO],
        )
    standing, standing_seat, burn = "", None, None
    if game is not None and game.standing is not None and game.phase == "play":
        standing, standing_seat = str(game.standing), game.standing_seat
    if game is not None and game.current_burn is not None:
        burn = Burn(game.current_burn.burner, game.current_burn.burned)
    caption = ""
    if series is not None and cur is not None:
        caption = text(lang, "table_caption", number=cur.number, total=series.games_total)
    return TableView(
        seats=tuple(seats),
        standing=standing,
        standing_seat=standing_seat,
        # a burn window's seats stay hidden: who is asked holds a burning play
        to_act=tuple(series.to_act) if series and not (game and game.window is not None) else (),
        burn=burn,
        melee=bool(game and game.melee),
        counter=counter,
        caption=caption,
        bottom_seat=bottom_seat,
    )


def view_png(view: TableView, lang: str) -> bytes:
    """The table image of a view."""
    return to_png(render_table(view, lang=lang))


def hand_png(
    cards: str, lang: str, highlight: str | None = None, title: str | None = None
) -> bytes:
    """A hand image (``highlight``: the hint's cards, lifted)."""
    return to_png(render_hand(cards, highlight=highlight or None, lang=lang, title=title))


def series_view(live: LiveTable, names: Sequence[str], lang: str) -> SeriesView:
    """The current (or last) series' scoreboard."""
    series = live.running
    games = []
    for deal in series.counted:
        game = deal.game
        tribute = deal.tribute_points()
        if game is None:
            games.append(
                SeriesGame(
                    places=(None,) * 6,
                    points=tuple(tribute),
                    tribute=tuple(tribute),
                    finished=False,
                )
            )
            continue
        games.append(
            SeriesGame(
                places=tuple(game.places),
                points=tuple(deal.score()),
                tribute=tuple(tribute),
                chuan_san_hu=game.sweep,
                finished=deal.finished,
            )
        )
    return SeriesView(
        names=tuple(names),
        games=tuple(games[: series.games_total]),
        total_games=series.games_total,
        penalties=tuple(series.penalties()),
    )


def profile_png(
    name: str,
    score: int,
    games: int,
    places: Sequence[int],
    opens: int,
    burns: int,
    server: str,
    position: int | None,
    lang: str,
) -> bytes:
    """A player's profile card."""
    view = ProfileView(
        name=name,
        score=score,
        title=title_for(score),
        games=games,
        places=tuple(places),
        opens=opens,
        burns=burns,
        server=server,
        position=position,
    )
    return to_png(render_profile(view, lang=lang))


def leaderboard_png(rows: Sequence[tuple[str, int, int]], server: str, lang: str) -> bytes:
    """The server leaderboard: (name, score, games) rows in order."""
    views = [LeaderboardRow(name=n, score=s, title=title_for(s), games=g) for n, s, g in rows]
    return to_png(render_leaderboard(views, server=server, lang=lang))


def series_view_png(view: SeriesView, lang: str) -> bytes:
    """The series scoreboard image of a view."""
    return to_png(render_series(view, lang=lang))
