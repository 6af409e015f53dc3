"""Seasons (赛季): a server's points, places and skill ratings per season, for every front end
(data/seasons.py keeps them; docs/tournaments.md, "Seasons").

``season=None`` means the current season; ``0`` the all-time figures, which seasons never
change. A server that never started a season is in season 1, which holds every result: its
figures are the all-time ones. The server's admin starts a season (:meth:`Seasons.start`),
or :meth:`Seasons.tick` starts one at each calendar month (UTC) where the server asked for
monthly seasons.
"""

from __future__ import annotations

import datetime
import logging

from data import PlayerRating, Profile, Store, user_player
from data.seasons import Season, SeasonBoard
from engine.scoring import title_for

from .clock import Clock, SystemClock
from .errors import UserError
from .periodic import Periodic
from .standing import RatingStanding, Standing, standing_of

log = logging.getLogger("gouji.bot")

ALL_TIME = 0
#: Seconds between two looks at the monthly seasons.
TICK = 600.0


def month_of(when: float) -> tuple[int, int]:
    day = datetime.datetime.fromtimestamp(when, datetime.UTC)
    return day.year, day.month


def rated(board: SeasonBoard) -> list[PlayerRating]:
    """A season's ratings as a board, the best conservative figure first."""
    order = sorted(board.ratings.items(), key=lambda kv: (-kv[1].ordinal, kv[0]))
    guild = board.season.guild_id
    return [
        PlayerRating(guild, player, rating, i + 1, len(order))
        for i, (player, rating) in enumerate(order)
    ]


class Seasons:
    """The seasons of every server, over the store."""

    def __init__(self, store: Store, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self._loop = Periodic("seasons", self.tick, self.clock, TICK)

    async def season(self, guild_id: int, season: int | None = None) -> Season | None:
        """The season asked for (None: the current one), or None for the all-time figures
        (``0``, or a server still in its first season); ``UserError('no_season')``."""
        seasons = await self.store.seasons(guild_id)
        if season == ALL_TIME or (season is None and seasons[-1].started_at is None):
            return None
        if season is None:
            return seasons[-1]
        found = next((s for s in seasons if s.number == season), None)
        if found is None:
            raise UserError("no_season", season=season, seasons=len(seasons))
        return found

    async def leaderboard(
        self, guild_id: int, season: int | None = None, limit: int = 10
    ) -> tuple[Season | None, list[Profile]]:
        """The season's best points (None: all time) and the season shown."""
        chosen = await self.season(guild_id, season)
        if chosen is None:
            return None, await self.store.leaderboard(guild_id, limit=limit)
        board = await self.store.season_board(guild_id, chosen.number)
        return chosen, list(board.profiles[:limit])

    async def rating_board(
        self, guild_id: int, season: int | None = None, limit: int = 10
    ) -> tuple[Season | None, list[PlayerRating]]:
        chosen = await self.season(guild_id, season)
        if chosen is None:
            return None, await self.store.rating_board(guild_id, limit=limit)
        return chosen, rated(await self.store.season_board(guild_id, chosen.number))[:limit]

    async def profile(
        self, guild_id: int, user_id: int, season: int | None = None
    ) -> tuple[Season | None, Standing]:
        """The player's standing in the season (None: all time)."""
        chosen = await self.season(guild_id, season)
        if chosen is None:
            return None, await standing_of(self.store, guild_id, user_id)
        board = await self.store.season_board(guild_id, chosen.number)
        mine = board.profile(user_id) or Profile(
            guild_id, user_id, 0, 0, (0, 0, 0, 0, 0, 0), 0, 0, 0, 0
        )
        rating = next((r for r in rated(board) if r.player == user_player(user_id)), None)
        return chosen, Standing(
            guild_id=guild_id,
            user_id=user_id,
            score=mine.score,
            title=title_for(mine.score),
            games=mine.games,
            places=mine.places,
            opens=mine.opens,
            burns=mine.burns,
            stifles=mine.stifles,
            leaves=mine.leaves,
            position=board.rank_of(user_id),
            rating=None if rating is None else RatingStanding.of(rating),
        )

    async def start(self, guild_id: int) -> Season:
        """The server's admin starts a new season (the current one's board is kept)."""
        return await self.store.start_season(guild_id)

    async def set_monthly(self, guild_id: int, monthly: bool) -> None:
        await self.store.set_monthly_seasons(guild_id, monthly)

    async def tick(self) -> list[int]:
        """Start a new season on each server with monthly seasons whose season began (its
        start, or its first result) in an earlier calendar month; the servers that did."""
        now = month_of(self.clock.now())
        started = []
        for guild_id in await self.store.monthly_season_guilds():
            current = await self.store.current_season(guild_id)
            began = current.started_at or await self.store.first_result_at(guild_id)
            if began is not None and month_of(began) < now:
                await self.store.start_season(guild_id)
                started.append(guild_id)
        return started

    def run(self) -> None:
        """Look at the monthly seasons every :data:`TICK` seconds, in the background."""
        self._loop.start()

    async def close(self) -> None:
        await self._loop.close()
