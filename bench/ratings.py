"""Rating speed: rebuilding the ratings of many games, and what a finished game adds.

    python -m bench.ratings [--games 100000] [--players 200] [--record 200] [--dir DIR]
                            [--database-url postgresql://…]

A database is filled with ``--games`` finished games of one server (the worst case: a
server's ratings are rebuilt in one go), in series of five at the same six seats —
``--players`` people, some AI seats of the three levels, a leaver now and then — written
straight as rows, in one transaction. Then:

- ``rebuild_ratings()``: the seconds it takes (wall clock, and this process's CPU);
- ``record_game_result`` of ``--record`` more games, one by one as the bot records them,
  each a durable commit: its time per game (p50 / p99), and the part of it spent rating
  the game (reading six ratings, the update, writing them back, in the same transaction).

SQLite in WAL mode with synchronous=FULL by default (a temporary directory, ``--dir``:
the bot's disk); ``--database-url``: a scratch schema of that PostgreSQL database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.store import backend_name, check_database_url, database_option, scratch_database
from data import ProfileUpdate, Store
from data.connect import connect
from data.ratings import RatingsMixin

GUILD = 1
AI_KINDS = ("hint", "expert", "strong")
HANDS = json.dumps(["3", "4", "5", "6", "7", "8"])


def lineup(rng: random.Random, players: int) -> tuple[list[int | str], list[int], int | None]:
    """One game: who sat where (user ids, or AI kinds), the places, the seat that left."""
    seats: list[int | str] = [1000 + p for p in rng.sample(range(players), 6)]
    for seat in range(6):
        if rng.random() < 0.15:
            seats[seat] = rng.choice(AI_KINDS)
    places = rng.sample(range(1, 7), 6)
    people = [s for s in range(6) if isinstance(seats[s], int)]
    left = rng.choice(people) if people and rng.random() < 0.02 else None
    return seats, places, left


def result_rows(
    game_id: int, seq: int, seats: list[int | str], places: list[int], left: int | None
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The games row's result and the game_results row of one finished game."""
    updates, entries = [], []
    for seat, who in enumerate(seats):
        entry: dict[str, Any] = {"seat": seat, "place": places[seat]}
        if isinstance(who, int):
            updates.append(
                {
                    "user_id": who, "score_delta": 0, "place": places[seat], "opens": 0,
                    "burns": 0, "stifles": 0, "leaves": int(seat == left),
                }
            )  # fmt: skip
            entry.update(user=who, left=seat == left)
        else:
            entry["ai"] = who
        entries.append(entry)
    game = (json.dumps({"places": places}), game_id)
    result = (game_id, GUILD, json.dumps(updates), float(seq), seq, json.dumps(entries))
    return game, result


async def fill(url: str, games: int, players: int, seed: int) -> None:
    """``games`` finished games of one server, as rows (series of five at 1,000 tables)."""
    rng = random.Random(seed)
    db = await connect(url)
    try:
        async with db.guard(), db.transaction():
            tables = min(1000, max(1, games // 5))
            await db.executemany(
                "INSERT INTO tables (id, guild_id, channel_id, creator_id, status, created_at, "
                "updated_at) VALUES (?, ?, ?, 1, 'lobby', 0, 0)",
                [(t, GUILD, t) for t in range(1, tables + 1)],
            )
            series = (games + 4) // 5
            await db.executemany(
                "INSERT INTO series (id, table_id, number, status, created_at, updated_at) "
                "VALUES (?, ?, ?, 'finished', 0, 0)",
                [(s, (s - 1) % tables + 1, (s - 1) // tables + 1) for s in range(1, series + 1)],
            )
            await db.executemany(
                "INSERT INTO games (id, series_id, number, seed, hands, status, created_at, "
                "updated_at) VALUES (?, ?, ?, 0, ?, 'finished', 0, 0)",
                [(g, (g - 1) // 5 + 1, (g - 1) % 5 + 1, HANDS) for g in range(1, games + 1)],
            )
            rows = []
            for g in range(1, games + 1):
                if g % 5 == 1:  # a series: the same six seats for its five games
                    seats, _, _ = lineup(rng, players)
                _, places, left = lineup(rng, players)
                if left is not None and not isinstance(seats[left], int):
                    left = None
                rows.append(result_rows(g, g, seats, places, left))
            await db.executemany("UPDATE games SET result = ? WHERE id = ?", [r[0] for r in rows])
            await db.executemany(
                "INSERT INTO game_results (game_id, guild_id, updates, applied_at, seq, lineup) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [r[1] for r in rows],
            )
            await db.reset_sequences(["tables", "series", "games"])  # ids written by hand
    finally:
        await db.close()


async def timed(work: Callable[[], Awaitable[Any]]) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds of this process, the result) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = await work()
    return time.perf_counter() - wall, time.process_time() - cpu, out


async def record_games(store: Store, count: int, players: int, seed: int) -> list[float]:
    """Record ``count`` games as the bot does (a table with its seats, a deal, the result);
    the seconds of each ``record_game_result``."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        seats, places, left = lineup(rng, players)
        # one active table a channel: past the channels of the filled tables (1-1,000)
        table = await store.create_table(GUILD, 1_000_001 + n, 1, {})
        for seat, who in enumerate(seats):
            if isinstance(who, int):
                await store.set_seat(table.id, seat, user_id=who)
            else:
                await store.set_seat(table.id, seat, ai_kind=who)
        await store.set_table_status(table.id, "playing")
        series = await store.start_series(table.id)
        game = await store.start_game(series.id, 1, json.loads(HANDS))
        updates = [
            ProfileUpdate(who, 0, places[s], leaves=int(s == left))
            for s, who in enumerate(seats)
            if isinstance(who, int)
        ]
        start = time.perf_counter()
        await store.record_game_result(GUILD, game.id, updates, {"places": places})
        out.append(time.perf_counter() - start)
    return out


class RatingClock:
    """Times the rating step of each recorded result (``RatingsMixin._rate_recorded``)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self._original = RatingsMixin._rate_recorded

    def __enter__(self) -> RatingClock:
        clock = self

        async def rate(self: RatingsMixin, *args: Any) -> None:
            start = time.perf_counter()
            await clock._original(self, *args)
            clock.seconds.append(time.perf_counter() - start)

        RatingsMixin._rate_recorded = rate  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        RatingsMixin._rate_recorded = self._original  # type: ignore[method-assign]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(url: str, args: argparse.Namespace) -> None:
    start = time.perf_counter()
    await fill(url, args.games, args.players, args.seed)
    print(
        f"filled {args.games:,} finished games of one server in {time.perf_counter() - start:.1f} s"
    )
    async with await Store.open(url) as store:
        wall, cpu, report = await timed(store.rebuild_ratings)
        assert report.rated == args.games, report
        print(
            f"rebuild_ratings: {report.rated:,} games, {len(await store.rating_board(GUILD, 1000))}"
            f" players shown of the board's first 1000: {wall:.2f} s ({cpu:.2f} s CPU), "
            f"{1e6 * wall / report.rated:.1f} µs a game"
        )
        again = await timed(store.rebuild_ratings)
        print(f"rebuild_ratings again (same numbers): {again[0]:.2f} s ({again[1]:.2f} s CPU)")
        if args.record:
            with RatingClock() as clock:
                times = await record_games(store, args.record, args.players, args.seed + 1)
            ms = [1000 * t for t in times]
            rating = [1000 * t for t in clock.seconds]
            print(
                f"record_game_result (durable commit), {args.record} games after "
                f"{args.games:,}: p50 {quantile(ms, 0.5):.2f} ms, p99 {quantile(ms, 0.99):.2f} ms; "
                f"its rating step: p50 {quantile(rating, 0.5):.3f} ms, "
                f"p99 {quantile(rating, 0.99):.3f} ms"
            )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--record", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="directory for the SQLite file")
    database_option(parser)
    args = parser.parse_args()
    check_database_url(parser, args.database_url)
    if args.games < 1 or args.players < 6 or args.record < 0:
        parser.error("--games ≥ 1, --players ≥ 6 and --record ≥ 0, please")
    print(backend_name(args.database_url))
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        async with scratch_database(args.database_url, Path(tmp), "ratings") as url:
            await measure(url, args)


if __name__ == "__main__":
    asyncio.run(main())
