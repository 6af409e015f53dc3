"""Restoring the tables that were open when the bot stopped.

A table's state is a pure function of its log; :meth:`LoadingMixin.load_active_tables`
returns the logs, in a handful of bulk queries. A table whose rows cannot be decoded is set
aside as broken (with the reason) and the others load normally.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from .base import StoreBase, fetch_all
from .claims import Shards
from .errors import CorruptRowError
from .models import ActiveTable, BrokenTable, GameLog, LoadReport, Resume
from .rows import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    SERIES_COLUMNS,
    TABLE_COLUMNS,
    actions_from_rows,
    game_from_row,
    qualified,
    seat_from_row,
    series_from_row,
    table_from_row,
)

_ACTIVE = "t.status IN ('lobby', 'playing')"
#: The snapshots to resume from (given ``cur``, the current series, and the engine): the
#: engine's own, taken in the series' latest deal, no further than that deal's log.
_USABLE_SNAPSHOTS = (
    "SELECT sn.series_id, sn.game_id, sn.idx, sn.state FROM snapshots AS sn "
    "JOIN cur ON cur.id = sn.series_id WHERE sn.engine = ? AND sn.game_id = "
    "(SELECT id FROM games WHERE series_id = sn.series_id ORDER BY number DESC, deal DESC LIMIT 1) "
    "AND sn.idx <= (SELECT COALESCE(max(idx) + 1, 0) FROM actions WHERE game_id = sn.game_id)"
)


def _current_series(where: str) -> str:
    """The latest series of each table chosen by ``where`` (on ``t``)."""
    return (
        f"SELECT {qualified(SERIES_COLUMNS, 's')} FROM series AS s JOIN tables AS t "
        f"ON t.id = s.table_id WHERE {where} "
        "AND s.number = (SELECT max(number) FROM series WHERE table_id = s.table_id)"
    )


def game_logs(
    game_rows: Iterable[Sequence[Any]], actions: dict[int, list[Any]]
) -> tuple[GameLog, ...]:
    """Decode deals (rows of GAME_COLUMNS, in order) with their ``(idx, action)`` rows."""
    logs = []
    for row in game_rows:
        game = game_from_row(row)
        logs.append(GameLog(game, actions_from_rows(game.id, actions.get(game.id, ()))))
    return tuple(logs)


def _assemble(
    table_row: Sequence[Any],
    seat_rows: Sequence[Sequence[Any]],
    series_row: Sequence[Any] | None,
    game_rows: Sequence[Sequence[Any]],
    actions: dict[int, list[Any]],
    snap: Sequence[Any] | None,
) -> ActiveTable:
    table = table_from_row(table_row)
    seats = tuple(seat_from_row(row) for row in seat_rows)
    if [s.seat for s in seats] != list(range(6)):
        missing = sorted(set(range(6)) - {s.seat for s in seats})
        raise CorruptRowError(f"seats {missing} are missing")
    series = None if series_row is None else series_from_row(series_row)
    if snap is None:
        return ActiveTable(table, seats, series, game_logs(game_rows, actions))
    _, game_id, idx, state = snap
    tail = actions_from_rows(game_id, actions.get(game_id, ()), start=idx)
    # damaged bytes are the snapshot's problem: restore_series replays the log instead
    resume = Resume(game_id, idx, state if isinstance(state, bytes) else b"", tail)
    return ActiveTable(table, seats, series, game_logs(game_rows, {}), resume)


class LoadingMixin(StoreBase):
    """Loading open tables at start-up."""

    async def load_active_tables(
        self,
        *,
        shards: Shards | None = None,
        owner: str | None = None,
        engine: str | None = None,
        tables: Iterable[int] | None = None,
    ) -> LoadReport:
        """Every lobby or playing table with its seats, its latest series (whatever its
        status) and every deal of that series with its actions in order — only those of
        servers on ``shards``, only those ``owner`` has claimed and only ``tables`` (ids),
        if given. Tables that cannot be decoded are marked broken and listed in ``broken``.

        With ``engine`` (:data:`data.snapshots.ENGINE`): a table whose series has a
        snapshot written by that engine in its latest deal, no further than its log, comes
        with it (``ActiveTable.resume``) and only the entries logged after it — rebuild it
        with :meth:`~data.snapshots.SnapshotsMixin.restore_series`."""
        where = _ACTIVE
        params: tuple[object, ...] = ()
        if shards is not None:
            condition, values = shards.sql("t.guild_id")
            where, params = f"{where} AND {condition}", values
        if owner is not None:
            where, params = f"{where} AND t.owner = ?", (*params, owner)
        if tables is not None:
            ids = sorted(set(tables))
            if not ids:
                return LoadReport()
            marks = ", ".join("?" for _ in ids)
            where, params = f"{where} AND t.id IN ({marks})", (*params, *ids)
        current = _current_series(where)
        async with self._transaction() as conn:
            table_rows = await fetch_all(
                conn,
                f"SELECT {qualified(TABLE_COLUMNS, 't')} FROM tables AS t WHERE {where} ORDER BY t.id",
                params,
            )
            seats = await fetch_all(
                conn,
                f"SELECT {qualified(SEAT_COLUMNS, 'st')} FROM seats AS st JOIN tables AS t "
                f"ON t.id = st.table_id WHERE {where} ORDER BY st.table_id, st.seat",
                params,
            )
            series = await fetch_all(conn, current, params)
            games = await fetch_all(
                conn,
                f"WITH cur AS ({current}) SELECT {qualified(GAME_COLUMNS, 'g')} FROM games AS g "
                "JOIN cur ON cur.id = g.series_id ORDER BY g.series_id, g.number, g.deal",
                params,
            )
            snaps: list[Any] = []
            if engine is None:
                action_rows = await fetch_all(
                    conn,
                    f"WITH cur AS ({current}) SELECT a.game_id, a.idx, a.action FROM actions AS a "
                    "JOIN games AS g ON g.id = a.game_id JOIN cur ON cur.id = g.series_id "
                    "ORDER BY a.game_id, a.idx",
                    params,
                )
            else:
                usable = f"WITH cur AS ({current}), snap AS ({_USABLE_SNAPSHOTS})"
                snaps = await fetch_all(conn, f"{usable} SELECT * FROM snap", (*params, engine))
                # the entries after each snapshot (a range of the log's key), and the whole
                # logs of the series that have none
                action_rows = await fetch_all(
                    conn,
                    f"{usable} SELECT a.game_id, a.idx, a.action FROM actions AS a "
                    "JOIN snap ON a.game_id = snap.game_id AND a.idx >= snap.idx "
                    "UNION ALL SELECT a.game_id, a.idx, a.action FROM actions AS a "
                    "JOIN games AS g ON g.id = a.game_id JOIN cur ON cur.id = g.series_id "
                    "WHERE NOT EXISTS (SELECT 1 FROM snap WHERE snap.series_id = g.series_id) "
                    "ORDER BY 1, 2",
                    (*params, engine),
                )
            report = self._decode(table_rows, seats, series, games, action_rows, snaps)
            now = self._now()
            await conn.executemany(
                "UPDATE tables SET status = 'broken', broken_reason = ?, updated_at = ? WHERE id = ?",
                [(b.reason, now, b.table_id) for b in report.broken],
            )
        return report

    @staticmethod
    def _decode(
        tables: list[Any],
        seats: list[Any],
        series: list[Any],
        games: list[Any],
        action_rows: list[Any],
        snaps: list[Any],
    ) -> LoadReport:
        seats_of: dict[int, list[Any]] = defaultdict(list)
        for row in seats:
            seats_of[row[0]].append(row)
        series_of = {row[1]: row for row in series}
        games_of: dict[int, list[Any]] = defaultdict(list)
        for row in games:
            games_of[row[1]].append(row)
        actions: dict[int, list[Any]] = defaultdict(list)
        for game_id, idx, text in action_rows:
            actions[game_id].append((idx, text))
        snap_of = {row[0]: row for row in snaps}
        report = LoadReport()
        for row in tables:
            table_id = row[0]
            series_row = series_of.get(table_id)
            game_rows = games_of.get(series_row[0], []) if series_row is not None else []
            snap = snap_of.get(series_row[0]) if series_row is not None else None
            try:
                active = _assemble(row, seats_of[table_id], series_row, game_rows, actions, snap)
                report.tables.append(active)
            except CorruptRowError as exc:
                reason = f"table {table_id} cannot be restored: {exc}"
                report.broken.append(BrokenTable(table_id, row[1], row[2], row[7], reason))
        return report
