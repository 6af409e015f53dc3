"""Many asyncio tasks on one store: nothing lost, nothing mixed, indexes contiguous."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from typing import Any

from data import ActionConflictError, ProfileUpdate, Store

from .conftest import new_game

TABLES = 50
ACTIONS = 40


def script_for(table_number: int) -> list[str]:
    """A distinct log per table, so a mixed-up action would show."""
    return [
        f"{i % 6} play {'3456789TJQKA2'[table_number % 13]}" if i % 2 else f"{i % 6} pass"
        for i in range(ACTIONS)
    ]


async def test_fifty_tables_appending_at_once_lose_and_mix_nothing(db_url) -> None:
    async with await Store.open(db_url) as store:
        games = [(await new_game(store, channel_id=i, seed=i))[2] for i in range(TABLES)]
        rng = random.Random(7)

        async def play(number: int, game_id: int) -> list[int]:
            indexes = []
            for i, action in enumerate(script_for(number)):
                if rng.random() < 0.3:
                    await asyncio.sleep(0)  # let other tasks in between
                indexes.append(await store.append_action(game_id, action, expected_index=i))
            return indexes

        results = await asyncio.gather(*(play(n, g.id) for n, g in enumerate(games)))
        assert results == [list(range(ACTIONS))] * TABLES

    async with await Store.open(db_url) as store:  # what is on disk
        report = await store.load_active_tables()
        assert report.broken == []
        logs = {t.table.channel_id: t.games[0].actions for t in report.tables}
        assert logs == {n: tuple(script_for(n)) for n in range(TABLES)}


async def test_tasks_racing_on_one_log_get_distinct_contiguous_indexes(store: Store) -> None:
    _table, _series, game = await new_game(store)
    actions = [f"{i % 6} pass" for i in range(60)]
    indexes = await asyncio.gather(*(store.append_action(game.id, a) for a in actions))
    assert sorted(indexes) == list(range(60))
    log = await store.get_actions(game.id)
    assert [log[i] for i in indexes] == actions


async def test_transactions_do_not_interleave_with_other_tasks(store: Store) -> None:
    """Batches, results and single appends from many tasks at once: every batch lands in one
    contiguous run and every result is counted once."""
    pairs = [await new_game(store, channel_id=i, seed=i) for i in range(10)]

    async def batches(game_id: int, tag: int) -> list[int]:
        firsts = []
        for k in range(5):
            indexes = await store.append_actions(
                game_id, [f"{tag % 6} pass", f"{tag % 6} play {k + 3}"]
            )
            firsts.append(indexes[0])
        return firsts

    async def singles(game_id: int, tag: int) -> None:
        for _ in range(10):
            await store.append_action(game_id, f"{tag % 6} yield")

    async def result(game_id: int, user_id: int) -> bool:
        return await store.record_game_result(1, game_id, [ProfileUpdate(user_id, 1, 1)], {})

    shared = pairs[0][2].id
    jobs: list[Coroutine[Any, Any, Any]] = [batches(shared, t) for t in range(4)]
    jobs += [singles(shared, 5) for _ in range(3)]
    jobs += [result(game.id, 77) for _t, _s, game in pairs[1:] for _ in range(2)]
    outcomes = await asyncio.gather(*jobs)
    log = await store.get_actions(shared)
    assert len(log) == 4 * 5 * 2 + 3 * 10
    for tag, firsts in enumerate(outcomes[:4]):
        for k, first in enumerate(firsts):
            assert log[first : first + 2] == [f"{tag} pass", f"{tag} play {k + 3}"]
    assert sorted(outcomes[7:]) == [False] * 9 + [True] * 9
    assert (await store.get_profile(1, 77)).games == 9


async def test_two_connections_racing_on_one_log_lose_nothing(db_url) -> None:
    """Two stores (two connections, as two processes would have) append to one deal at
    once: appends anywhere all land, contiguous; appends at an expected index that another
    writer took fail with ActionConflictError, never with a database error."""
    async with await Store.open(db_url) as first, await Store.open(db_url) as second:
        _table, _series, game = await new_game(first)
        singles = [
            (first if i % 2 else second).append_action(game.id, f"{i % 6} pass") for i in range(40)
        ]
        batches = [
            (second if i % 2 else first).append_actions(game.id, [f"{i % 6} pass", "0 yield"])
            for i in range(10)
        ]
        results: list[Any] = await asyncio.gather(*singles, *batches)
        indexes = [*results[:40], *(i for batch in results[40:] for i in batch)]
        assert sorted(indexes) == list(range(60))
        log = await first.get_actions(game.id)
        assert all(log[batch[1]] == "0 yield" for batch in results[40:])  # batches stay whole
        raced = await asyncio.gather(
            first.append_action(game.id, "0 yield", expected_index=60),
            second.append_actions(game.id, ["1 yield"], expected_index=60),
            return_exceptions=True,
        )
        assert sum(isinstance(r, ActionConflictError) for r in raced) == 1
        assert len(await first.get_actions(game.id)) == 61


async def test_other_tasks_statements_run_while_a_transaction_is_open(store: Store) -> None:
    """PostgreSQL: a transaction holds one of the store's connections, not the store; the
    other tables' statements run meanwhile on the others (up to four, opened as needed).
    SQLite keeps its one connection (one writer at a time anyway)."""
    _table, _series, game = await new_game(store)
    inside, release = asyncio.Event(), asyncio.Event()

    async def held(n: int) -> None:
        async with store._transaction() as conn:
            await conn.fetch("SELECT id FROM games WHERE id = ?", (game.id + n,))
            inside.set()
            await release.wait()

    if store.backend != "postgresql":
        assert store._db.connections == 1
        return
    holding = [asyncio.create_task(held(n)) for n in range(6)]  # more than the connections
    await asyncio.wait_for(inside.wait(), 10)
    await asyncio.sleep(0)
    assert store._opened == store._db.connections == 4, "up to four, opened as needed"
    release.set()
    await asyncio.gather(*holding)
    assert await store.append_action(game.id, "0 pass") == 0
    inside.clear()
    release.clear()
    one = asyncio.create_task(held(0))
    await asyncio.wait_for(inside.wait(), 10)
    # another task's statement is not held up by the open transaction
    assert await asyncio.wait_for(store.get_actions(game.id), 10) == ["0 pass"]
    release.set()
    await one
