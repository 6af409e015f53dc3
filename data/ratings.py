"""Skill ratings per server (技术分): derived from the game results, never the only copy of
anything.

Each finished game's result row (``game_results``) keeps its ``lineup`` — who sat in each
seat (a user, else the AI level), their place, whether they left — and its ``seq``, the
order results were recorded in on the server. A server's ratings are the fold of
:func:`engine.rating.rate_game` over its lineups in that order, from nothing. They are kept
in three tables updated in the transaction that records a result (``ratings``: each
player's rating; ``series_ratings``: what each series did to them; ``rating_state``:
the last ``seq`` rated and the model's name); :meth:`RatingsMixin.rebuild_ratings`
(``gouji ratings rebuild``) computes them again, to the same numbers.

A server's ratings that lag behind its results (a database from before schema version 7,
a copy, results recorded out of order) or were computed by another model are rebuilt the
next time a result is recorded or they are read. Players are keys: a user id in digits, or
``ai:KIND`` for an AI level (each level is one player of a server).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from engine.rating import DEFAULT, Entry, Rating, is_lineup, rate_game

from .backend import Conn
from .base import StoreBase, fetch_all
from .errors import InvalidInputError
from .models import AI_KINDS, PlayerRating, ProfileUpdate, RatingChange, RebuildReport

#: the model the ratings are computed with
MODEL = DEFAULT
#: board order: the conservative figure, then more games, then the player's key
_ORDER = "ordinal DESC, games DESC, player ASC"
_UPSERT = (
    "INSERT INTO ratings (guild_id, player, mu, sigma, ordinal, games) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "ordinal = excluded.ordinal, games = excluded.games"
)
_STATE = (
    "INSERT INTO rating_state (guild_id, model, seq, games) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET model = excluded.model, seq = excluded.seq, "
    "games = excluded.games"
)


def user_player(user_id: int) -> str:
    """The rating key of a user."""
    return str(user_id)


def ai_player(kind: str) -> str:
    """The rating key of an AI level (one player per server)."""
    return f"ai:{kind}"


def lineup_of(
    seats: Sequence[tuple[int, int | None, str | None]],
    updates: Sequence[ProfileUpdate],
    result: dict[str, Any],
) -> list[dict[str, Any]] | None:
    """A finished game's lineup from its table's seats ``(seat, user_id, ai_kind)`` as the
    game ends, the profile updates (who left) and the result (``places``); None when the
    result has no six places or a seat has nobody."""
    places = result.get("places")
    if not isinstance(places, list) or len(places) != 6:
        return None
    left = {u.user_id for u in updates if u.leaves}
    lineup = []
    for seat, user_id, ai_kind in sorted(seats):
        entry: dict[str, Any] = {"seat": seat}
        if user_id is not None:
            entry.update(user=user_id, left=user_id in left)
        elif ai_kind is not None:
            entry["ai"] = ai_kind
        else:
            return None
        entry["place"] = places[seat] if 0 <= seat < 6 else None
        lineup.append(entry)
    return lineup if len(lineup) == 6 else None


def entries_of(text: str | None) -> list[Entry] | None:
    """The rated entries (seat 0 to 5) of a stored lineup; None if it cannot be rated."""
    if text is None:
        return None
    try:
        lineup = sorted(json.loads(text), key=itemgetter("seat"))
        entries = [
            Entry(
                user_player(item["user"]) if "user" in item else ai_player(item["ai"]),
                item["place"],
                item.get("left") is True,
            )
            for item in lineup
        ]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    for seat, item in enumerate(lineup):
        user = item.get("user")
        if (
            item["seat"] != seat
            or type(item["place"]) is not int
            or (type(user) is not int if "user" in item else item["ai"] not in AI_KINDS)
        ):
            return None
    return entries if is_lineup(entries) else None


def add_changes(
    changes: dict[str, list[Any]], before: dict[str, Rating], after: dict[str, Rating]
) -> None:
    """Add one game to a series' changes: per player [change of the conservative figure,
    the figure after the game, games rated]."""
    for player, rating in after.items():
        figure = rating.ordinal
        change = figure - before[player].ordinal
        if player in changes:
            total, _, games = changes[player]
            changes[player] = [total + change, figure, games + 1]
        else:
            changes[player] = [change, figure, 1]


def _changes_text(changes: dict[str, list[Any]]) -> str:
    return json.dumps(changes, separators=(",", ":"), sort_keys=True)


def _rating_row(guild_id: int, player: str, r: Rating) -> tuple[Any, ...]:
    return (guild_id, player, r.mu, r.sigma, r.ordinal, r.games)


class RatingsMixin(StoreBase):
    """Ratings: kept with each recorded result, rebuilt on demand, read per server."""

    async def _rate_recorded(
        self, conn: Conn, guild_id: int, game_id: int, seq: int, lineup: str | None
    ) -> None:
        """Rate the result just recorded (``seq`` on its server), inside its transaction —
        or rebuild the server's ratings if they were not up to ``seq - 1``."""
        state = await fetch_all(
            conn, "SELECT model, seq, games FROM rating_state WHERE guild_id = ?", (guild_id,)
        )
        model, last, games = state[0] if state else (MODEL.name, 0, 0)
        if model != MODEL.name or last != seq - 1:
            await self._rebuild_guild(conn, guild_id)
            return
        entries = entries_of(lineup)
        if entries is not None:
            players = sorted({e.player for e in entries})
            marks = ", ".join("?" for _ in players)
            rows = await fetch_all(
                conn,
                f"SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND player IN ({marks})",
                (guild_id, *players),
            )
            before = {p: MODEL.initial() for p in players}
            before.update({p: Rating(mu, sigma, n) for p, mu, sigma, n in rows})
            after = rate_game(before, entries, MODEL)
            await conn.executemany(_UPSERT, [_rating_row(guild_id, p, r) for p, r in after.items()])
            ((series_id, text),) = await fetch_all(
                conn,
                "SELECT g.series_id, (SELECT changes FROM series_ratings WHERE series_id = "
                "g.series_id) FROM games AS g WHERE g.id = ?",
                (game_id,),
            )
            changes = {} if text is None else json.loads(text)
            add_changes(changes, before, after)
            await conn.execute(
                "INSERT INTO series_ratings (series_id, guild_id, changes) VALUES (?, ?, ?) "
                "ON CONFLICT (series_id) DO UPDATE SET changes = excluded.changes",
                (series_id, guild_id, _changes_text(changes)),
            )
            games += 1
        await conn.execute(_STATE, (guild_id, MODEL.name, seq, games))

    async def _rebuild_guild(self, conn: Conn, guild_id: int) -> int:
        """Compute one server's ratings again from its results; the games rated."""
        rows = await fetch_all(
            conn,
            "SELECT r.seq, r.lineup, g.series_id FROM game_results AS r "
            "JOIN games AS g ON g.id = r.game_id WHERE r.guild_id = ? ORDER BY r.seq",
            (guild_id,),
        )
        ratings, series, rated = fold(rows)
        await conn.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
        await conn.execute("DELETE FROM series_ratings WHERE guild_id = ?", (guild_id,))
        await conn.executemany(
            "INSERT INTO ratings (guild_id, player, mu, sigma, ordinal, games) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [_rating_row(guild_id, p, r) for p, r in sorted(ratings.items())],
        )
        await conn.executemany(
            "INSERT INTO series_ratings (series_id, guild_id, changes) VALUES (?, ?, ?)",
            [(sid, guild_id, _changes_text(changes)) for sid, changes in sorted(series.items())],
        )
        last = rows[-1][0] if rows else 0
        await conn.execute(_STATE, (guild_id, MODEL.name, last, rated))
        return rated

    async def rebuild_ratings(self, guild_id: int | None = None) -> RebuildReport:
        """Compute the ratings of one server (None: every server with results) again from
        the game results, in one transaction."""
        async with self._shared_rows, self._transaction() as conn:
            if guild_id is None:
                found = await fetch_all(
                    conn,
                    "SELECT guild_id FROM game_results UNION SELECT guild_id FROM rating_state "
                    "ORDER BY guild_id",
                )
                guilds = [int(row[0]) for row in found]
            else:
                guilds = [guild_id]
            results = rated = 0
            for guild in guilds:
                rated += await self._rebuild_guild(conn, guild)
                (count,) = (
                    await fetch_all(
                        conn, "SELECT count(*) FROM game_results WHERE guild_id = ?", (guild,)
                    )
                )[0]
                results += int(count)
        return RebuildReport(guilds=len(guilds), results=results, rated=rated)

    async def _ensure_ratings(self, guild_id: int) -> None:
        """Rebuild the server's ratings if they lag behind its results or another model
        computed them (a database from before ratings, a copy)."""
        query = (
            "SELECT (SELECT model FROM rating_state WHERE guild_id = ?), "
            "(SELECT seq FROM rating_state WHERE guild_id = ?), "
            "(SELECT max(seq) FROM game_results WHERE guild_id = ?)"
        )
        (model, seq, latest) = (await self._fetch(query, (guild_id,) * 3))[0]
        if latest is None or (model == MODEL.name and seq == latest):
            return
        async with self._shared_rows, self._transaction() as conn:
            (model, seq, latest) = (await fetch_all(conn, query, (guild_id,) * 3))[0]
            if latest is not None and (model != MODEL.name or seq != latest):
                await self._rebuild_guild(conn, guild_id)

    async def player_rating(self, guild_id: int, player: str) -> PlayerRating | None:
        """A player's rating on the server (:func:`user_player` or :func:`ai_player`) with
        their rank, None if they have none yet."""
        _check_guild(guild_id)
        await self._ensure_ratings(guild_id)
        rows = await self._fetch(
            "SELECT r.player, r.mu, r.sigma, r.games, "
            "(SELECT count(*) FROM ratings AS o WHERE o.guild_id = r.guild_id AND "
            "(o.ordinal > r.ordinal OR (o.ordinal = r.ordinal AND (o.games > r.games OR "
            "(o.games = r.games AND o.player < r.player))))) + 1, "
            "(SELECT count(*) FROM ratings AS a WHERE a.guild_id = r.guild_id) "
            "FROM ratings AS r WHERE r.guild_id = ? AND r.player = ?",
            (guild_id, player),
        )
        if not rows:
            return None
        key, mu, sigma, games, rank, players = rows[0]
        return PlayerRating(guild_id, key, Rating(mu, sigma, games), int(rank), int(players))

    async def rating_board(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[PlayerRating]:
        """The server's players (people and AI levels) by their conservative rating."""
        _check_guild(guild_id)
        if type(limit) is not int or type(offset) is not int or limit < 1 or offset < 0:
            raise InvalidInputError(
                f"rating_board needs limit ≥ 1 and offset ≥ 0, not {limit!r}, {offset!r}"
            )
        await self._ensure_ratings(guild_id)
        rows = await self._fetch(
            "SELECT player, mu, sigma, games, (SELECT count(*) FROM ratings WHERE guild_id = ?) "
            f"FROM ratings WHERE guild_id = ? ORDER BY {_ORDER} LIMIT ? OFFSET ?",
            (guild_id, guild_id, limit, offset),
        )
        return [
            PlayerRating(guild_id, key, Rating(mu, sigma, games), offset + i + 1, int(players))
            for i, (key, mu, sigma, games, players) in enumerate(rows)
        ]

    async def rating_guilds(self) -> list[int]:
        """The servers with recorded results, in id order."""
        rows = await self._fetch("SELECT DISTINCT guild_id FROM game_results ORDER BY guild_id")
        return [int(row[0]) for row in rows]

    async def rated_lineups(self, guild_id: int) -> list[list[Entry]]:
        """The lineups the server's ratings are computed from, in order (games that cannot
        be rated left out): to check the ratings against another computation."""
        rows = await self._fetch(
            "SELECT lineup FROM game_results WHERE guild_id = ? ORDER BY seq", (guild_id,)
        )
        return [e for e in (entries_of(row[0]) for row in rows) if e is not None]

    async def series_rating_changes(self, series_id: int) -> dict[str, RatingChange]:
        """What the series' games did to each of its players' ratings: the sum of each
        game's change of the conservative figure, and the figure after the player's last
        game of the series."""
        guild = await self._fetch(
            "SELECT t.guild_id FROM series AS s JOIN tables AS t ON t.id = s.table_id "
            "WHERE s.id = ?",
            (series_id,),
        )
        if not guild:
            return {}
        await self._ensure_ratings(int(guild[0][0]))
        rows = await self._fetch(
            "SELECT changes FROM series_ratings WHERE series_id = ?", (series_id,)
        )
        if not rows:
            return {}
        return {
            player: RatingChange(player, change, after, games)
            for player, (change, after, games) in json.loads(rows[0][0]).items()
        }


def fold(
    rows: Sequence[Sequence[Any]],
) -> tuple[dict[str, Rating], dict[int, dict[str, list[Any]]], int]:
    """A server's ratings from its results ``(seq, lineup, series_id)`` in order: each
    player's rating, each series' changes (:func:`add_changes`), the games rated. The
    cyclic garbage collector waits meanwhile: the loop makes ten objects a game and frees
    them, and a collection would walk the whole result set again and again (a third of the
    time of 100,000 games)."""
    ratings: dict[str, Rating] = {}
    series: dict[int, dict[str, list[Any]]] = {}
    initial = MODEL.initial()
    rated = 0
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _, lineup, series_id in rows:
            entries = entries_of(lineup)
            if entries is None:
                continue
            before = {e.player: ratings.get(e.player, initial) for e in entries}
            after = rate_game(before, entries, MODEL)
            add_changes(series.setdefault(series_id, {}), before, after)
            ratings.update(after)
            rated += 1
    finally:
        if collecting:
            gc.enable()
    return ratings, series, rated


def _check_guild(guild_id: int) -> None:
    if type(guild_id) is not int:
        raise InvalidInputError(f"a server id is an integer, not {guild_id!r}")
