"""Store speed: durable appends per second, and the start-up load of many open tables.

    python -m bench.store [--appends N] [--tables N] [--actions N] [--dir DIR]

Durability as shipped: WAL, synchronous=FULL, one commit (and fsync) per action. The
database goes in a temporary directory (``--dir``: put it on the disk the bot will use).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from data import Store
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


async def bench_appends(path: Path, count: int) -> float:
    """Actions appended per second, one commit each, from one task."""
    async with await Store.open(path) as store:
        game_id = await new_game(store, 1, 1)
        start = time.perf_counter()
        for index in range(count):
            await store.append_action(game_id, sample_action(index), expected_index=index)
        return count / (time.perf_counter() - start)


async def bench_load(path: Path, tables: int, actions: int) -> tuple[float, float, int]:
    """Seconds to open the file and to load ``tables`` open tables of ``actions`` each."""
    async with await Store.open(path) as store:
        log = [sample_action(i) for i in range(actions)]
        for n in range(tables):
            game_id = await new_game(store, n, n)
            await store.append_actions(game_id, log, expected_index=0)
    start = time.perf_counter()
    store = await Store.open(path)
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        rate = await bench_appends(Path(tmp) / "appends.db", args.appends)
        print(
            f"append_action (synchronous=FULL, one commit each): {rate:,.0f} actions/s "
            f"({1000 / rate:.2f} ms per acknowledged action, {args.appends} appends)"
        )
        open_s, load_s, total = await bench_load(Path(tmp) / "load.db", args.tables, args.actions)
        print(
            f"load_active_tables: {args.tables} tables × {args.actions} actions "
            f"({total:,} actions): {load_s:.3f} s (+ {open_s:.3f} s to open the file)"
        )


if __name__ == "__main__":
    asyncio.run(main())
