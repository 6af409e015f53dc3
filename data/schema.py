"""Schema versions: the numbered SQL files in ``data/migrations/`` and the code that applies
them.

``NNNN_name.sql`` upgrades a database from version NNNN − 1 to NNNN; ``PRAGMA user_version``
holds the version a file has reached. Each file runs in one transaction together with the
new ``user_version``, so a crash mid-upgrade leaves the file at the old version, intact.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from .errors import StoreError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_FILE_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: the version it brings a database to, its name and its SQL."""

    version: int
    name: str
    sql: str

    def script(self) -> str:
        """The SQL to run: the file and the new user_version, in one transaction."""
        return f"BEGIN IMMEDIATE;\n{self.sql}\nPRAGMA user_version = {self.version};\nCOMMIT;\n"


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in ``directory``, in order; their numbers must run 1, 2, 3 …"""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.fullmatch(path.name)
        if match is None:
            raise StoreError(f"migration file {path} is not named NNNN_name.sql: rename it")
        migrations.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise StoreError(
                f"migration {expected:04d} is missing from {directory} "
                f"(found {migration.version:04d}_{migration.name}.sql instead)"
            )
    return migrations


LATEST_VERSION = len(load_migrations())


async def upgrade(
    conn: aiosqlite.Connection, path: str, migrations: list[Migration] | None = None
) -> tuple[int, int]:
    """Bring the database to the last of ``migrations`` (default: the shipped ones, up to
    :data:`LATEST_VERSION`); returns (version before, after).

    Refuses a file written by a newer version and an SQLite file that holds other tables
    but no Gouji schema version."""
    migrations = load_migrations() if migrations is None else migrations
    latest = len(migrations)
    (version,) = await _fetch_one(conn, "PRAGMA user_version")
    if version > latest:
        raise StoreError(
            f"{path} has schema version {version}, newer than this bot knows ({latest}): "
            "run a newer version of the bot, or set GOUJI_DB to another file"
        )
    if version == 0:
        (count,) = await _fetch_one(
            conn, "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        )
        if count:
            raise StoreError(
                f"{path} is an SQLite database of something else (it has tables but no Gouji "
                "schema version): set GOUJI_DB to another file"
            )
    before = version
    for migration in migrations[version:]:
        try:
            await conn.executescript(migration.script())
        except sqlite3.Error as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise StoreError(
                f"upgrading {path} to schema version {migration.version} "
                f"({migration.name}) failed: {exc}; the file stays at version {version}, as it was"
            ) from exc
        version = migration.version
    return before, version


async def _fetch_one(conn: aiosqlite.Connection, sql: str) -> tuple[Any, ...]:
    rows = list(await conn.execute_fetchall(sql))
    return tuple(rows[0])
