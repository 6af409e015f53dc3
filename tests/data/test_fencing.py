"""One writer per table: every change to a table, its seats, series and deals needs the
table's claim (a process that lost it changes nothing), each process claims under a name of
its own, and a channel holds at most one active table — the database itself refuses a
second one."""

from __future__ import annotations

import pytest

from data import ClaimLostError, InvalidInputError, Store
from data.claims import process_owner
from data.schema import load_migrations

from .conftest import dealt_hands, new_game, raw_sql, raw_sqlite, sqlite_file
from .test_claims import Clock


def test_each_process_claims_under_a_name_of_its_own() -> None:
    first, second = process_owner("shards 0-3 of 8"), process_owner("shards 0-3 of 8")
    assert first != second, "two processes of one shard range must not share a claim"
    assert first.startswith("shards 0-3 of 8") and " pid " in first


async def test_a_process_that_lost_its_table_changes_nothing_of_it(db_url: str) -> None:
    clock = Clock()
    async with (
        await Store.open(db_url, clock=clock) as old,
        await Store.open(db_url, clock=clock) as new,
    ):
        old.act_as("old", lease=10)
        table, series, game = await new_game(old)
        await old.set_seat(table.id, 0, user_id=7)
        clock.now += 11  # "old" stalled past its lease; "new" takes the table over
        assert await new.claim_table(table.id, "new")
        before = (await new.get_table(table.id), await new.get_seats(table.id))
        writes = {
            "set_seat": old.set_seat(table.id, 1, user_id=8),
            "set_standin": old.set_standin(table.id, 0, True),
            "add_timeout": old.add_timeout(table.id, 0),
            "reset_timeouts": old.reset_timeouts(table.id, 0),
            "set_dm_refused": old.set_dm_refused(table.id, 0, True),
            "set_table_status": old.set_table_status(table.id, "ended"),
            "mark_broken": old.mark_broken(table.id, "a stale process thinks so"),
            "set_table_message": old.set_table_message(table.id, 99),
            "set_turn_deadline": old.set_turn_deadline(table.id, 5.0),
            "void_game": old.void_game(game.id),
            "finish_series": old.finish_series(series.id, [0] * 6),
            "abandon_series": old.abandon_series(series.id),
            "start_series": old.start_series(table.id),
        }
        for name, write in writes.items():
            with pytest.raises(ClaimLostError, match="claimed by new, not by old"):
                await write
            assert (await new.get_table(table.id), await new.get_seats(table.id)) == before, name
        assert (await new.get_game(game.id)).status == "playing"
        assert (await new.get_series(series.id)).status == "playing"
        await new.void_game(game.id)
        with pytest.raises(ClaimLostError):
            await old.start_game(series.id, 8, dealt_hands(8))
        assert (await new.load_active_tables()).tables[0].games[-1].game.id == game.id


async def test_a_channel_holds_one_active_table_and_the_database_says_so(store: Store) -> None:
    first = await store.create_table(1, 100, 7, {})
    with pytest.raises(InvalidInputError, match="already has an active table"):
        await store.create_table(1, 100, 8, {})
    other = await store.create_table(1, 101, 8, {})  # another channel
    await store.set_table_status(first.id, "ended")
    second = await store.create_table(1, 100, 8, {})  # the first one is over
    with pytest.raises(InvalidInputError, match="already has an active table"):
        await store.set_table_status(first.id, "lobby")
    assert [t.id for t in await store.tables_in_channel(1, 100)] == [second.id]
    assert other.id != second.id


async def test_two_active_tables_of_a_channel_from_before_keep_the_latest(db_url: str) -> None:
    """A database of schema 5 may hold two active tables in one channel (the bug that made
    them): the upgrade keeps the one changed last and sets the other aside as broken."""
    rows = [
        "INSERT INTO tables (id, guild_id, channel_id, creator_id, options, status, created_at,"
        " updated_at) VALUES (1, 10, 20, 30, '{}', 'playing', 1, 5)",
        "INSERT INTO tables (id, guild_id, channel_id, creator_id, options, status, created_at,"
        " updated_at) VALUES (2, 10, 20, 31, '{}', 'lobby', 2, 9)",
        "INSERT INTO tables (id, guild_id, channel_id, creator_id, options, status, created_at,"
        " updated_at) VALUES (3, 10, 21, 32, '{}', 'playing', 3, 3)",
    ]
    path = sqlite_file(db_url)
    if path is not None:
        with raw_sqlite(path) as conn:
            for migration in load_migrations()[:5]:
                conn.executescript(migration.script())
            for sql in rows:
                conn.execute(sql)
    else:
        from data.postgres import POSTGRES_MIGRATIONS_DIR, PostgresDatabase

        db = await PostgresDatabase.connect(db_url, load_migrations(POSTGRES_MIGRATIONS_DIR)[:5])
        try:
            for sql in rows:
                await db.execute(sql)
        finally:
            await db.close()
    async with await Store.open(db_url) as store:
        assert (await store.get_table(1)).status == "broken"
        assert "one active table" in ((await store.get_table(1)).broken_reason or "")
        assert [t.id for t in await store.tables_in_channel(10, 20)] == [2]
        assert (await store.get_table(3)).status == "playing"
    async with raw_sql(db_url) as conn:  # the rule is the database's own, not the store's
        with pytest.raises(Exception, match="(?i)unique"):
            await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, creator_id, options, status, "
                "created_at, updated_at) VALUES (10, 21, 1, '{}', 'lobby', 1, 1)"
            )
