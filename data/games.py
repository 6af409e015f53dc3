"""Series, deals and their append-only action logs.

An acknowledged action is committed (and, with synchronous=FULL, fsynced) before
:meth:`GamesMixin.append_action` returns, so it survives a crash or a power cut.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .actions import check_action, check_hands
from .backend import Conn, Database, Row
from .base import LOCK_GAME, OF_GAME, OF_SERIES, TABLE, StoreBase, fetch_all
from .errors import (
    ActionConflictError,
    ConstraintError,
    InvalidInputError,
    NotFoundError,
    StoreError,
    claim_lost,
)
from .models import FinishedGame, Game, Series
from .rows import (
    GAME_COLUMNS,
    SERIES_COLUMNS,
    actions_from_rows,
    encode_json,
    encode_object,
    game_from_row,
    series_from_row,
)

# One statement appends at the next index, only to a deal still being played and, when the
# caller names the index it expects, only there. Autocommit: committed when it returns.
# (The CASTs tell PostgreSQL the parameters' types; SQLite takes them as they are.)
_APPEND = """
INSERT INTO actions (game_id, idx, action, created_at)
SELECT g.id, COALESCE((SELECT max(idx) + 1 FROM actions WHERE game_id = g.id), 0),
       CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION)
FROM games AS g
WHERE g.id = ? AND g.status = 'playing'
  AND (CAST(? AS INTEGER) IS NULL
       OR CAST(? AS INTEGER) = COALESCE((SELECT max(idx) + 1 FROM actions WHERE game_id = g.id), 0))
  AND (CAST(? AS TEXT) IS NULL
       OR CAST(? AS TEXT) = (SELECT t.owner FROM series AS s JOIN tables AS t ON t.id = s.table_id
                             WHERE s.id = g.series_id))
RETURNING idx
"""
#: Tries of an append without an expected index that loses races to other connections.
_RACE_RETRIES = 50
# The status of a deal, the index its next action gets, and who holds its table.
_NEXT_INDEX = (
    "SELECT g.status, (SELECT COALESCE(max(idx) + 1, 0) FROM actions WHERE game_id = g.id), "
    "t.id, t.owner FROM games AS g JOIN series AS s ON s.id = g.series_id "
    "JOIN tables AS t ON t.id = s.table_id WHERE g.id = ?"
)


def _check_expected(expected_index: int | None) -> None:
    if expected_index is not None and (type(expected_index) is not int or expected_index < 0):
        raise InvalidInputError(
            f"expected_index must be an index ≥ 0 or None, not {expected_index!r}"
        )


class GamesMixin(StoreBase):
    """Series, deals and action logs."""

    async def start_series(self, table_id: int, options: dict[str, Any] | None = None) -> Series:
        """Start the table's next series (numbered 1, 2 …) with ``options`` (default: the
        table's) and set the table playing, in one transaction. Any series still playing at
        the table is abandoned first."""
        now = self._now()
        async with self._owned(TABLE, table_id, f"table {table_id}") as conn:
            rows = await fetch_all(conn, "SELECT id, options FROM tables WHERE id = ?", (table_id,))
            if not rows:
                raise NotFoundError(f"there is no table {table_id}")
            text = rows[0][1] if options is None else encode_object(options, "series options")
            await self._abandon_open_series(conn, "table_id = ?", table_id, now)
            rows = await fetch_all(
                conn,
                "INSERT INTO series (table_id, number, options, status, created_at, updated_at) "
                "VALUES (?, (SELECT COALESCE(max(number), 0) + 1 FROM series WHERE table_id = ?), "
                f"?, 'playing', ?, ?) RETURNING {SERIES_COLUMNS}",
                (table_id, table_id, text, now, now),
            )
            await conn.execute(
                "UPDATE tables SET status = 'playing', updated_at = ? WHERE id = ?", (now, table_id)
            )
        return series_from_row(rows[0])

    async def finish_series(self, series_id: int, totals: Sequence[int]) -> None:
        """Close a series that was played out, with its six seat totals."""
        if isinstance(totals, str) or len(totals) != 6 or not all(type(t) is int for t in totals):
            raise InvalidInputError(f"series totals must be six integers, not {totals!r}")
        async with self._owned(OF_SERIES, series_id, f"series {series_id}") as conn:
            count = await conn.execute(
                "UPDATE series SET status = 'finished', totals = ?, updated_at = ? "
                "WHERE id = ? AND status = 'playing'",
                (encode_json(list(totals), "totals"), self._now(), series_id),
            )
        if not count:
            series = await self.get_series(series_id)
            raise InvalidInputError(f"series {series_id} is already {series.status}")

    async def end_table(self, table_id: int) -> None:
        """End a table: its series still playing (and the deal being played) abandoned and
        the table ended, in one transaction (a crash leaves it open and playing, or ended)."""
        now = self._now()
        async with self._owned(TABLE, table_id, f"table {table_id}") as conn:
            await self._abandon_open_series(conn, "table_id = ?", table_id, now)
            await conn.execute(
                "UPDATE tables SET status = 'ended', broken_reason = NULL, updated_at = ? "
                "WHERE id = ?",
                (now, table_id),
            )

    async def abandon_series(self, series_id: int) -> None:
        """Close a series that stopped early (the table ended); a deal still being played is
        abandoned with it. Its finished games keep counting."""
        async with self._owned(OF_SERIES, series_id, f"series {series_id}") as conn:
            if not await self._abandon_open_series(conn, "id = ?", series_id, self._now()):
                series = series_from_row(await self._series_row(conn, series_id))
                raise InvalidInputError(f"series {series_id} is already {series.status}")

    async def _abandon_open_series(self, conn: Conn, where: str, key: int, now: float) -> int:
        # ``where`` is fixed text from this module. Returns the number of series abandoned.
        await conn.execute(
            "UPDATE games SET status = 'abandoned', updated_at = ? WHERE status = 'playing' AND "
            f"series_id IN (SELECT id FROM series WHERE status = 'playing' AND {where})",
            (now, key),
        )
        return await conn.execute(
            f"UPDATE series SET status = 'abandoned', updated_at = ? WHERE status = 'playing' AND {where}",
            (now, key),
        )

    async def get_series(self, series_id: int) -> Series:
        """The series, or :class:`NotFoundError`."""
        async with self._locked() as conn:
            return series_from_row(await self._series_row(conn, series_id))

    async def _series_row(self, conn: Conn, series_id: int) -> Row:
        rows = await fetch_all(
            conn, f"SELECT {SERIES_COLUMNS} FROM series WHERE id = ?", (series_id,)
        )
        if not rows:
            raise NotFoundError(f"there is no series {series_id}")
        return rows[0]

    async def start_game(self, series_id: int, seed: int, hands: Sequence[str]) -> Game:
        """Record a new deal of the series: the next game number, or — after a void deal —
        the same number again with the next deal number. ``hands`` as dealt, with suits."""
        if type(seed) is not int:
            raise InvalidInputError(f"a game's seed must be an integer, not {seed!r}")
        hands_text = encode_json(list(check_hands(list(hands))), "hands")
        now = self._now()
        async with self._owned(OF_SERIES, series_id, f"series {series_id}") as conn:
            series = series_from_row(await self._series_row(conn, series_id))
            if series.status != "playing":
                raise InvalidInputError(
                    f"series {series_id} is {series.status}: start a new series"
                )
            rows = await fetch_all(
                conn,
                "SELECT id, number, deal, status FROM games WHERE series_id = ? "
                "ORDER BY number DESC, deal DESC LIMIT 1",
                (series_id,),
            )
            number, deal = 1, 1
            if rows:
                last_id, last_number, last_deal, last_status = rows[0]
                if last_status == "playing":
                    raise InvalidInputError(
                        f"game {last_id} of series {series_id} is still being played: "
                        "record its result or void it first"
                    )
                number, deal = (
                    (last_number, last_deal + 1) if last_status == "void" else (last_number + 1, 1)
                )
            rows = await fetch_all(
                conn,
                "INSERT INTO games (series_id, number, deal, seed, hands, status, created_at, "
                f"updated_at) VALUES (?, ?, ?, ?, ?, 'playing', ?, ?) RETURNING {GAME_COLUMNS}",
                (series_id, number, deal, seed, hands_text, now, now),
            )
        return game_from_row(rows[0])

    async def get_game(self, game_id: int) -> Game:
        """The deal, or :class:`NotFoundError`."""
        rows = await self._fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise NotFoundError(f"there is no game {game_id}")
        return game_from_row(rows[0])

    async def void_game(self, game_id: int) -> None:
        """Mark a deal void (two or more revolts, docs/rules.en.md §5); the next :meth:`start_game`
        redeals the same game number."""
        async with self._owned(OF_GAME, game_id, f"game {game_id}") as conn:
            count = await conn.execute(
                "UPDATE games SET status = 'void', updated_at = ? WHERE id = ? AND status = 'playing'",
                (self._now(), game_id),
            )
        if not count:
            game = await self.get_game(game_id)
            raise InvalidInputError(
                f"game {game_id} is {game.status}: only a deal being played can be voided"
            )

    async def append_action(
        self, game_id: int, action: str, expected_index: int | None = None
    ) -> int:
        """Append one action (``"SEAT VERB [CARDS]"``) to a deal's log, committed before
        returning its index. With ``expected_index``, raise :class:`ActionConflictError`
        unless it lands exactly there."""
        check_action(action)
        _check_expected(expected_index)
        now, owner = self._now(), self._owner  # one owner for the tries and the refusal
        params = (action, now, game_id, expected_index, expected_index, owner, owner)
        async with self._locked() as conn:
            for attempt in range(_RACE_RETRIES):
                try:
                    if attempt == 0:  # one statement, one round trip
                        rows = await conn.fetch(_APPEND, params)
                    else:
                        rows = await self._append_with_lock(conn, game_id, params)
                except ConstraintError:
                    # Another connection appended at the same index first (PostgreSQL; SQLite
                    # serialises writers). Nothing was written: "anywhere" tries again,
                    # holding the deal's row so that those who also retry queue behind.
                    rows = []
                    if expected_index is None:
                        continue
                if rows:
                    return int(rows[0][0])
                break
            raise await self._append_refused(conn, game_id, expected_index, owner)

    async def _append_with_lock(
        self, conn: Database, game_id: int, params: Sequence[Any]
    ) -> list[Row]:
        """:data:`_APPEND` in a transaction that first locks the deal's row."""
        async with conn.transaction():
            await conn.execute(LOCK_GAME, (game_id,))
            return await conn.fetch(_APPEND, params)

    async def append_actions(
        self, game_id: int, actions: Sequence[str], expected_index: int | None = None
    ) -> list[int]:
        """Append several actions in one transaction (all or none); returns their indexes."""
        if isinstance(actions, str):
            raise InvalidInputError(
                "append_actions takes a list of actions; use append_action for one"
            )
        for action in actions:
            check_action(action)
        _check_expected(expected_index)
        now, owner = self._now(), self._owner
        for _attempt in range(_RACE_RETRIES):
            try:
                async with self._transaction() as conn:
                    # the deal's row, locked: other batches on this log queue behind
                    await conn.execute(LOCK_GAME, (game_id,))
                    rows = await fetch_all(conn, _NEXT_INDEX, (game_id,))
                    if (
                        not rows
                        or rows[0][0] != "playing"
                        or expected_index not in (None, rows[0][1])
                        or owner not in (None, rows[0][3])
                    ):
                        raise await self._append_refused(conn, game_id, expected_index, owner)
                    start = rows[0][1]
                    await conn.executemany(
                        "INSERT INTO actions (game_id, idx, action, created_at) VALUES (?, ?, ?, ?)",
                        [(game_id, start + i, action, now) for i, action in enumerate(actions)],
                    )
                return list(range(start, start + len(actions)))
            except ConstraintError:  # a single append of another connection got there first
                if expected_index is not None:
                    async with self._locked() as conn:
                        raise await self._append_refused(
                            conn, game_id, expected_index, owner
                        ) from None
        raise StoreError(f"game {game_id}: appends kept colliding with another connection's")

    async def _append_refused(
        self, conn: Conn, game_id: int, expected_index: int | None, owner: str | None
    ) -> StoreError:
        """Why an append for ``owner`` (the store's owner when the append began: it may act
        for nobody by now, shutting down) did not happen (called with the lock held)."""
        rows = await fetch_all(conn, _NEXT_INDEX, (game_id,))
        if not rows:
            return NotFoundError(f"there is no game {game_id}")
        status, actual, table_id, holder = rows[0]
        if owner not in (None, holder):
            return claim_lost(table_id, holder, owner)
        if status != "playing":
            return InvalidInputError(f"game {game_id} is {status}: its log is closed")
        return ActionConflictError(
            f"game {game_id}: expected to append action {expected_index}, but the log already "
            f"holds {actual} actions — another writer got there first; reload the table",
            expected=expected_index if expected_index is not None else actual,
            actual=actual,
        )

    async def get_actions(self, game_id: int) -> list[str]:
        """A deal's action log, in order (checked: no gap, every action well formed)."""
        async with self._locked() as conn:
            exists = await conn.fetch("SELECT 1 FROM games WHERE id = ?", (game_id,))
            rows = await conn.fetch(
                "SELECT idx, action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
            )
        if not exists:
            raise NotFoundError(f"there is no game {game_id}")
        return list(actions_from_rows(game_id, rows))

    async def finished_games(
        self, guild_id: int, channel_id: int | None = None, limit: int = 25
    ) -> list[FinishedGame]:
        """The server's (or one channel's) finished deals, the latest first."""
        sql = (
            "SELECT g.id, g.series_id, g.number, t.id, t.guild_id, t.channel_id, g.updated_at "
            "FROM games AS g JOIN series AS s ON s.id = g.series_id "
            "JOIN tables AS t ON t.id = s.table_id "
            "WHERE g.status = 'finished' AND t.guild_id = ?"
        )
        params: list[Any] = [guild_id]
        if channel_id is not None:
            sql += " AND t.channel_id = ?"
            params.append(channel_id)
        rows = await self._fetch(
            sql + " ORDER BY g.updated_at DESC, g.id DESC LIMIT ?", (*params, limit)
        )
        return [_finished_game(row) for row in rows]

    async def finished_game(self, game_id: int) -> FinishedGame | None:
        """A finished deal by its id; None when there is none (or it is not finished)."""
        rows = await self._fetch(
            "SELECT g.id, g.series_id, g.number, t.id, t.guild_id, t.channel_id, g.updated_at "
            "FROM games AS g JOIN series AS s ON s.id = g.series_id "
            "JOIN tables AS t ON t.id = s.table_id WHERE g.id = ? AND g.status = 'finished'",
            (game_id,),
        )
        return _finished_game(rows[0]) if rows else None

    async def game_players(self, game_id: int) -> dict[int, int | None]:
        """The people a finished deal counted for: user id → the place it gave them (from
        the profile updates applied with its result; AI seats are not people)."""
        rows = await self._fetch("SELECT updates FROM game_results WHERE game_id = ?", (game_id,))
        if not rows:
            return {}
        return {int(u["user_id"]): u.get("place") for u in json.loads(rows[0][0])}


def _finished_game(row: Sequence[Any]) -> FinishedGame:
    """A FinishedGame from a row (ids, number, table, guild, channel, finished_at)."""
    game_id, series_id, number, table_id, guild_id, channel_id = (int(v) for v in row[:6])
    return FinishedGame(game_id, series_id, number, table_id, guild_id, channel_id, float(row[6]))
