"""The store's connections: opening a database (SQLite file or PostgreSQL server, see
:mod:`data.backend`), closing it, and the pool that gives each task a connection of its own
while it runs a statement or a transaction (one for SQLite, up to four for PostgreSQL,
opened as they are first needed), so that no transaction interleaves with another task's
statements."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any, Self

from .backend import Conn, Database, Row
from .connect import connect
from .errors import NotFoundError, StoreError, claim_lost

#: How a write names the table it changes (:meth:`StoreBase._owned`): by its id, by one of
#: its series, or by one of its deals.
TABLE = "?"
OF_SERIES = "(SELECT table_id FROM series WHERE id = ?)"
OF_GAME = (
    "(SELECT s.table_id FROM games AS g JOIN series AS s ON s.id = g.series_id WHERE g.id = ?)"
)
#: Locks a deal's row until the transaction ends (PostgreSQL; SQLite's BEGIN IMMEDIATE
#: already keeps other writers out): another connection's transaction on it waits.
LOCK_GAME = "UPDATE games SET updated_at = updated_at WHERE id = ?"


class StoreBase:
    """Connections, clock and pool. Use :meth:`open`, never the constructor."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db  # the first connection (the schema was upgraded on it)
        self._idle: asyncio.Queue[Database] = asyncio.Queue()  # connections no task holds
        self._idle.put_nowait(db)
        self._opened = 1  # connections in all, up to ``db.connections``
        # writes of rows many tables share, one at a time: the claims' (many tables' rows:
        # two on two connections could lock them in different orders) and a game result's
        # (its server's profiles and ratings, read and written again)
        self._shared_rows = asyncio.Lock()
        self._clock = clock
        self._closed = False
        #: Whom the store acts for (:meth:`~data.claims.ClaimsMixin.act_as`): None, nobody.
        self._owner: str | None = None
        self._lease = 60.0
        #: The SQLite file, or the PostgreSQL URL without its password.
        self.path = db.where
        #: ``"sqlite"`` or ``"postgresql"``.
        self.backend = db.kind

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str] | None = None,
        *,
        clock: Callable[[], float] = time.time,
        create: bool = True,
        busy_timeout: float = 5.0,
    ) -> Self:
        """Open (or create) the database and upgrade its schema. ``target``: a SQLite path,
        a ``sqlite:///PATH`` or ``postgresql://…`` URL, or None for ``$GOUJI_DATABASE_URL``,
        else ``$GOUJI_DB``, else ``gouji.db``. Raises :class:`StoreError` if it is not a
        Gouji database or cannot be reached — or, with ``create=False``, if the SQLite file
        does not exist. ``busy_timeout``: seconds SQLite waits for another process's write
        lock before a statement fails."""
        return cls(await connect(target, create=create, busy_timeout=busy_timeout), clock)

    async def close(self) -> None:
        """Close the database (waits for the running transactions to finish). Idempotent."""
        held: list[Database] = []
        while len(held) < self._opened:  # (one being opened meanwhile may fail: look again)
            with contextlib.suppress(TimeoutError):
                held.append(await asyncio.wait_for(self._idle.get(), 1.0))
        try:
            if not self._closed:
                self._closed = True
                for db in held:
                    await db.close()
        finally:
            for db in held:  # tasks waiting for a connection find the store closed
                self._idle.put_nowait(db)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def pragmas(self) -> dict[str, Any]:
        """The durability settings in effect. SQLite: journal_mode, synchronous (2 = FULL),
        foreign_keys, user_version. PostgreSQL: fsync, synchronous_commit,
        server_version_num, schema_version."""
        async with self._locked() as db:
            return await db.settings()

    async def schema_version(self) -> int:
        """The schema version of the database (:data:`~data.LATEST_VERSION` once open)."""
        async with self._locked() as db:
            return await db.schema_version()

    # --- helpers for the mixins -------------------------------------------------------

    def _now(self) -> float:
        return float(self._clock())

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[Database]:
        """The connection, for this task alone. Failures other than a broken rule of the
        schema (:class:`~data.errors.ConstraintError`) become :class:`StoreError` naming
        the database."""
        db = await self._connection()
        try:
            if self._closed:
                raise StoreError(f"the store {self.path} is closed: open it again")
            await db.ready()
            async with db.guard():
                yield db
        finally:
            self._idle.put_nowait(db)

    async def _connection(self) -> Database:
        """An idle connection; a new one while all are held and fewer than the backend's
        :attr:`~data.backend.Database.connections` are open; else the first to come back."""
        if self._idle.empty() and self._opened < self._db.connections and not self._closed:
            self._opened += 1
            try:
                return await self._db.another()
            except BaseException:
                self._opened -= 1
                raise
        return await self._idle.get()

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Run one statement (autocommit) and return all its rows."""
        async with self._locked() as conn:
            return await conn.fetch(sql, tuple(params))

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one write statement (autocommit); returns the number of rows changed."""
        async with self._locked() as conn:
            return await conn.execute(sql, tuple(params))

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Conn]:
        """A transaction under the lock (SQLite: BEGIN IMMEDIATE), committed — durably —
        when the body returns; rolled back if it raises."""
        async with self._locked() as db, db.transaction():
            yield db

    @asynccontextmanager
    async def _owned(self, table: str, key: Any, what: str) -> AsyncIterator[Conn]:
        """A transaction that changes the table ``table`` names (:data:`TABLE`,
        :data:`OF_SERIES` or :data:`OF_GAME`, with ``key``; ``what`` names it in errors). A
        store acting for an owner first locks the table's row, held by that owner — else
        :class:`~data.errors.ClaimLostError` (or :class:`NotFoundError`), nothing written —
        so that no claim changes hands before the transaction ends."""
        async with self._transaction() as conn:
            await fence(conn, self._owner, table, key, what)
            yield conn


async def fence(conn: Conn, owner: str | None, table: str, key: Any, what: str) -> None:
    """Inside a transaction: lock the row of the table ``table`` names (see
    :meth:`StoreBase._owned`) if ``owner`` holds it, else raise. ``owner`` None: no check."""
    if owner is None:
        return
    if await conn.execute(
        f"UPDATE tables SET owner = owner WHERE id = {table} AND owner = ?", (key, owner)
    ):
        return
    raise await not_owned(conn, owner, table, key, what)


async def not_owned(conn: Conn, owner: str | None, table: str, key: Any, what: str) -> StoreError:
    """Why a write for ``owner`` found no row of the table ``table`` names: there is none
    (:class:`NotFoundError`), or another owner holds it (:class:`ClaimLostError`)."""
    rows = await conn.fetch(f"SELECT id, owner FROM tables WHERE id = {table}", (key,))
    if not rows or owner is None:
        return NotFoundError(f"there is no {what}")
    return claim_lost(rows[0][0], rows[0][1], owner)


async def fetch_all(conn: Conn, sql: str, params: Iterable[Any] = ()) -> list[Row]:
    """All rows of one statement, inside a transaction already held."""
    return await conn.fetch(sql, tuple(params))
