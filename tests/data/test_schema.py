"""Opening databases: migrations, upgrade in place, durability settings, databases that are
not ours, and the URL that picks the backend. SQLite-only tests say so in their name."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from contextlib import closing

import aiosqlite
import pytest

from data import LATEST_VERSION, Store, StoreError, database_url, default_path, open_store
from data.backend import redact, sqlite_path
from data.connect import connect
from data.postgres import POSTGRES_MIGRATIONS_DIR, PostgresDatabase
from data.schema import Migration, load_migrations, upgrade

from .conftest import dealt_hands, raw_sqlite, sqlite_file


def test_migration_files_are_numbered_from_one() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert len(migrations) >= 2 and LATEST_VERSION == len(migrations)


def test_misnumbered_migration_directory_is_refused(tmp_path) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "0003_third.sql").write_text("CREATE TABLE b (x);")
    with pytest.raises(StoreError, match="migration 0002 is missing"):
        load_migrations(tmp_path)


async def test_sqlite_fresh_file_reaches_latest_version_with_wal_and_full_sync(db_path) -> None:
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


def v1_rows() -> list[tuple[str, tuple]]:
    """The rows version 1 of the bot left: a table mid-game and a profile."""
    hands = str(dealt_hands(3)).replace("'", '"')
    return [
        (
            "INSERT INTO tables (id, guild_id, channel_id, creator_id, options, status, "
            "created_at, updated_at) VALUES (1, 10, 20, 30, '{\"bie_san\":true}', 'playing', 1, 1)",
            (),
        ),
        *[
            ("INSERT INTO seats (table_id, seat, user_id) VALUES (1, ?, ?)", (s, 100 + s))
            for s in range(6)
        ],
        (
            "INSERT INTO series (id, table_id, number, options, created_at, updated_at) "
            "VALUES (1, 1, 1, '{\"bie_san\":true}', 1, 1)",
            (),
        ),
        (
            "INSERT INTO games (id, series_id, number, seed, hands, created_at, updated_at) "
            "VALUES (1, 1, 1, 3, ?, 1, 1)",
            (hands,),
        ),
        *[
            ("INSERT INTO actions (game_id, idx, action, created_at) VALUES (1, ?, ?, 1)", row)
            for row in enumerate(["0 nodeclare", "1 declare", "2 play 5s 5h"])
        ],
        (
            "INSERT INTO profiles (guild_id, user_id, score, games, place_1, updated_at) "
            "VALUES (10, 100, 42, 3, 2, 1)",
            (),
        ),
    ]


async def build_v1(url: str) -> None:
    """A database as version 1 of the bot left it (:func:`v1_rows`)."""
    path = sqlite_file(url)
    if path is not None:
        with raw_sqlite(path) as conn:
            conn.executescript(load_migrations()[0].script())
            for sql, params in v1_rows():
                conn.execute(sql, params)
            assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        return
    db = await PostgresDatabase.connect(url, load_migrations(POSTGRES_MIGRATIONS_DIR)[:1])
    try:
        async with db.transaction():
            for sql, params in v1_rows():
                await db.execute(sql, params)
        assert await db.schema_version() == 1
    finally:
        await db.close()


async def test_version_1_database_is_upgraded_in_place_with_data_intact(db_url) -> None:
    await build_v1(db_url)
    async with await Store.open(db_url) as store:
        assert await store.schema_version() == LATEST_VERSION
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
        assert (await store.set_seat(1, 5, ai_kind="expert")).ai_kind == "expert"  # v4
        assert [s.user_id for s in await store.get_seats(1)][:5] == [100, 101, 102, 103, 104]
    async with await Store.open(db_url) as store:  # reopening changes nothing
        assert (await store.get_table(1)).message_id == 555
        assert (await store.get_seats(1))[2].timeouts == 1


@pytest.mark.parametrize(
    "content",
    [os.urandom(4096), b"gouji is a card game\n" * 100],
    ids=["random bytes", "text file"],
)
async def test_sqlite_file_that_is_not_a_database_gives_a_clear_error(tmp_path, content) -> None:
    path = tmp_path / "gouji.db"
    path.write_bytes(content)
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    message = str(caught.value)
    assert str(path) in message and "not a Gouji database" in message and "GOUJI_DB" in message
    assert path.read_bytes() == content  # nothing changed


async def test_sqlite_file_of_another_program_is_refused(tmp_path) -> None:
    path = tmp_path / "other.db"
    with raw_sqlite(path) as conn:
        conn.execute("CREATE TABLE things (x)")
    with pytest.raises(StoreError, match="SQLite database of something else"):
        await Store.open(path)


async def test_sqlite_file_from_a_newer_bot_is_refused(db_path) -> None:
    with raw_sqlite(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this bot knows"):
        await Store.open(db_path)


async def test_sqlite_directory_is_refused(tmp_path) -> None:
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


async def test_a_closed_store_says_so(db_url) -> None:
    store = await Store.open(db_url)
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StoreError, match="is closed: open it again"):
        await store.get_table(1)


async def test_sqlite_path_in_a_missing_directory_gives_a_clear_error(tmp_path) -> None:
    with pytest.raises(StoreError, match="cannot open database .*check the path"):
        await Store.open(tmp_path / "no" / "such" / "dir.db")


async def test_sqlite_failing_migration_leaves_the_file_at_the_old_version(
    db_path, tmp_path
) -> None:
    await build_v1(f"sqlite:///{db_path}")
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
    with raw_sqlite(db_path) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == 1
        names = {row[0] for row in check.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in names and "actions" in names
    async with await Store.open(db_path) as store:  # the shipped migrations still apply
        assert (await store.pragmas())["user_version"] == LATEST_VERSION


# --- both backends: one schema ------------------------------------------------------------


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    sqlite = [(m.version, m.name) for m in load_migrations()]
    postgres = [(m.version, m.name) for m in load_migrations(POSTGRES_MIGRATIONS_DIR)]
    assert sqlite == postgres


async def test_both_backends_build_the_same_tables_and_columns(tmp_path, pg_server) -> None:
    shapes = []
    for url in (f"sqlite:///{tmp_path / 'a.db'}", pg_server.new_schema_url()):
        db = await connect(url)
        try:
            shapes.append({t: await db.column_names(t) for t in await db.table_names()})
        finally:
            await db.close()
    assert shapes[0] == shapes[1]
    assert "actions" in shapes[0] and "message_id" in shapes[0]["tables"]


async def test_postgres_commits_are_synchronous(pg_server) -> None:
    async with await Store.open(pg_server.new_schema_url()) as store:
        settings = await store.pragmas()
        assert settings["synchronous_commit"] == "on"
        assert settings["schema_version"] == LATEST_VERSION
        assert store.backend == "postgresql"


async def test_postgres_schema_of_another_program_is_refused(pg_server) -> None:
    url = pg_server.new_schema_url()
    schema = url.rsplit("search_path=", 1)[1]
    pg_server.psql(f"CREATE TABLE {schema}.things (x int)")
    with pytest.raises(StoreError, match="tables of something else"):
        await Store.open(url)


async def test_postgres_schema_from_a_newer_bot_is_refused(pg_server) -> None:
    url = pg_server.new_schema_url()
    async with await Store.open(url):
        pass
    schema = url.rsplit("search_path=", 1)[1]
    pg_server.psql(f"UPDATE {schema}.gouji_schema_version SET version = {LATEST_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this bot knows"):
        await Store.open(url)


async def test_postgres_failing_migration_leaves_the_schema_at_the_old_version(pg_server) -> None:
    url = pg_server.new_schema_url()
    await build_v1(url)
    broken = [
        load_migrations(POSTGRES_MIGRATIONS_DIR)[0],
        Migration(2, "broken", "CREATE TABLE half_done (x int);\nALTER TABLE nowhere ADD y int;"),
    ]
    with pytest.raises(StoreError, match="to schema version 2 .*stays at version 1"):
        await PostgresDatabase.connect(url, broken)
    db = await PostgresDatabase.connect(url, broken[:1])
    try:
        assert await db.schema_version() == 1
        assert "half_done" not in await db.table_names()
    finally:
        await db.close()
    async with await Store.open(url) as store:  # the shipped migrations still apply
        assert await store.schema_version() == LATEST_VERSION


async def test_postgres_processes_starting_at_once_upgrade_once(pg_server) -> None:
    url = pg_server.new_schema_url()
    stores = await asyncio.gather(*(Store.open(url) for _ in range(4)))
    for store in stores:
        assert await store.schema_version() == LATEST_VERSION
        await store.close()


async def test_an_unreachable_server_gives_a_clear_error(tmp_path) -> None:
    url = f"postgresql://gouji:secret@/gouji?host={tmp_path}&port=1"
    with pytest.raises(StoreError, match="cannot connect to .*check GOUJI_DATABASE_URL") as caught:
        await Store.open(url)
    assert "secret" not in str(caught.value)


# --- choosing the backend ------------------------------------------------------------------


def test_the_url_comes_from_gouji_database_url_then_gouji_db() -> None:
    assert database_url({}) == "sqlite:///gouji.db"
    assert database_url({"GOUJI_DB": "/var/x.db"}) == "sqlite:////var/x.db"
    both = {"GOUJI_DB": "/var/x.db", "GOUJI_DATABASE_URL": "postgresql://h/db"}
    assert database_url(both) == "postgresql://h/db"


@pytest.mark.parametrize(
    ("target", "path"),
    [
        ("sqlite:///gouji.db", "gouji.db"),
        ("sqlite:////abs/g.db", "/abs/g.db"),
        ("x/g.db", "x/g.db"),
    ],
)
def test_sqlite_urls_and_paths_name_the_file(target, path) -> None:
    assert sqlite_path(target) == path


@pytest.mark.parametrize("target", ["mysql://h/db", "sqlite://gouji.db"])
def test_an_unknown_url_is_refused_with_the_forms_that_work(target) -> None:
    with pytest.raises(StoreError, match="use sqlite:///PATH .* or postgresql://"):
        sqlite_path(target)


def test_passwords_stay_out_of_messages() -> None:
    assert (
        redact("postgresql://gouji:s3cret@db:5432/gouji") == "postgresql://gouji:***@db:5432/gouji"
    )
    assert redact("postgresql://db/gouji") == "postgresql://db/gouji"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://gouji:p@ss@db/gouji", "postgresql://gouji:***@db/gouji"),
        ("postgresql://gouji:a@b:c@db:5432/gouji", "postgresql://gouji:***@db:5432/gouji"),
        ("postgresql://db/gouji?user=gouji&password=s3cret", "postgresql://db/gouji?user=gouji&password=***"),
        ("postgresql:///gouji?host=/run/pg&PASSWORD=s3cret&sslmode=require",
         "postgresql:///gouji?host=/run/pg&PASSWORD=***&sslmode=require"),
        ("postgresql://u:x@db/g?sslpassword=k3y", "postgresql://u:***@db/g?sslpassword=***"),
    ],
)  # fmt: skip
def test_passwords_with_an_at_sign_or_in_the_query_stay_out_of_messages(url, shown) -> None:
    assert redact(url) == shown
    assert "s3cret" not in redact(url) and "ss@" not in redact(url)


async def test_open_store_takes_the_environment(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("GOUJI_DATABASE_URL", f"sqlite:///{tmp_path / 'url.db'}")
    monkeypatch.setenv("GOUJI_DB", str(tmp_path / "path.db"))
    async with await open_store() as store:
        assert (store.path, store.backend) == (str(tmp_path / "url.db"), "sqlite")


async def test_postgres_store_reconnects_after_losing_its_connection(pg_server) -> None:
    async with await Store.open(pg_server.new_schema_url()) as store:
        table = await store.create_table(1, 2, 3, {})
        pg_server.psql(  # waits until the bot's server process is gone
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
            "WHERE application_name = 'gouji'"
        )
        try:
            await store.get_table(table.id)  # the call that finds the connection lost, if any
        except StoreError as exc:
            assert "failed" in str(exc)
        assert (await store.get_table(table.id)).id == table.id  # connected again
