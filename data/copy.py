"""Copying a whole Gouji database to another, e.g. from SQLite to PostgreSQL when a bot
outgrows one machine, or back.

    python -m data.copy --from sqlite:///gouji.db --to postgresql://gouji:…@db/gouji

Stop the bot first. The source must exist (a missing SQLite file is refused, not created);
both databases are brought to the latest schema; every row of every
table is copied with its ids, in one transaction on the target (all or nothing), and the
target's id sequences continue after the highest copied id. A target that holds any row is
refused unless ``--replace`` is given (its rows are then deleted in the same transaction).

Snapshots (:mod:`data.snapshots`) are not copied: they are a cache of the logs, and a
database handed to ``--from`` is not to be trusted with the engine's state. The target's
tables restore from their logs, and the bot takes new snapshots as they play.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from .backend import Database, redact, rows_in_batches
from .connect import connect
from .errors import StoreError

#: Every table of the schema, parents before children (the order rows are written in),
#: with the key its rows are read in.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("guild_settings", ("guild_id",)),
    ("guild_channels", ("guild_id", "channel_id")),
    ("tables", ("id",)),
    ("seats", ("table_id", "seat")),
    ("series", ("id",)),
    ("games", ("id",)),
    ("actions", ("game_id", "idx")),
    ("snapshots", ("series_id",)),
    ("profiles", ("guild_id", "user_id")),
    ("game_results", ("game_id",)),
    ("ratings", ("guild_id", "player")),
    ("series_ratings", ("series_id",)),
    ("rating_state", ("guild_id",)),
    ("instances", ("name",)),
    ("tournaments", ("id",)),
    ("tournament_players", ("tournament_id", "user_id")),
    ("tournament_rounds", ("tournament_id", "number")),
    ("tournament_tables", ("tournament_id", "round", "number")),
    ("seasons", ("guild_id", "number")),
    ("season_settings", ("guild_id",)),
)
#: The tables whose rows stay behind (a cache, rebuilt by the bot).
NOT_COPIED = frozenset({"snapshots"})


async def _check_schema(db: Database) -> None:
    names = set(await db.table_names())
    expected = {name for name, _ in TABLES}
    if names != expected:
        raise StoreError(
            f"{db.where} has tables {sorted(names)}, not the Gouji schema's {sorted(expected)}"
        )


async def row_counts(db: Database) -> dict[str, int]:
    """The number of rows in each table."""
    return {name: int((await db.fetch(f"SELECT count(*) FROM {name}"))[0][0]) for name, _ in TABLES}


async def copy_database(source: str, target: str, *, replace: bool = False) -> dict[str, int]:
    """Copy every row from ``source`` to ``target`` (URLs or SQLite paths); returns the
    rows copied per table. :class:`StoreError` (and nothing changed) if the target is not
    empty and ``replace`` is false, or anything fails."""
    if source == target:
        raise StoreError(f"--from and --to are the same database ({redact(source)})")
    src = await connect(source, create=False)
    try:
        dst = await connect(target)
        try:
            return await _copy(src, dst, replace)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Database, dst: Database, replace: bool) -> dict[str, int]:
    await _check_schema(src)
    await _check_schema(dst)
    copied = dict.fromkeys((name for name, _ in TABLES if name not in NOT_COPIED), 0)
    async with src.guard(), dst.guard(), src.transaction(), dst.transaction():
        present = {name: n for name, n in (await row_counts(dst)).items() if n}
        if present and not replace:
            listed = ", ".join(f"{n} in {name}" for name, n in present.items())
            raise StoreError(
                f"{dst.where} is not empty ({listed} rows): copy into an empty database, or "
                "pass --replace to delete what it holds"
            )
        for name, _ in reversed(TABLES):
            await dst.execute(f"DELETE FROM {name}")
        for name, key in TABLES:
            if name in NOT_COPIED:
                continue
            columns = await src.column_names(name)
            insert = (
                f"INSERT INTO {name} ({', '.join(columns)}) "
                f"VALUES ({', '.join('?' for _ in columns)})"
            )
            async for batch in rows_in_batches(src, name, columns, key):
                await dst.executemany(insert, batch)
                copied[name] += len(batch)
        await dst.reset_sequences(name for name, _ in TABLES)
    return copied


def main(argv: Sequence[str] | None = None) -> int:
    """``gouji db copy``: the command line around :func:`copy_database`."""
    parser = argparse.ArgumentParser(
        prog="gouji db copy",
        description="Copy a whole Gouji database (stop the bot first), e.g. "
        "--from sqlite:///gouji.db --to postgresql://USER:PASSWORD@HOST/DB",
    )
    parser.add_argument("--from", dest="source", required=True, metavar="URL")
    parser.add_argument("--to", dest="target", required=True, metavar="URL")
    parser.add_argument("--replace", action="store_true", help="delete what the target holds first")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(copy_database(args.source, args.target, replace=args.replace))
    except StoreError as exc:
        print(f"gouji db copy: {exc}", file=sys.stderr)
        return 1
    total = sum(copied.values())
    detail = ", ".join(f"{n} {name}" for name, n in copied.items())
    print(f"copied {total} rows to {redact(args.target)}: {detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
