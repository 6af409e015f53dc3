"""The PostgreSQL backend: asyncpg connections (up to four per store), ``synchronous_commit = on`` (a commit
returns once it is on the server's disk, so an acknowledged action survives a crash of the
bot or of the server).

The schema lives in the connection's current schema (``search_path``; a ``?search_path=x``
on the URL chooses another), its version in the one-row table ``gouji_schema_version``.
Migrations from ``migrations/postgresql/`` are applied at open, each in one transaction
under an advisory lock, so several processes starting at once upgrade it once.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

import asyncpg

from .backend import URL_ENV_VAR, Database, Row, redact, settled
from .errors import ConstraintError, StoreError
from .schema import MIGRATIONS_DIR, Migration, load_migrations

POSTGRES_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgresql"
VERSION_TABLE = "gouji_schema_version"
#: The advisory lock key that serialises schema upgrades ("gouji" in ASCII).
_UPGRADE_LOCK = 0x676F756A69
_SESSION = {"synchronous_commit": "on", "application_name": "gouji"}
_CONNECT_TIMEOUT = 15.0
_ROWCOUNT = re.compile(r"(\d+)$")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """The statement with ``?`` placeholders numbered ``$1``, ``$2`` … (outside quotes)."""
    out, count, quoted = [], 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            count += 1
            out.append(f"${count}")
        else:
            out.append(char)
    return "".join(out)


class PostgresDatabase(Database):
    """A schema on a PostgreSQL server. Open with :meth:`connect`."""

    kind = "postgresql"
    #: Each statement waits for its round trip (and each commit for the disk) on its own
    #: connection: with one, every table's statements queued behind each other's (at 500
    #: tables an action waited 0.3 s p50 for it); the server runs four at once.
    connections = 4

    def __init__(self, conn: asyncpg.Connection, url: str) -> None:
        self._conn = conn
        self._url = url
        self.where = redact(url)
        # a statement failed for another reason than a rule of the schema (the server went
        # away, the protocol broke off): the connection is replaced before the next one
        self._suspect = False

    @classmethod
    async def connect(cls, url: str, migrations: list[Migration] | None = None) -> PostgresDatabase:
        """Connect and upgrade the schema; :class:`StoreError` saying what to check if the
        server cannot be reached or the schema is not Gouji's."""
        db = cls(await cls._open(url), url)
        try:
            async with db.guard():
                await db.upgrade(migrations)
        except BaseException:
            await db.close()
            raise
        return db

    @staticmethod
    async def _open(url: str) -> asyncpg.Connection:
        try:
            return await asyncpg.connect(
                url, server_settings=dict(_SESSION), timeout=_CONNECT_TIMEOUT
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(
                f"cannot connect to {redact(url)}: {exc}; check {URL_ENV_VAR} (host, port, user, "
                "password, database) and that the server runs"
            ) from exc
        except ValueError as exc:  # a malformed URL
            raise StoreError(f"{URL_ENV_VAR} {redact(url)!r} is not a valid URL: {exc}") from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self.guard():
            return [tuple(row) for row in await self._conn.fetch(numbered(sql), *params)]

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.guard():
            status = await self._conn.execute(numbered(sql), *params)
        match = _ROWCOUNT.search(status)
        return int(match[1]) if match else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            async with self.guard():
                await self._conn.executemany(numbered(sql), rows)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN … COMMIT; ROLLBACK if the body raises (a cancelled task too: each of the
        three runs to its end, :func:`~data.backend.settled`)."""
        transaction = self._conn.transaction()
        try:
            await settled(transaction.start())
            yield
        except BaseException:
            if self._conn.is_in_transaction():
                await settled(transaction.rollback())
            raise
        await settled(transaction.commit())

    @asynccontextmanager
    async def guard(self) -> AsyncIterator[None]:
        try:
            yield
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintError(f"database {self.where} refused the change: {exc}") from exc
        except (
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            asyncpg.InternalClientError,
            OSError,
        ) as exc:
            if not isinstance(exc, asyncpg.PostgresError) or isinstance(
                exc, asyncpg.PostgresConnectionError | asyncpg.CannotConnectNowError
            ):
                self._suspect = True
            raise StoreError(f"database {self.where} failed: {exc}") from exc

    async def ready(self) -> None:
        """Reconnect if the connection was lost (the server restarted, the network broke)
        or a statement on it broke off (its protocol state is not to be trusted)."""
        if self._suspect or self._conn.is_closed():
            if not self._conn.is_closed():
                self._conn.terminate()
            self._conn = await self._open(self._url)
            self._suspect = False

    async def close(self) -> None:
        await self._conn.close()

    async def another(self) -> PostgresDatabase:
        return PostgresDatabase(await self._open(self._url), self._url)

    # --- schema -----------------------------------------------------------------------

    async def schema_version(self) -> int:
        if await self._conn.fetchval("SELECT to_regclass($1)", VERSION_TABLE) is None:
            return 0
        return int(await self._conn.fetchval(f"SELECT version FROM {VERSION_TABLE}"))

    async def upgrade(self, migrations: list[Migration] | None = None) -> tuple[int, int]:
        """Bring the schema to the last of ``migrations`` (default: the shipped ones);
        returns (version before, after). Each migration is one transaction: a failure
        leaves the schema at the version before it."""
        migrations = load_migrations(POSTGRES_MIGRATIONS_DIR) if migrations is None else migrations
        latest = len(migrations)
        before = None
        while True:
            async with self._conn.transaction():
                await self._conn.execute("SELECT pg_advisory_xact_lock($1)", _UPGRADE_LOCK)
                version = await self.schema_version()
                before = version if before is None else before
                if version > latest:
                    raise StoreError(
                        f"{self.where} has schema version {version}, newer than this bot knows "
                        f"({latest}): run a newer version of the bot, or use another database"
                    )
                if version == latest:
                    return before, version
                if version == 0:
                    await self._refuse_foreign_schema()
                    await self._conn.execute(
                        f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL); "
                        f"INSERT INTO {VERSION_TABLE} VALUES (0)"
                    )
                migration = migrations[version]
                try:
                    async with self._conn.transaction():  # a savepoint: name the failure
                        await self._conn.execute(migration.sql)
                except asyncpg.PostgresError as exc:
                    raise StoreError(
                        f"upgrading {self.where} to schema version {migration.version} "
                        f"({migration.name}) failed: {exc}; it stays at version {version}, as it was"
                    ) from exc
                await self._conn.execute(
                    f"UPDATE {VERSION_TABLE} SET version = $1", migration.version
                )

    async def _refuse_foreign_schema(self) -> None:
        if await self.table_names():
            raise StoreError(
                f"{self.where} holds tables of something else (no Gouji schema version) in "
                "its schema: use another database, or another schema with ?search_path=NAME"
            )

    async def table_names(self) -> list[str]:
        rows = await self._conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE' AND table_name <> $1 ORDER BY table_name",
            VERSION_TABLE,
        )
        return [row[0] for row in rows]

    async def column_names(self, table: str) -> list[str]:
        rows = await self._conn.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return [row[0] for row in rows]

    async def reset_sequences(self, tables: Iterable[str]) -> None:
        for table in tables:
            if "id" not in await self.column_names(table):
                continue
            sequence = await self._conn.fetchval("SELECT pg_get_serial_sequence($1, 'id')", table)
            if sequence is not None:
                await self._conn.execute(
                    f"SELECT setval($1, COALESCE((SELECT max(id) FROM {table}), 0) + 1, false)",
                    sequence,
                )

    async def settings(self) -> dict[str, Any]:
        """fsync, synchronous_commit, server_version_num, schema version."""
        result: dict[str, Any] = {}
        for name in ("fsync", "synchronous_commit", "server_version_num"):
            result[name] = await self._conn.fetchval(f"SHOW {name}")
        result["schema_version"] = await self.schema_version()
        return result
