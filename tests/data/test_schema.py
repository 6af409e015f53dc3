"""Opening files: migrations, upgrade in place, durability settings, files that are not ours."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing

import aiosqlite
import pytest

from data import LATEST_VERSION, Store, StoreError, default_path
from data.schema import Migration, load_migrations, upgrade

from .conftest import dealt_hands, raw_sql


def test_migration_files_are_numbered_from_one() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert len(migrations) >= 2 and LATEST_VERSION == len(migrations)


def test_misnumbered_migration_directory_is_refused(tmp_path) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "0003_third.sql").write_text("CREATE TABLE b (x);")
    with pytest.raises(StoreError, match="migration 0002 is missing"):
        load_migrations(tmp_path)


async def test_fresh_file_reaches_latest_version_with_wal_and_full_sync(db_path) -> None:
    async with await Store.open(db_path) as store:
        pragmas = await store.pragmas()
    assert pragmas == {
        "journal_mode": "wal",
        "synchronous": 2,  # FULL
        "foreign_keys": 1,
        "user_version": LATEST_VERSION,
    }
    with closing(sqlite3.connect(db_path)) as conn:  # WAL is a property of the file
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_foreign_keys_are_enforced(store) -> None:
    with pytest.raises(StoreError):
        await store.start_series(999)
    with pytest.raises(StoreError):
        await store.append_action(999, "0 pass")


def build_v1_file(path) -> None:
    """A database as version 1 of the bot left it, with a table mid-game and a profile."""
    v1 = load_migrations()[0]
    hands = str(dealt_hands(3)).replace("'", '"')
    with raw_sql(path) as conn:
        conn.executescript(v1.script())
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, creator_id, options, status, "
            "created_at, updated_at) VALUES (1, 10, 20, 30, '{\"bie_san\":true}', 'playing', 1, 1)"
        )
        conn.executemany(
            "INSERT INTO seats (table_id, seat, user_id) VALUES (1, ?, ?)",
            [(s, 100 + s) for s in range(6)],
        )
        conn.execute(
            "INSERT INTO series (id, table_id, number, options, created_at, updated_at) "
            "VALUES (1, 1, 1, '{\"bie_san\":true}', 1, 1)"
        )
        conn.execute(
            "INSERT INTO games (id, series_id, number, seed, hands, created_at, updated_at) "
            "VALUES (1, 1, 1, 3, ?, 1, 1)",
            (hands,),
        )
        conn.executemany(
            "INSERT INTO actions (game_id, idx, action, created_at) VALUES (1, ?, ?, 1)",
            list(enumerate(["0 nodeclare", "1 declare", "2 play 5s 5h"])),
        )
        conn.execute(
            "INSERT INTO profiles (guild_id, user_id, score, games, place_1, updated_at) "
            "VALUES (10, 100, 42, 3, 2, 1)"
        )
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1


async def test_version_1_file_is_upgraded_in_place_with_data_intact(db_path) -> None:
    build_v1_file(db_path)
    async with await Store.open(db_path) as store:
        assert (await store.pragmas())["user_version"] == LATEST_VERSION
        report = await store.load_active_tables()
        assert report.broken == []
        (active,) = report.tables
        assert active.table.options == {"bie_san": True}
        assert active.table.message_id is None  # added by migration 2
        assert [s.user_id for s in active.seats] == [100, 101, 102, 103, 104, 105]
        assert all(s.timeouts == 0 and not s.dm_refused for s in active.seats)
        assert active.games[0].game.hands == tuple(dealt_hands(3))
        assert active.games[0].actions == ("0 nodeclare", "1 declare", "2 play 5s 5h")
        profile = await store.get_profile(10, 100)
        assert (profile.score, profile.games, profile.places[0]) == (42, 3, 2)
        # the new columns work
        await store.set_table_message(1, 555)
        assert await store.add_timeout(1, 2) == 1
        assert await store.append_action(1, "3 pass", expected_index=3) == 3
    async with await Store.open(db_path) as store:  # reopening changes nothing
        assert (await store.get_table(1)).message_id == 555
        assert (await store.get_seats(1))[2].timeouts == 1


@pytest.mark.parametrize(
    "content",
    [os.urandom(4096), b"gouji is a card game\n" * 100],
    ids=["random bytes", "text file"],
)
async def test_file_that_is_not_a_database_gives_a_clear_error(tmp_path, content) -> None:
    path = tmp_path / "gouji.db"
    path.write_bytes(content)
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    message = str(caught.value)
    assert str(path) in message and "not a Gouji database" in message and "GOUJI_DB" in message
    assert path.read_bytes() == content  # nothing changed


async def test_sqlite_file_of_another_program_is_refused(tmp_path) -> None:
    path = tmp_path / "other.db"
    with raw_sql(path) as conn:
        conn.execute("CREATE TABLE things (x)")
    with pytest.raises(StoreError, match="SQLite database of something else"):
        await Store.open(path)


async def test_file_from_a_newer_bot_is_refused(db_path) -> None:
    with raw_sql(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this bot knows"):
        await Store.open(db_path)


async def test_directory_is_refused(tmp_path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        await Store.open(tmp_path)


def test_default_path_honours_gouji_db(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("GOUJI_DB", raising=False)
    assert str(default_path()) == "gouji.db"
    monkeypatch.setenv("GOUJI_DB", str(tmp_path / "x.db"))
    assert default_path() == tmp_path / "x.db"


async def test_open_without_path_uses_gouji_db(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("GOUJI_DB", str(tmp_path / "env.db"))
    async with await Store.open() as store:
        assert store.path == str(tmp_path / "env.db")
    assert (tmp_path / "env.db").exists()


async def test_a_closed_store_says_so(db_path) -> None:
    store = await Store.open(db_path)
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StoreError, match="is closed: open it again"):
        await store.get_table(1)


async def test_a_path_in_a_missing_directory_gives_a_clear_error(tmp_path) -> None:
    with pytest.raises(StoreError, match="cannot open database .*check the path"):
        await Store.open(tmp_path / "no" / "such" / "dir.db")


async def test_a_failing_migration_leaves_the_file_at_the_old_version(db_path, tmp_path) -> None:
    build_v1_file(db_path)
    broken = [
        load_migrations()[0],
        Migration(2, "broken", "CREATE TABLE half_done (x);\nALTER TABLE nowhere ADD COLUMN y;"),
    ]
    conn = await aiosqlite.connect(db_path, isolation_level=None)
    try:
        with pytest.raises(StoreError, match="to schema version 2 .*stays at version 1"):
            await upgrade(conn, str(db_path), broken)
        assert not conn.in_transaction
    finally:
        await conn.close()
    with raw_sql(db_path) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == 1
        names = {row[0] for row in check.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in names and "actions" in names
    async with await Store.open(db_path) as store:  # the shipped migrations still apply
        assert (await store.pragmas())["user_version"] == LATEST_VERSION
