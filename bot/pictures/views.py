"""Engine state → render views: the one adapter between :mod:`engine` and :mod:`render`.

Pure functions, no Discord and no database, so the bot (``bot/pictures/png.py``) and the
terminal commands (``gouji demo``, ``gouji play``) draw the same pictures from the same
state. A table view is built from one seat's :class:`~engine.observation.Observation`, so
it shows only what that seat may know (counts of cards, never the cards of others).

    from bot.pictures.views import table_view_of_game, series_view, leaderboard_rows
    image = render.render_table(table_view_of_game(game, names, viewer=0))
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping, Sequence

from data import PlayerRating, Profile
from engine.cards import BIG_JOKER, SMALL_JOKER, TWO
from engine.game import Game, Phase
from engine.observation import Observation
from engine.scoring import counts_as_open
from engine.series import Series
from render.models import (
    Burn,
    CardCounter,
    LastAction,
    LeaderboardRow,
    RatingRow,
    SeatView,
    SeriesGame,
    SeriesView,
    TableView,
)

SEATS = 6


def render_action(last: str | None) -> LastAction | None:
    """A seat's last action this round, as the engine keeps it (``"KK"``, ``"pass"``,
    ``"yield"``, ``"burn RR99"``), as a render :class:`~render.models.LastAction`."""
    if not last:
        return None
    if last in ("pass", "yield", "noburn"):
        return LastAction(last)
    if last.startswith("burn "):
        return LastAction("burn", last[5:].strip())
    return LastAction("play", last)


def card_counter(played: Sequence[int]) -> CardCounter:
    """记牌器: big jokers, small jokers and 2s not yet played, from the played rank counts."""
    return CardCounter(
        big_jokers=max(0, 4 - played[BIG_JOKER]),
        small_jokers=max(0, 4 - played[SMALL_JOKER]),
        twos=max(0, 16 - played[TWO]),
    )


def table_view(
    obs: Observation,
    names: Sequence[str],
    *,
    ai: Sequence[bool] = (False,) * SEATS,
    caption: str = "",
    show_counter: bool = True,
    public: bool = False,
) -> TableView:
    """The table as ``obs.seat`` sees it, that seat drawn at the bottom. ``names`` are the six
    display names, ``ai`` marks the seats the bot plays (托管). ``public``: the picture is for
    everyone (a channel), so the seat's own answer to an open question is not shown."""
    if len(names) != SEATS or len(ai) != SEATS:
        raise ValueError("table_view needs six names and six AI flags, seats 0 to 5")
    declared = obs.declared
    if public and obs.phase == Phase.DECLARE:
        declared = (False,) * SEATS
    seats = tuple(
        SeatView(
            name=names[s],
            cards_left=obs.card_counts[s],
            place=obs.places[s],
            declared=declared[s],
            opened=obs.opened[s],
            headless=obs.headless[s],
            revolted=obs.revolted[s],
            ai=bool(ai[s]),
            last_action=render_action(obs.last_action[s]),
        )
        for s in range(SEATS)
    )
    standing = str(obs.standing) if obs.standing is not None else ""
    burn = (
        Burn(obs.burner, obs.burned) if obs.burner is not None and obs.burned is not None else None
    )
    return TableView(
        seats=seats,
        standing=standing,
        standing_seat=obs.standing_seat if standing else None,
        to_act=tuple(obs.to_act),
        burn=burn,
        melee=obs.melee,
        counter=card_counter(obs.played) if show_counter else None,
        caption=caption,
        bottom_seat=obs.seat,
    )


def named(
    table: TableView,
    names: Sequence[str],
    caption: str = "",
    deadline: float | None = None,
    now: float | None = None,
) -> TableView:
    """A table view (the table service's ``PublicView.table``, drawn without names) with the
    six seats' ``names``, a caption and, when the table waits on someone with a clock
    running out at ``deadline`` (unix time, ``PublicView.deadline``), the seconds left at
    ``now`` (default: this moment) — the clock at the time of drawing."""
    if len(names) != SEATS:
        raise ValueError("a table has six names, seats 0 to 5")
    seats = tuple(
        dataclasses.replace(seat, name=name) for seat, name in zip(table.seats, names, strict=True)
    )
    clock = None
    if deadline is not None and table.to_act:
        clock = max(0, math.ceil(deadline - (time.time() if now is None else now)))
    return dataclasses.replace(table, seats=seats, caption=caption, clock=clock)


def for_viewer(table: TableView, seat: int) -> TableView:
    """The table as a private picture for ``seat``: that seat at the bottom, marked "you",
    its opposite seat (对家) marked, the legend naming its team first."""
    return dataclasses.replace(table, bottom_seat=seat, viewer=seat)


def named_series(view: SeriesView, names: Sequence[str]) -> SeriesView:
    """A scoreboard (the table service's ``PublicView.scoreboard``) with the seats' names."""
    return dataclasses.replace(view, names=tuple(names))


def table_view_of_game(
    game: Game,
    names: Sequence[str],
    *,
    viewer: int = 0,
    ai: Sequence[bool] = (False,) * SEATS,
    caption: str = "",
) -> TableView:
    """:func:`table_view` of ``game`` as seat ``viewer`` sees it: a private picture
    (:func:`for_viewer`)."""
    return for_viewer(table_view(game.observe(viewer), names, ai=ai, caption=caption), viewer)


def series_view(
    series: Series,
    names: Sequence[str],
    caption: str = "",
    ratings: Sequence[tuple[float, float] | None] = (),
) -> SeriesView:
    """The scoreboard of a series: every counted game (void deals left out), each with its
    places, points (place points plus tribute), net tribute and what each seat did of note
    (开点, 烧成, 被闷); an unfinished game shows the places taken so far. Under it the
    tribute owed next game, once a game is over and the series goes on. ``ratings``: per
    seat, what the finished series did to its rating (技术分) — (change, figure after) or
    None; empty: not shown."""
    games = []
    for deal in series.counted:
        game = deal.game
        places = tuple(game.places) if game is not None else (None,) * SEATS
        games.append(
            SeriesGame(
                places=places,
                points=tuple(deal.score()),
                tribute=tuple(deal.tribute_points()),
                chuan_san_hu=bool(game is not None and game.sweep),
                finished=deal.finished,
                marks=_marks(game),
            )
        )
    owed: tuple[tuple[int, int, int, str], ...] = ()
    if series.counted and series.counted[-1].finished and not series.finished:
        owed = tuple((t.payer, t.receiver, t.count, t.kind) for t in series.owed_next())
    return SeriesView(
        names=tuple(names),
        games=tuple(games[: series.games_total]),
        total_games=series.games_total,
        penalties=tuple(series.penalties()),
        caption=caption,
        owed=owed,
        ratings=tuple(ratings),
    )


def _marks(game: Game | None) -> tuple[tuple[str, ...], ...]:
    """Per seat: "opened" (开点), "burn_won" (烧成), "stifled" (被闷) in this game."""
    if game is None:
        return ((),) * SEATS
    burners = {b.burner for b in game.successful_burns()}
    stifled = {seat for seat, _ in game.stifled}
    return tuple(
        tuple(
            mark
            for mark, did in (
                ("opened", counts_as_open(game.opened, game.revolted, s)),
                ("burn_won", s in burners),
                ("stifled", s in stifled),
            )
            if did
        )
        for s in range(SEATS)
    )


def leaderboard_rows(
    profiles: Sequence[Profile], names: Mapping[int, str] | None = None
) -> list[LeaderboardRow]:
    """Leaderboard rows from :class:`data.Profile` rows (in board order); a user without a
    name in ``names`` is shown by id."""
    names = names or {}
    return [
        LeaderboardRow(
            name=names.get(p.user_id, str(p.user_id)), score=p.score, games=p.games, position=i + 1
        )
        for i, p in enumerate(profiles)
    ]


def rating_rows(rated: Sequence[PlayerRating], names: Mapping[str, str]) -> list[RatingRow]:
    """Rows of a board by rating from :class:`data.PlayerRating` rows (in board order);
    ``names[player]`` names each (a user id in digits, or ``ai:KIND``), else the key."""
    return [
        RatingRow(
            name=names.get(r.player, r.player),
            figure=r.rating.ordinal,
            mu=r.rating.mu,
            sigma=r.rating.sigma,
            games=r.rating.games,
            position=r.rank,
            provisional=r.rating.provisional,
            ai=r.ai_kind is not None,
        )
        for r in rated
    ]
