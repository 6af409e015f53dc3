"""Seasons: a server's points, places and skill ratings per season (schema version 10).

Season *n* of a server holds the game results whose ``seq`` runs from its ``first_seq`` up
to the next season's; its figures are folded from them exactly as the all-time ones
(``profiles``, ``ratings``) are from all results, which stay as they are. A server that
never started a season is in season 1, holding every result. When a season ends
(:meth:`SeasonsMixin.start_season`) its final board — every player's points, games, places
and rating — is kept in the row, and a past season is read from it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.rating import Rating

from .backend import Conn
from .base import StoreBase, fetch_all
from .errors import InvalidInputError, NotFoundError
from .models import Profile
from .ratings import fold


@dataclass(frozen=True, slots=True)
class Season:
    """A server's season: ``first_seq`` its first result's ``seq``; ``started_at`` None for
    a season 1 never written (a server that never started one); ``ended_at`` None: current."""

    guild_id: int
    number: int
    first_seq: int
    started_at: float | None
    ended_at: float | None

    @property
    def current(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class SeasonBoard:
    """A season's figures: its players' profiles in leaderboard order (points, then more
    games, then the lower user id) and every player's rating (users and AI levels)."""

    season: Season
    profiles: tuple[Profile, ...]
    ratings: dict[str, Rating]

    def profile(self, user_id: int) -> Profile | None:
        return next((p for p in self.profiles if p.user_id == user_id), None)

    def rank_of(self, user_id: int) -> int | None:
        return next((i + 1 for i, p in enumerate(self.profiles) if p.user_id == user_id), None)


_SEASON = "guild_id, number, first_seq, started_at, ended_at"


def _season(row: Sequence[Any]) -> Season:
    ended = None if row[4] is None else float(row[4])
    return Season(int(row[0]), int(row[1]), int(row[2]), float(row[3]), ended)


def _profiles(guild_id: int, rows: Sequence[Sequence[Any]]) -> tuple[Profile, ...]:
    """Each user's figures summed from the results' profile updates, in leaderboard order."""
    counters = ("opens", "burns", "stifles", "leaves")
    sums: dict[int, list[int]] = {}  # score, games, places 1-6, opens, burns, stifles, leaves
    for _seq, updates, _lineup, _series in rows:
        for u in json.loads(updates):
            line = sums.setdefault(int(u["user_id"]), [0] * 12)
            line[0] += int(u["score_delta"])
            line[1] += 1
            place = u.get("place")
            if place is not None and 1 <= int(place) <= 6:
                line[1 + int(place)] += 1
            for i, key in enumerate(counters):
                line[8 + i] += int(u.get(key, 0))
    profiles = [
        Profile(guild_id, user, s[0], s[1], (s[2], s[3], s[4], s[5], s[6], s[7]), *s[8:12])
        for user, s in sums.items()
    ]
    return tuple(sorted(profiles, key=lambda p: (-p.score, -p.games, p.user_id)))


class SeasonsMixin(StoreBase):
    """Seasons of a server, their boards, and the monthly switch."""

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, the first first (one, current, if it never started one)."""
        rows = await self._fetch(
            f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
        )
        return [_season(r) for r in rows] or [Season(guild_id, 1, 1, None, None)]

    async def current_season(self, guild_id: int) -> Season:
        return (await self.seasons(guild_id))[-1]

    async def season_board(self, guild_id: int, number: int | None = None) -> SeasonBoard:
        """A season's board (None: the current one): a past season's as it was kept, the
        current one's folded from its results now."""
        async with self._transaction() as conn:
            season = await self._season_of(conn, guild_id, number)
            if season.ended_at is not None:
                kept = await fetch_all(
                    conn,
                    "SELECT board FROM seasons WHERE guild_id = ? AND number = ?",
                    (guild_id, season.number),
                )
                return _decode_board(season, kept[0][0])
            return await self._fold_season(conn, season)

    async def start_season(self, guild_id: int) -> Season:
        """End the current season (its final board kept) and start the next, from the
        server's next result on."""
        now = self._now()
        async with self._shared_rows, self._transaction() as conn:
            season = await self._season_of(conn, guild_id, None)
            board = await self._fold_season(conn, season)
            last = await fetch_all(
                conn, "SELECT MAX(seq) FROM game_results WHERE guild_id = ?", (guild_id,)
            )
            first = int(last[0][0] or 0) + 1
            text = _encode_board(board)
            if season.started_at is None:  # season 1, never written: it began with the server
                began = await fetch_all(
                    conn,
                    "SELECT MIN(applied_at) FROM game_results WHERE guild_id = ?",
                    (guild_id,),
                )
                await conn.execute(
                    "INSERT INTO seasons (guild_id, number, first_seq, started_at, ended_at, "
                    "board) VALUES (?, 1, 1, ?, ?, ?)",
                    (guild_id, float(began[0][0] or now), now, text),
                )
            else:
                await conn.execute(
                    "UPDATE seasons SET ended_at = ?, board = ? WHERE guild_id = ? AND number = ?",
                    (now, text, guild_id, season.number),
                )
            await conn.execute(
                "INSERT INTO seasons (guild_id, number, first_seq, started_at) VALUES (?, ?, ?, ?)",
                (guild_id, season.number + 1, first, now),
            )
        return Season(guild_id, season.number + 1, first, now, None)

    async def first_result_at(self, guild_id: int) -> float | None:
        """When the server's first game result was recorded (None: it has none)."""
        rows = await self._fetch(
            "SELECT MIN(applied_at) FROM game_results WHERE guild_id = ?", (guild_id,)
        )
        return None if rows[0][0] is None else float(rows[0][0])

    async def set_monthly_seasons(self, guild_id: int, monthly: bool) -> None:
        """Whether a new season starts by itself each calendar month (UTC)."""
        await self._run(
            "INSERT INTO season_settings (guild_id, monthly) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET monthly = excluded.monthly",
            (guild_id, int(bool(monthly))),
        )

    async def monthly_season_guilds(self) -> list[int]:
        rows = await self._fetch(
            "SELECT guild_id FROM season_settings WHERE monthly = 1 ORDER BY guild_id"
        )
        return [int(r[0]) for r in rows]

    async def _season_of(self, conn: Conn, guild_id: int, number: int | None) -> Season:
        if type(guild_id) is not int or (number is not None and type(number) is not int):
            raise InvalidInputError("a season is a server id and a number")
        rows = await fetch_all(
            conn, f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
        )
        seasons = [_season(r) for r in rows] or [Season(guild_id, 1, 1, None, None)]
        if number is None:
            return seasons[-1]
        found = next((s for s in seasons if s.number == number), None)
        if found is None:
            raise NotFoundError(f"server {guild_id} has no season {number}")
        return found

    async def _fold_season(self, conn: Conn, season: Season) -> SeasonBoard:
        """A season's figures from its results (those of the next season excluded)."""
        nxt = await fetch_all(
            conn,
            "SELECT first_seq FROM seasons WHERE guild_id = ? AND number = ?",
            (season.guild_id, season.number + 1),
        )
        until = int(nxt[0][0]) if nxt else None
        rows = await fetch_all(
            conn,
            "SELECT r.seq, r.updates, r.lineup, g.series_id FROM game_results AS r "
            "JOIN games AS g ON g.id = r.game_id WHERE r.guild_id = ? AND r.seq >= ?"
            + (" AND r.seq < ?" if until is not None else "")
            + " ORDER BY r.seq",
            (season.guild_id, season.first_seq) + ((until,) if until is not None else ()),
        )
        ratings, _series, _rated = fold([(r[0], r[2], r[3]) for r in rows])
        return SeasonBoard(season, _profiles(season.guild_id, rows), ratings)


def _encode_board(board: SeasonBoard) -> str:
    return json.dumps(
        {
            "profiles": [
                [p.user_id, p.score, p.games, list(p.places), p.opens, p.burns, p.stifles, p.leaves]
                for p in board.profiles
            ],
            "ratings": {k: [r.mu, r.sigma, r.games] for k, r in board.ratings.items()},
        },
        separators=(",", ":"),
    )


def _decode_board(season: Season, text: str) -> SeasonBoard:
    data = json.loads(text)
    profiles = tuple(
        Profile(season.guild_id, u, s, g, tuple(pl), o, b, st, lv)
        for u, s, g, pl, o, b, st, lv in data["profiles"]
    )
    ratings = {
        k: Rating(mu, sigma, int(games)) for k, (mu, sigma, games) in data["ratings"].items()
    }
    return SeasonBoard(season, profiles, ratings)
