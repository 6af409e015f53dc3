"""The SQLite backend: one file through aiosqlite, in WAL mode with synchronous=FULL (every
commit is fsynced to the WAL before it returns, so an acknowledged action survives a power
cut, not only a crash)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .backend import ENV_VAR, Database, Row, settled
from .errors import ConstraintError, StoreError
from .schema import upgrade

#: Per-connection settings (WAL is a property of the file, set first).
_PRAGMAS = (
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
)
#: Seconds a statement waits for another process's write lock before it fails ("database
#: is locked"); the bot then waits the outage out (bot/service/recovery.py).
BUSY_TIMEOUT = 5.0


class SqliteDatabase(Database):
    """One SQLite file. Open with :meth:`connect`."""

    kind = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.where = path

    @classmethod
    async def connect(cls, name: str, *, busy_timeout: float = BUSY_TIMEOUT) -> SqliteDatabase:
        """Open (or create) the file and upgrade its schema; :class:`StoreError` if it is
        not a Gouji database. ``busy_timeout``: seconds to wait for another writer."""
        if name != ":memory:" and Path(name).is_dir():
            raise StoreError(f"{name} is a directory: give the path of a database file")
        if name != ":memory:" and not Path(name).parent.is_dir():
            raise StoreError(
                f"cannot open database {name}: its directory does not exist; check the path"
            )
        try:
            conn = await aiosqlite.connect(name, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot open database {name}: {exc}; check the path and its permissions"
            ) from exc
        try:
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            mode = rows[0][0]
            if mode != "wal" and name != ":memory:":
                raise StoreError(f"{name}: SQLite refused WAL mode (it stays in {mode!r})")
            for pragma in _PRAGMAS:
                await conn.execute(pragma)
            await conn.execute(f"PRAGMA busy_timeout = {max(0, round(busy_timeout * 1000))}")
            await upgrade(conn, name)
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StoreError(
                f"{name} is not a Gouji database (SQLite says: {exc}). Move the file aside or "
                f"set {ENV_VAR} to another path; a missing file is created afresh."
            ) from exc
        except BaseException:
            await conn.close()
            raise
        return cls(conn, name)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self.guard():
            return [tuple(row) for row in await self._conn.execute_fetchall(sql, tuple(params))]

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.guard():
            cursor = await self._conn.execute(sql, tuple(params))
            count = cursor.rowcount
            await cursor.close()
            return count

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self.guard():
            await self._conn.executemany(sql, [tuple(row) for row in rows])

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE … COMMIT; ROLLBACK if the body raises (a cancelled task too: each
        of the three runs to its end, :func:`~data.backend.settled`)."""
        try:
            await settled(self._conn.execute("BEGIN IMMEDIATE"))
            yield
        except BaseException:
            if self._conn.in_transaction:  # SQLite may have rolled back already
                await settled(self._conn.execute("ROLLBACK"))
            raise
        try:
            await settled(self._conn.execute("COMMIT"))
        except BaseException:
            if self._conn.in_transaction:
                await settled(self._conn.execute("ROLLBACK"))
            raise

    @asynccontextmanager
    async def guard(self) -> AsyncIterator[None]:
        try:
            yield
        except sqlite3.IntegrityError as exc:
            raise ConstraintError(f"database {self.where} refused the change: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"database {self.where} failed: {exc}") from exc

    async def ready(self) -> None:
        """A file connection does not drop."""

    async def close(self) -> None:
        await self._conn.close()

    async def schema_version(self) -> int:
        return int((await self.fetch("PRAGMA user_version"))[0][0])

    async def table_names(self) -> list[str]:
        rows = await self.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
        return [row[0] for row in rows]

    async def column_names(self, table: str) -> list[str]:
        return [row[1] for row in await self.fetch(f"PRAGMA table_info({table})")]

    async def reset_sequences(self, tables: Iterable[str]) -> None:
        """Nothing to do: an ``INTEGER PRIMARY KEY`` continues after the highest id."""

    async def settings(self) -> dict[str, Any]:
        """journal_mode, synchronous (2 = FULL), foreign_keys, user_version."""
        result = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "user_version"):
            result[name] = (await self.fetch(f"PRAGMA {name}"))[0][0]
        return result
