"""Restoring open tables at start-up, and durable appends, with real games.

    python -m bench.restore [--tables N] [--actions N] [--game N] [--runs N] [--appends N]
                            [--dir DIR] [--database-url postgresql://…]

Fills a database with ``--tables`` open tables, each in the middle of game ``--game`` of a
tribute series (earlier games played out, ``--actions`` log entries into the current one),
played by hint AIs, with the snapshots the bot keeps (one per deal, refreshed every
``SNAPSHOT_EVERY`` entries; here the latest one 1 to ``SNAPSHOT_EVERY`` entries behind the
log, the most a restart can have to replay). Then it times, ``--runs`` times (median
printed):

- restore, the bot's path: open the database, ``load_active_tables(engine=ENGINE)`` (each
  table's snapshot and the entries after it) and ``restore_series`` for every table — the
  live engine :class:`~engine.series.Series` the bot plays on;
- once, for comparison, the same without snapshots (every series replayed from its whole
  log: what a restart after an engine upgrade does);
- ``append_action`` with durability as shipped, one commit each (SQLite: WAL,
  synchronous=FULL; PostgreSQL: synchronous_commit=on).

SQLite (the default): the files go in a temporary directory (``--dir``: put it on the disk
the bot will use). ``--database-url postgresql://…``: measure on that database, in scratch
schemas created for the run and dropped after it.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.store import backend_name, check_database_url, database_option, scratch_database
from data import ENGINE, Store
from data.snapshots import SNAPSHOT_EVERY
from engine.actions import Action, Verb
from engine.ai import make_player
from engine.cards import deal
from engine.series import Series, SeriesGame

DISTINCT = 20  # different series prefixes; the tables reuse them in turn


@dataclass(frozen=True)
class Deal:
    """One deal of a generated series: seed, hands as dealt, log (returns included), and
    how it stands: "finished", "void" or "playing"."""

    seed: int
    hands: list[str]
    log: list[str]
    status: str


def series_prefix(seed: int, game: int, actions: int) -> list[Deal]:
    """Hint AIs play a tribute series from ``seed`` until game ``game`` has ``actions`` log
    entries (fewer if it would end sooner); the games before it are played out."""
    player = make_player("hint", seed)
    series = Series()
    deals: list[Deal] = []
    while True:
        deal_seed = seed * 100 + len(series.deals)
        hands = deal(deal_seed)
        current = series.start_game(hands, deal_seed)
        last = current.number == game
        log: list[str] = []
        while not (current.finished or current.void) and not (last and len(log) >= actions):
            due = current.pending_return
            if due is not None:
                n, allowed = series.returnable(due.giver)
                action = Action(due.giver, Verb.RETURN, player.choose_return(allowed, n))
            else:
                assert current.game is not None  # the returns are over
                action = player.act(current.game.observe(series.to_act[0]))
            if last and current.game is not None and _ends(current, action):
                break  # stay mid-game
            series.apply(action)
            log.append(str(action))
        status = "finished" if current.finished else "void" if current.void else "playing"
        deals.append(Deal(deal_seed, [" ".join(map(str, h)) for h in hands], log, status))
        if status == "playing":
            return deals


def _ends(current: SeriesGame, action: Action) -> bool:
    """Whether ``action`` would end the deal (tried on a copy)."""
    assert current.game is not None
    game = current.game.copy()
    game.apply(action)
    return game.phase in ("finished", "void")


def snapshot_point(entries: int) -> int:
    """Where the latest snapshot of a deal with ``entries`` log entries is taken here: 1 to
    SNAPSHOT_EVERY entries behind (0, the deal's own, when it has none)."""
    return max(0, (entries - 1) // SNAPSHOT_EVERY * SNAPSHOT_EVERY)


def series_at(prefix: list[Deal], entries: int) -> Series:
    """The live series of ``prefix`` with ``entries`` log entries of its last deal applied."""
    series = Series()
    for d in prefix:
        series.start_game(d.hands, d.seed)
        for text in d.log if d is not prefix[-1] else d.log[:entries]:
            series.apply(Action.parse(text))
    return series


async def fill(url: str, tables: int, prefixes: Sequence[list[Deal]]) -> int:
    """Write ``tables`` open tables, each holding one of ``prefixes`` with its latest
    snapshot (:func:`snapshot_point`); returns the number of logged actions."""
    logged = 0
    snaps = [series_at(p, snapshot_point(len(p[-1].log))) for p in prefixes]
    async with await Store.open(url) as store:
        for n in range(tables):
            table = await store.create_table(1, n, 1, {"bie_san": False})
            await store.set_table_status(table.id, "playing")
            series = await store.start_series(table.id)
            prefix = prefixes[n % len(prefixes)]
            for d in prefix:
                game = await store.start_game(series.id, d.seed, d.hands)
                at = snapshot_point(len(d.log)) if d is prefix[-1] else len(d.log)
                if at:
                    await store.append_actions(game.id, d.log[:at], expected_index=0)
                if d is prefix[-1]:
                    await store.save_snapshot(game.id, snaps[n % len(prefixes)])
                if d.log[at:]:
                    await store.append_actions(game.id, d.log[at:], expected_index=at)
                logged += len(d.log)
                if d.status == "void":
                    await store.void_game(game.id)
                elif d.status == "finished":
                    await store.record_game_result(1, game.id, [], {"bench": True})
    return logged


async def restore(url: str, *, snapshots: bool) -> tuple[float, float, float, float, list[Series]]:
    """(seconds to open and load, seconds to rebuild, this process's CPU seconds for each,
    the series), as the bot restores — from the snapshots, or (``snapshots`` false) from
    the whole logs. The CPU time tells a busy machine's figures apart from the work."""
    start, cpu_start = time.perf_counter(), time.process_time()
    async with await Store.open(url) as store:
        report = await store.load_active_tables(engine=ENGINE if snapshots else None)
        loaded, cpu_loaded = time.perf_counter(), time.process_time()
        series = [await store.restore_series(active) for active in report.tables]
    assert not report.broken
    if snapshots:
        assert all(active.resume is not None for active in report.tables)
    end, cpu_end = time.perf_counter(), time.process_time()
    return loaded - start, end - loaded, cpu_loaded - cpu_start, cpu_end - cpu_loaded, series


async def appends_per_second(url: str, actions: Sequence[str]) -> float:
    """``append_action`` calls per second into a new deal, one durable commit each."""
    async with await Store.open(url) as store:
        table = await store.create_table(1, 10**9, 1, {})
        series = await store.start_series(table.id)
        hands = [" ".join(map(str, h)) for h in deal(1)]
        game = await store.start_game(series.id, 1, hands)
        start = time.perf_counter()
        for index, action in enumerate(actions):
            await store.append_action(game.id, action, expected_index=index)
        return len(actions) / (time.perf_counter() - start)


def check(series: list[Series], tables: int, game: int) -> None:
    """Every table came back, in the game it was left in, with someone to act."""
    assert len(series) == tables
    for s in series:
        assert s.current is not None and s.current.number == game and s.to_act


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=150, help="log entries into the game")
    parser.add_argument("--game", type=int, default=1, help="the game (1-5) each table is in")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--dir", default=None, help="directory for the database files")
    database_option(parser)
    args = parser.parse_args()
    check_database_url(parser, args.database_url)
    if not 1 <= args.game <= 5 or min(args.tables, args.actions, args.runs, args.appends) < 1:
        parser.error("--game must be 1 to 5; --tables, --actions, --runs, --appends at least 1")
    prefixes = [series_prefix(seed, args.game, args.actions) for seed in range(1, DISTINCT + 1)]
    print(backend_name(args.database_url))
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        async with scratch_database(args.database_url, Path(tmp), "restore") as db:
            await measure_restore(db, args, prefixes)
        log = [a for p in prefixes for d in p for a in d.log]
        rates = []
        for run in range(args.runs):
            async with scratch_database(args.database_url, Path(tmp), f"appends{run}") as db:
                rates.append(await appends_per_second(db, log[: args.appends]))
        rate = statistics.median(rates)
        print(
            f"append_action (durable, one commit each), median of {args.runs}: "
            f"{rate:,.0f} actions/s ({1000 / rate:.2f} ms per acknowledged action)"
        )


async def measure_restore(db: str, args: argparse.Namespace, prefixes: list[list[Deal]]) -> None:
    """Fill ``db`` and time restoring it, ``args.runs`` times from the snapshots and once
    from the whole logs."""
    start = time.perf_counter()
    logged = await fill(db, args.tables, prefixes)
    fill_s = time.perf_counter() - start
    current = statistics.mean(len(p[-1].log) for p in prefixes)
    tail = statistics.mean(len(p[-1].log) - snapshot_point(len(p[-1].log)) for p in prefixes)
    print(
        f"{args.tables} open tables in game {args.game}, {current:.0f} log entries into it "
        f"on average ({logged:,} logged actions in all, hint AIs; written in {fill_s:.1f} s); "
        f"{tail:.0f} entries after the snapshot on average (at most {SNAPSHOT_EVERY})"
    )
    runs = []
    for _ in range(args.runs):
        *times, series = await restore(db, snapshots=True)
        check(series, args.tables, args.game)
        runs.append(times)
    print_restore("restore (open + load_active_tables + restore_series), median of "
           f"{args.runs}", args.tables, sorted(runs, key=sum)[len(runs) // 2])  # fmt: skip
    *times, series = await restore(db, snapshots=False)
    check(series, args.tables, args.game)
    print_restore(
        "without snapshots (every series replayed from its log), once", args.tables, times
    )


def print_restore(what: str, tables: int, times: Sequence[float]) -> None:
    load_s, rebuild_s, load_cpu, rebuild_cpu = times
    total_s = load_s + rebuild_s
    print(
        f"{what}: {total_s:.2f} s = {load_s:.2f} s load + {rebuild_s:.2f} s rebuild "
        f"({1000 * total_s / tables:.2f} ms per table); this process's CPU: "
        f"{load_cpu:.2f} s load + {rebuild_cpu:.2f} s rebuild"
    )


if __name__ == "__main__":
    asyncio.run(main())
