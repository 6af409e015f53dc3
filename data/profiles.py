"""Player profiles per server: applying a finished game's result exactly once, and the
leaderboard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from .base import LOCK_GAME, fetch_all
from .errors import InvalidInputError, NotFoundError, claim_lost
from .models import Profile, ProfileUpdate
from .ratings import RatingsMixin, lineup_of
from .rows import PROFILE_COLUMNS, encode_json, encode_object, profile_from_row

#: Leaderboard order: score, then more games played, then user id.
_ORDER = "score DESC, games DESC, user_id ASC"

_APPLY = """
INSERT INTO profiles (guild_id, user_id, score, games, place_1, place_2, place_3, place_4,
                      place_5, place_6, opens, burns, stifles, leaves, updated_at)
VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    score = profiles.score + excluded.score, games = profiles.games + 1,
    place_1 = profiles.place_1 + excluded.place_1, place_2 = profiles.place_2 + excluded.place_2,
    place_3 = profiles.place_3 + excluded.place_3, place_4 = profiles.place_4 + excluded.place_4,
    place_5 = profiles.place_5 + excluded.place_5, place_6 = profiles.place_6 + excluded.place_6,
    opens = profiles.opens + excluded.opens, burns = profiles.burns + excluded.burns,
    stifles = profiles.stifles + excluded.stifles, leaves = profiles.leaves + excluded.leaves,
    updated_at = excluded.updated_at
"""


def check_updates(updates: Sequence[ProfileUpdate]) -> None:
    """:class:`InvalidInputError` unless every update is well formed, one per user."""
    seen = set()
    for update in updates:
        if not isinstance(update, ProfileUpdate):
            raise InvalidInputError(f"profile updates must be ProfileUpdate, not {update!r}")
        if update.user_id in seen:
            raise InvalidInputError(f"user {update.user_id} has two profile updates for one game")
        seen.add(update.user_id)
        if update.place is not None and (
            type(update.place) is not int or not 1 <= update.place <= 6
        ):
            raise InvalidInputError(
                f"user {update.user_id}: place must be 1 to 6 or None, not {update.place!r}"
            )
        for name in ("score_delta", "opens", "burns", "stifles", "leaves"):
            value = getattr(update, name)
            if type(value) is not int or (name != "score_delta" and value < 0):
                raise InvalidInputError(
                    f"user {update.user_id}: {name} must be an integer ≥ 0, not {value!r}"
                )


class ProfilesMixin(RatingsMixin):
    """Profiles, game results and the leaderboard (and, with each result, the ratings)."""

    async def record_game_result(
        self, guild_id: int, game_id: int, updates: Sequence[ProfileUpdate], result: dict[str, Any]
    ) -> bool:
        """Apply a finished game to its players' profiles and mark the deal finished with
        ``result`` (places, points, tribute …), all in one transaction — with the game's
        lineup (its table's seats now, the places, who left) and the ratings it changes
        (:mod:`data.ratings`). Exactly once per game: returns False and changes nothing if
        it was already applied."""
        check_updates(updates)
        result_text = encode_object(result, "game result")
        updates_text = encode_json([asdict(u) for u in updates], "profile updates")
        now = self._now()
        async with self._shared_rows, self._transaction() as conn:
            # the deal's row first: a second call at once (another connection) waits, then
            # finds the result applied
            await conn.execute(LOCK_GAME, (game_id,))
            rows = await fetch_all(
                conn,
                "SELECT g.status, t.guild_id, EXISTS (SELECT 1 FROM game_results WHERE game_id = g.id), "
                "t.id, t.owner "
                "FROM games AS g JOIN series AS s ON s.id = g.series_id JOIN tables AS t ON t.id = s.table_id "
                "WHERE g.id = ?",
                (game_id,),
            )
            if not rows:
                raise NotFoundError(f"there is no game {game_id}")
            status, table_guild, applied, table_id, owner = rows[0]
            if applied:
                return False
            if self._owner not in (None, owner):
                raise claim_lost(table_id, owner, self._owner)
            if table_guild != guild_id:
                raise InvalidInputError(
                    f"game {game_id} was played on server {table_guild}, not {guild_id}"
                )
            if status not in ("playing", "finished"):
                raise InvalidInputError(f"game {game_id} is {status}: it has no result to record")
            await conn.executemany(
                _APPLY,
                [
                    (
                        guild_id,
                        u.user_id,
                        u.score_delta,
                        *(int(u.place == place) for place in range(1, 7)),
                        u.opens,
                        u.burns,
                        u.stifles,
                        u.leaves,
                        now,
                    )
                    for u in updates
                ],
            )
            seats = await fetch_all(
                conn, "SELECT seat, user_id, ai_kind FROM seats WHERE table_id = ?", (table_id,)
            )
            lineup = lineup_of([tuple(row) for row in seats], updates, result)
            lineup_text = None if lineup is None else encode_json(lineup, "lineup")
            ((seq,),) = await fetch_all(
                conn,
                "INSERT INTO game_results (game_id, guild_id, updates, applied_at, seq, lineup) "
                "VALUES (?, ?, ?, ?, (SELECT COALESCE(max(seq), 0) + 1 FROM game_results "
                "WHERE guild_id = ?), ?) RETURNING seq",
                (game_id, guild_id, updates_text, now, guild_id, lineup_text),
            )
            await conn.execute(
                "UPDATE games SET status = 'finished', result = ?, updated_at = ? WHERE id = ?",
                (result_text, now, game_id),
            )
            await self._rate_recorded(conn, guild_id, game_id, seq, lineup_text)
        return True

    async def get_profile(self, guild_id: int, user_id: int) -> Profile:
        """The player's profile on this server (all zero if they never finished a game)."""
        rows = await self._fetch(
            f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if not rows:
            return Profile(guild_id, user_id, 0, 0, (0, 0, 0, 0, 0, 0), 0, 0, 0, 0)
        return profile_from_row(rows[0])

    async def leaderboard(self, guild_id: int, limit: int = 10, offset: int = 0) -> list[Profile]:
        """The server's top players: by score, ties by more games played, then by user id."""
        if type(limit) is not int or type(offset) is not int or limit < 1 or offset < 0:
            raise InvalidInputError(
                f"leaderboard needs limit ≥ 1 and offset ≥ 0, not {limit!r}, {offset!r}"
            )
        rows = await self._fetch(
            f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE guild_id = ? ORDER BY {_ORDER} LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        return [profile_from_row(row) for row in rows]

    async def profile_guilds(self) -> list[int]:
        """The servers that have at least one profile, in id order."""
        rows = await self._fetch("SELECT DISTINCT guild_id FROM profiles ORDER BY guild_id")
        return [int(row[0]) for row in rows]

    async def rank_of(self, guild_id: int, user_id: int) -> int | None:
        """The player's place on the server's leaderboard (1 = top), None without a profile."""
        rows = await self._fetch(
            "SELECT (SELECT count(*) FROM profiles AS o WHERE o.guild_id = p.guild_id AND "
            "(o.score > p.score OR (o.score = p.score AND (o.games > p.games OR "
            "(o.games = p.games AND o.user_id < p.user_id))))) + 1 "
            "FROM profiles AS p WHERE p.guild_id = ? AND p.user_id = ?",
            (guild_id, user_id),
        )
        return rows[0][0] if rows else None
