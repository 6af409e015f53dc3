"""The store's connection: opening a file (settings, schema upgrade), closing it, and the
lock that keeps one task's transaction from interleaving with another task's statements."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from .errors import StoreError
from .schema import upgrade

DEFAULT_PATH = "gouji.db"
ENV_VAR = "GOUJI_DB"

#: Per-connection settings. WAL with synchronous=FULL: every commit is fsynced to the WAL
#: before it returns, so an acknowledged action survives a power cut, not only a crash.
_PRAGMAS = (
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)


def default_path() -> Path:
    """The database file: ``$GOUJI_DB`` if set, else ``gouji.db`` in the working directory."""
    return Path(os.environ.get(ENV_VAR) or DEFAULT_PATH)


class StoreBase:
    """Connection, clock and lock. Use :meth:`open`, never the constructor."""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Callable[[], float]) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._clock = clock
        self._closed = False
        self.path = path

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, clock: Callable[[], float] = time.time
    ) -> Self:
        """Open (or create) the database at ``path`` (default: :func:`default_path`) and
        upgrade its schema. Raises :class:`StoreError` if the file is not a Gouji database."""
        name = str(default_path() if path is None else path)
        if name != ":memory:" and Path(name).is_dir():
            raise StoreError(f"{name} is a directory: give the path of a database file")
        try:
            conn = await aiosqlite.connect(name, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot open database {name}: {exc}; check the path and its permissions"
            ) from exc
        try:
            rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            mode = rows[0][0]
            if mode != "wal" and name != ":memory:":
                raise StoreError(f"{name}: SQLite refused WAL mode (it stays in {mode!r})")
            for pragma in _PRAGMAS:
                await conn.execute(pragma)
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
        return cls(conn, name, clock)

    async def close(self) -> None:
        """Close the database (waits for a running transaction to finish). Idempotent."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def pragmas(self) -> dict[str, Any]:
        """The settings in effect: journal_mode, synchronous (2 = FULL), foreign_keys,
        user_version."""
        result = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "user_version"):
            rows = await self._fetch(f"PRAGMA {name}")
            result[name] = rows[0][0]
        return result

    # --- helpers for the mixins -------------------------------------------------------

    def _now(self) -> float:
        return float(self._clock())

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, for this task alone. SQLite failures other than constraint
        violations (locked, disk full, I/O error, damaged file) become :class:`StoreError`
        naming the file."""
        async with self._lock:
            if self._closed:
                raise StoreError(f"the store {self.path} is closed: open it again")
            try:
                yield self._conn
            except sqlite3.IntegrityError:
                raise
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"database {self.path} failed: {exc}") from exc

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run one statement (autocommit) and return all its rows."""
        async with self._locked():
            return list(await self._conn.execute_fetchall(sql, params))

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one write statement (autocommit); returns the number of rows changed."""
        async with self._locked():
            cursor = await self._conn.execute(sql, params)
            count = cursor.rowcount
            await cursor.close()
            return count

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE … COMMIT under the lock; ROLLBACK if the body raises."""
        async with self._locked():
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                if self._conn.in_transaction:  # SQLite may have rolled back already
                    await self._conn.execute("ROLLBACK")
                raise
            try:
                await self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    await self._conn.execute("ROLLBACK")
                raise


async def fetch_all(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> list[Any]:
    """All rows of one statement, inside a transaction already held."""
    return list(await conn.execute_fetchall(sql, tuple(params)))
