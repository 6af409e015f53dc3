"""Store speed: durable appends per second, and the start-up load of many open tables.

    python -m bench.store [--appends N] [--tables N] [--actions N] [--dir DIR]
                          [--database-url postgresql://…]

Durability as shipped, one commit per action: SQLite in WAL mode with synchronous=FULL (an
fsync per commit); PostgreSQL with synchronous_commit=on (the server flushes its WAL before
the commit returns). SQLite: the files go in a temporary directory (``--dir``: put it on the
disk the bot will use). ``--database-url``: measure on that PostgreSQL database instead, in
a scratch schema created for the run and dropped after it.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from data import Store
from data.backend import is_postgres, redact
from engine import deal

RANKS = "3456789TJQKA2"


def sample_action(index: int) -> str:
    """A plausible action: plays of one to four cards with suits, and passes."""
    seat = index % 6
    if index % 3 == 2:
        return f"{seat} pass"
    rank = RANKS[index % 13]
    return f"{seat} play " + " ".join(rank + suit for suit in "shdc"[: 1 + index % 4])


async def new_game(store: Store, channel_id: int, seed: int) -> int:
    table = await store.create_table(1, channel_id, 1, {"bie_san": False})
    await store.set_table_status(table.id, "playing")
    for seat in range(6):
        await store.set_seat(table.id, seat, user_id=1000 + seat)
    series = await store.start_series(table.id)
    hands = [" ".join(map(str, hand)) for hand in deal(seed)]
    return (await store.start_game(series.id, seed, hands)).id


@asynccontextmanager
async def scratch_database(url: str | None, directory: Path, name: str) -> AsyncIterator[str]:
    """An empty database for one measurement, as a URL: a SQLite file ``name`` in
    ``directory`` (``url`` None), or a new schema in the PostgreSQL database ``url``,
    dropped afterwards."""
    if url is None:
        yield f"sqlite:///{directory / name}.db"
        return
    schema = f"gouji_bench_{name}_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        try:
            yield url + ("&" if "?" in url else "?") + f"search_path={schema}"
        finally:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


def database_option(parser: argparse.ArgumentParser) -> None:
    """``--database-url``: a PostgreSQL database to measure on (default: SQLite files)."""
    parser.add_argument(
        "--database-url",
        default=None,
        help="measure on this PostgreSQL database (postgresql://…, in a scratch schema); "
        "default: SQLite files in --dir",
    )


def backend_name(url: str | None) -> str:
    """How the output names the backend."""
    return "SQLite (WAL, synchronous=FULL)" if url is None else f"PostgreSQL {redact(url)}"


def check_database_url(parser: argparse.ArgumentParser, url: str | None) -> None:
    if url is not None and not is_postgres(url):
        parser.error("--database-url takes a postgresql:// URL; SQLite is the default (--dir)")


async def bench_appends(url: str, count: int) -> float:
    """Actions appended per second, one commit each, from one task."""
    async with await Store.open(url) as store:
        game_id = await new_game(store, 1, 1)
        start = time.perf_counter()
        for index in range(count):
            await store.append_action(game_id, sample_action(index), expected_index=index)
        return count / (time.perf_counter() - start)


async def bench_load(url: str, tables: int, actions: int) -> tuple[float, float, int]:
    """Seconds to open the database and to load ``tables`` open tables of ``actions`` each."""
    async with await Store.open(url) as store:
        log = [sample_action(i) for i in range(actions)]
        for n in range(tables):
            game_id = await new_game(store, n, n)
            await store.append_actions(game_id, log, expected_index=0)
    start = time.perf_counter()
    store = await Store.open(url)
    opened = time.perf_counter()
    report = await store.load_active_tables()
    loaded = time.perf_counter()
    await store.close()
    assert not report.broken
    total = sum(len(t.games[0].actions) for t in report.tables)
    return opened - start, loaded - opened, total


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--dir", default=None, help="directory for the database files")
    database_option(parser)
    args = parser.parse_args()
    check_database_url(parser, args.database_url)
    print(backend_name(args.database_url))
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        async with scratch_database(args.database_url, Path(tmp), "appends") as url:
            rate = await bench_appends(url, args.appends)
        print(
            f"append_action (durable, one commit each): {rate:,.0f} actions/s "
            f"({1000 / rate:.2f} ms per acknowledged action, {args.appends} appends)"
        )
        async with scratch_database(args.database_url, Path(tmp), "load") as url:
            open_s, load_s, total = await bench_load(url, args.tables, args.actions)
        print(
            f"load_active_tables: {args.tables} tables × {args.actions} actions "
            f"({total:,} actions): {load_s:.3f} s (+ {open_s:.3f} s to open the database)"
        )


if __name__ == "__main__":
    asyncio.run(main())
