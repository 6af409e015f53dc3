"""Tournaments in the store (data/tournaments.py), on SQLite and PostgreSQL: an event read
back whole is the event written; a round is seated once and a table's results recorded
once, however many writers try (no game counted twice); a process's shards find their
servers' events; a reopened store resumes where it stood."""

from __future__ import annotations

import asyncio
import random

import pytest

from data import Store
from data.claims import Shards
from data.errors import InvalidInputError, NotFoundError
from engine.tournament import Config, Format, seat_round, standings
from tests.tournament.sim import play_round

SWISS = Config(name="周赛", format=Format.SWISS, rounds=3, seed=54, table={"bie_san": False})


async def test_an_event_round_trips_and_standings_recompute(store: Store) -> None:
    event = await store.create_tournament(1, 100, 9, SWISS)
    assert (event.status, event.round, event.config) == ("open", 0, SWISS)
    for user in range(200, 212):
        assert await store.join_tournament(event.id, user)
    assert not await store.join_tournament(event.id, 200)  # once
    state = await store.load_tournament(event.id)
    assert state.players == list(range(200, 212))
    plan = seat_round(SWISS, 1, standings(SWISS, state.players, []), [])
    assert await store.seat_tournament_round(event.id, plan, due_at=50.0) == plan
    with pytest.raises(InvalidInputError):
        await store.join_tournament(event.id, 300)  # entries close at the start
    played = play_round(plan, random.Random(3))
    table = await store.create_table(1, 101, 9, {})
    await store.set_tournament_table(event.id, 1, 1, table_id=table.id, status="playing")
    assert await store.tournament_of_table(table.id) == (event.id, 1, 1)
    (first, first_results), (last, last_results) = played.results.items()
    assert await store.record_tournament_table(event.id, 1, first, first_results, next_due=90.0)
    assert (await store.get_tournament(event.id)).due_at == 50.0  # the show-up deadline stands
    assert await store.record_tournament_table(event.id, 1, last, last_results, next_due=90.0)
    state = await store.load_tournament(event.id)
    assert state.tournament.status == "running" and state.tournament.round == 1
    assert state.tournament.due_at == 90.0  # the round's last table: the next round's time
    assert state.rounds == (played,)
    assert [t.status for t in state.tables] == ["finished", "finished"]
    assert state.tables[0].table_id == table.id
    assert standings(SWISS, state.players, state.rounds) == standings(
        SWISS, list(range(200, 212)), [played]
    )


async def test_a_round_is_seated_once_and_a_table_recorded_once(store: Store) -> None:
    event = await store.create_tournament(1, 100, 9, SWISS)
    for user in range(1, 7):
        await store.join_tournament(event.id, user)
    plan = seat_round(SWISS, 1, standings(SWISS, range(1, 7), []), [])
    other = seat_round(
        Config(name="x", format=Format.SWISS, rounds=1, seed=99), 1,
        standings(Config(name="x", format=Format.SWISS, rounds=1, seed=99), range(1, 7), []), [],
    )  # fmt: skip
    kept = await asyncio.gather(
        store.seat_tournament_round(event.id, plan),
        store.seat_tournament_round(event.id, other),
    )
    assert kept[0] == kept[1]  # whoever came first, both read the one plan
    results = play_round(kept[0], random.Random(1)).results[1]
    twice = play_round(kept[0], random.Random(2)).results[1]
    applied = await asyncio.gather(
        store.record_tournament_table(event.id, 1, 1, results),
        store.record_tournament_table(event.id, 1, 1, twice),
    )
    assert sorted(applied) == [False, True]
    state = await store.load_tournament(event.id)
    assert state.rounds[0].results[1] in (results, twice)
    with pytest.raises(NotFoundError):  # a finished table is not reopened
        await store.set_tournament_table(event.id, 1, 1, table_id=None, status="skipped")


async def test_leaving_before_and_after_the_start(store: Store) -> None:
    event = await store.create_tournament(1, 100, 9, SWISS)
    for user in (1, 2, 3):
        await store.join_tournament(event.id, user)
    assert await store.leave_tournament(event.id, 1)
    assert not await store.leave_tournament(event.id, 1)
    await store.seat_tournament_round(
        event.id, seat_round(SWISS, 1, standings(SWISS, (2, 3), []), [])
    )
    assert await store.leave_tournament(event.id, 2)
    state = await store.load_tournament(event.id)
    assert state.players == [2, 3] and state.left == {2: 1}


async def test_statuses_and_a_process_finds_its_shards_events(store: Store) -> None:
    mine, theirs = 1 << 22, 2 << 22  # shard 1 and shard 0 of two
    a = await store.create_tournament(mine, 100, 9, SWISS)
    b = await store.create_tournament(theirs, 100, 9, SWISS)
    await store.create_tournament(mine, 101, 9, SWISS)  # open: nothing to resume
    for event in (a, b):
        await store.set_tournament_status(event.id, "running", due_at=10.0)
    assert [t.id for t in await store.running_tournaments()] == [a.id, b.id]
    assert [t.id for t in await store.running_tournaments(shards=Shards(2, (1,)))] == [a.id]
    await store.set_tournament_status(a.id, "paused")
    assert (await store.get_tournament(a.id)).due_at is None
    await store.set_tournament_due(b.id, 20.0)
    assert (await store.get_tournament(b.id)).due_at == 20.0
    await store.set_tournament_status(b.id, "finished")
    assert [t.id for t in await store.guild_tournaments(mine, active=True)] == [a.id + 2, a.id]
    with pytest.raises(InvalidInputError):
        await store.set_tournament_status(a.id, "won")
    with pytest.raises(NotFoundError):
        await store.get_tournament(999)


async def test_a_reopened_store_resumes_the_event(db_url: str) -> None:
    async with await Store.open(db_url) as store:
        event = await store.create_tournament(1, 100, 9, SWISS)
        for user in range(1, 13):
            await store.join_tournament(event.id, user)
        plan = seat_round(SWISS, 1, standings(SWISS, range(1, 13), []), [])
        await store.seat_tournament_round(event.id, plan)
        first = play_round(plan, random.Random(5)).results[1]
        await store.record_tournament_table(event.id, 1, 1, first)
        before = await store.load_tournament(event.id)
    async with await Store.open(db_url) as store:
        after = await store.load_tournament(event.id)
        assert after == before and not after.rounds[0].over
        assert [t.status for t in after.tables] == ["finished", "seated"]
