"""The two database backends behind one interface, and the URL that chooses between them.

``sqlite:///gouji.db`` (a relative path; ``sqlite:////var/lib/gouji/gouji.db`` absolute) or a
bare path: one SQLite file through aiosqlite. ``postgresql://user:password@host/db``: a
PostgreSQL server through asyncpg.

Opening one: :func:`data.connect.connect`. The store's SQL is written once, portable: ``?`` placeholders (the PostgreSQL backend turns
them into ``$1``, ``$2`` …), ``RETURNING``, ``ON CONFLICT``, ``CAST`` where PostgreSQL
cannot guess a parameter's type. Only the schema (``migrations/`` for SQLite,
``migrations/postgresql/`` for PostgreSQL) and the introspection differ per dialect.
"""

from __future__ import annotations

import asyncio
import os
import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, TypeVar

DEFAULT_PATH = "gouji.db"
ENV_VAR = "GOUJI_DB"
URL_ENV_VAR = "GOUJI_DATABASE_URL"

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")

#: A row as the store reads it: a tuple of column values.
Row = tuple[Any, ...]
T = TypeVar("T")


async def settled(step: Awaitable[T]) -> T:
    """Await ``step`` to its end even if the awaiting task is cancelled meanwhile, then
    raise the cancellation. For a transaction's BEGIN, COMMIT and ROLLBACK: the driver runs
    a statement it was given whether or not its caller still waits, so a cancelled BEGIN
    would leave the connection inside a transaction nobody ends — every later statement,
    other tasks' too, would run in it and be lost when the connection closes.

    >>> asyncio.run(settled(asyncio.sleep(0, "done")))
    'done'
    """
    task = asyncio.ensure_future(step)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                raise
            cancelled = True
            if not task.done():
                continue
            result = task.result()
        if cancelled:
            raise asyncio.CancelledError
        return result


def default_path() -> Path:
    """The database file: ``$GOUJI_DB`` if set, else ``gouji.db`` in the working directory."""
    return Path(os.environ.get(ENV_VAR) or DEFAULT_PATH)


def database_url(env: Mapping[str, str] | None = None) -> str:
    """The database the bot uses: ``$GOUJI_DATABASE_URL``, else ``$GOUJI_DB`` (a SQLite
    path), else ``gouji.db`` — as a URL."""
    env = os.environ if env is None else env
    url = env.get(URL_ENV_VAR)
    if url:
        return url
    return SQLITE_PREFIX + (env.get(ENV_VAR) or DEFAULT_PATH)


def is_postgres(target: str) -> bool:
    """Whether ``target`` is a PostgreSQL URL."""
    return target.startswith(POSTGRES_PREFIXES)


def sqlite_path(target: str) -> str:
    """The file of a ``sqlite:///PATH`` URL or a bare path; :class:`StoreError` for another
    scheme."""
    from .errors import StoreError

    if target.startswith(SQLITE_PREFIX):
        return target[len(SQLITE_PREFIX) :] or DEFAULT_PATH
    if _SCHEME.match(target) or target.startswith("sqlite:"):
        raise StoreError(
            f"unknown database URL {redact(target)!r}: use sqlite:///PATH (a file; "
            "sqlite:////abs/path for an absolute one) or postgresql://USER:PASSWORD@HOST/DB"
        )
    return target


#: A password given in a URL's query (``?password=…``, ``&sslpassword=…``), any case.
_QUERY_PASSWORD = re.compile(r"(?i)([?&](?:ssl)?password=)[^&#]*")


def redact(url: str) -> str:
    """The URL without its passwords, for messages and logs: the one before the host
    (which may hold ``@`` and ``:`` when it was not percent-encoded: the host begins after
    the last ``@`` before the path) and any ``password=`` of the query."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    rest = _QUERY_PASSWORD.sub(r"\1***", rest)
    path_at = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    at = rest.rfind("@", 0, path_at)
    if at < 0:  # the last @ may be in a password that holds a "/": then before the query
        query_at = rest.find("?")
        at = rest.rfind("@", 0, query_at if query_at >= 0 else len(rest))
    if at < 0:
        return f"{scheme}://{rest}"
    credentials, host = rest[:at], rest[at + 1 :]
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}{':***' if ':' in credentials else ''}@{host}"


class Conn(ABC):
    """One connection, used by one task at a time (the store's pool sees to that). The
    driver's errors come out as :class:`~data.errors.ConstraintError` (a rule of the schema
    refused the statement) or :class:`~data.errors.StoreError`."""

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """All rows of one statement."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""


class Database(Conn):
    """A backend: its connection, transactions, schema upgrade, the mapping of its errors
    to :class:`~data.errors.StoreError`, and the introspection the copy tool needs."""

    #: ``"sqlite"`` or ``"postgresql"``.
    kind: str
    #: What to call the database in messages: the file, or the URL without its password.
    where: str

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """Begin … commit; roll back if the body raises. Committed means durable."""

    @abstractmethod
    def guard(self) -> AbstractAsyncContextManager[None]:
        """Turn the driver's errors into store errors: a broken rule of the schema (unique
        key, reference, check) into :class:`~data.errors.ConstraintError`, anything else
        (a lost connection, a full disk, a damaged file) into :class:`StoreError`."""

    @abstractmethod
    async def ready(self) -> None:
        """Make sure the connection is usable (reconnecting if it was lost)."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The schema version the database is at."""

    @abstractmethod
    async def table_names(self) -> list[str]:
        """The tables of the Gouji schema (the version bookkeeping excluded)."""

    @abstractmethod
    async def column_names(self, table: str) -> list[str]:
        """A table's columns, in order."""

    @abstractmethod
    async def reset_sequences(self, tables: Iterable[str]) -> None:
        """After rows were written with their ids: let new rows continue after the highest."""

    @abstractmethod
    async def settings(self) -> dict[str, Any]:
        """The durability settings in effect (per backend)."""

    #: Connections the store may hold to this database at once (:meth:`another`): one for
    #: SQLite (one writer at a time anyway).
    connections = 1

    async def another(self) -> Database:
        """One more connection to the same database, for another task (the schema is
        already upgraded). Only for a backend of more than one :attr:`connections`."""
        raise NotImplementedError(f"{self.kind} takes one connection")


async def rows_in_batches(
    conn: Conn, table: str, columns: Sequence[str], key: Sequence[str], size: int = 5000
) -> AsyncIterator[list[Row]]:
    """Every row of ``table`` in ``key`` order, ``size`` at a time (keyset pagination)."""
    names = ", ".join(columns)
    order = ", ".join(key)
    rows = await conn.fetch(f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ?", (size,))
    positions = [list(columns).index(k) for k in key]
    while rows:
        yield rows
        if len(rows) < size:
            return
        last = tuple(rows[-1][p] for p in positions)
        after = f"({order}) > ({', '.join('?' for _ in key)})"
        rows = await conn.fetch(
            f"SELECT {names} FROM {table} WHERE {after} ORDER BY {order} LIMIT ?",
            (*last, size),
        )
