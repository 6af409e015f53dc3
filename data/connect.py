"""Opening a database by its address: the one place that knows both backends.

    db = await connect("sqlite:///gouji.db")        # or a path, or postgresql://…
    db = await connect(None)                          # $GOUJI_DATABASE_URL / $GOUJI_DB

(It sits apart from :mod:`data.backend`, which both backends build on, so that no module
imports one that imports it back.)
"""

from __future__ import annotations

import os
from pathlib import Path

from .backend import ENV_VAR, URL_ENV_VAR, Database, database_url, is_postgres, sqlite_path
from .errors import StoreError


async def connect(
    target: str | os.PathLike[str] | None, *, create: bool = True, busy_timeout: float = 5.0
) -> Database:
    """Open the database at ``target``: a URL, a SQLite path, or None for
    :func:`database_url` of the environment. The schema is upgraded to the latest version.
    ``create=False``: a missing SQLite file is refused (:class:`StoreError`), not created.
    ``busy_timeout``: SQLite's wait for another process's write lock, in seconds."""
    name = database_url() if target is None else os.fspath(target)
    if is_postgres(name):
        from .postgres import PostgresDatabase  # asyncpg is imported only when asked for

        return await PostgresDatabase.connect(name)
    from .sqlite import SqliteDatabase

    path = sqlite_path(name)
    if not create and path != ":memory:" and not Path(path).exists():
        raise StoreError(
            f"there is no database at {path}: give the path of the bot's file "
            f"(sqlite:///PATH, or ${ENV_VAR} / ${URL_ENV_VAR})"
        )
    return await SqliteDatabase.connect(path, busy_timeout=busy_timeout)
