"""``gouji db copy``: a whole database from SQLite to PostgreSQL and back, ids and all."""

from __future__ import annotations

import asyncio

import pytest

from data import ENGINE, ProfileUpdate, Store, StoreError
from data.backend import rows_in_batches
from data.connect import connect
from data.copy import TABLES, copy_database, main
from engine.actions import Action
from engine.series import Series
from engine.tournament import Config, Format, seat_round, standings

from .conftest import dealt_hands, new_game


def engine_series(seed: int, actions: list[str]) -> Series:
    """The engine's series of one deal of ``seed`` with ``actions`` applied."""
    series = Series()
    series.start_game(dealt_hands(seed), seed)
    for text in actions:
        series.apply(Action.parse(text))
    return series


async def fill(store: Store) -> None:
    """A bit of everything: settings, a played and a void deal, a live table with a
    snapshot, a broken one, a claimed one, profiles, ratings, a process instance."""
    await store.set_language(1, "en")
    await store.set_table_defaults(1, {"bie_san": True})
    await store.set_channel_allowed(1, 100, True)
    table, series, game = await new_game(store, seed=3)
    await store.set_seat(table.id, 0, user_id=50, ai_kind="strong", standin=True)
    await store.append_actions(game.id, ["0 nodeclare", "1 revolt", "2 revolt"])
    await store.void_game(game.id)
    redeal = await store.start_game(series.id, 4, dealt_hands(4))
    await store.append_actions(redeal.id, ["0 nodeclare", "1 nodeclare", "0 play 9s"])
    await store.record_game_result(1, redeal.id, [ProfileUpdate(50, 3, 1, opens=1)], {"x": 1})
    rated, _s, rated_game = await new_game(store, channel_id=103, seed=6)
    for seat in range(6):
        await store.set_seat(rated.id, seat, user_id=60 + seat if seat else None, ai_kind="hint")
    places = {"places": [1, 2, 3, 4, 5, 6]}
    await store.record_game_result(1, rated_game.id, [ProfileUpdate(61, 2, 2)], places)
    await store.set_table_status(rated.id, "finished")
    live, _s, live_game = await new_game(store, channel_id=101, seed=5)
    await store.append_action(live_game.id, "0 declare")
    await store.save_snapshot(live_game.id, engine_series(5, ["0 declare"]))
    await store.set_turn_deadline(live.id, 1234.5)
    broken = await store.create_table(1, 102, 9, {})
    await store.mark_broken(broken.id, "cannot replay")
    await store.claim_table(live.id, "shard 0")
    await store.incarnate("all shards @ host-1")
    await fill_tournament(store, live.id)
    await store.start_season(1)  # season 1 kept with its board, season 2 current
    await store.set_monthly_seasons(1, True)


async def fill_tournament(store: Store, table_id: int) -> None:
    """An event of six at one table (data/tournaments.py), its table played at ``table_id``."""
    config = Config(name="周赛", format=Format.SWISS, rounds=2)
    event = await store.create_tournament(1, 100, 9, config)
    for user in range(70, 76):
        await store.join_tournament(event.id, user)
    plan = seat_round(config, 1, standings(config, range(70, 76), []), [])
    await store.seat_tournament_round(event.id, plan)
    await store.set_tournament_table(event.id, 1, 1, table_id=table_id, status="playing")


async def dump(url: str) -> dict[str, list[tuple]]:
    """Every row of every table, in key order."""
    db = await connect(url)
    try:
        out = {}
        for name, key in TABLES:
            columns = sorted(await db.column_names(name))
            out[name] = [
                row async for batch in rows_in_batches(db, name, columns, key) for row in batch
            ]
        return out
    finally:
        await db.close()


async def test_sqlite_to_postgres_and_back_copies_everything(tmp_path, pg_server) -> None:
    first, back = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    middle = pg_server.new_schema_url()
    async with await Store.open(first) as store:
        await fill(store)
    original = await dump(first)
    assert all(original[name] for name, _ in TABLES)  # the test fills every table

    kept = {**original, "snapshots": []}  # a cache of the logs: never copied
    copied = await copy_database(first, middle)
    assert copied == {name: len(rows) for name, rows in kept.items() if name != "snapshots"}
    assert await dump(middle) == kept
    assert await copy_database(middle, back) == copied
    assert await dump(back) == kept

    for url in (middle, back):
        async with await Store.open(url) as store:
            report = await store.load_active_tables()
            assert [a.table.channel_id for a in report.tables] == [100, 101]
            assert report.tables[1].table.owner == "shard 0"
            # new rows continue after the copied ids
            table = await store.create_table(1, 103, 1, {})
            assert table.id == len(original["tables"]) + 1
            series = await store.start_series(table.id)
            assert series.id == len(original["series"]) + 1


async def test_a_target_that_holds_rows_is_refused_unless_replaced(tmp_path, db_url) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    async with await Store.open(source) as store:
        await fill(store)
    async with await Store.open(db_url) as store:
        await store.set_language(7, "zh")
    with pytest.raises(StoreError, match=r"not empty \(1 in guild_settings rows\).*--replace"):
        await copy_database(source, db_url)
    assert (await dump(db_url))["guild_settings"][0][0] == 7  # nothing changed
    await copy_database(source, db_url, replace=True)
    assert await dump(db_url) == {**await dump(source), "snapshots": []}


async def test_a_copy_leaves_the_snapshots_behind(tmp_path, db_url) -> None:
    """Snapshots are a cache of the logs, and they are pickles: a database given to
    ``--from`` may hold crafted ones. The copy takes none; the target's tables restore from
    their logs."""
    source = f"sqlite:///{tmp_path / 'source.db'}"
    async with await Store.open(source) as store:
        await fill(store)
        assert (await store.load_active_tables(engine=ENGINE)).tables[1].resume is not None
    copied = await copy_database(source, db_url)
    assert "snapshots" not in copied
    async with await Store.open(db_url) as store:
        (_, live) = (await store.load_active_tables(engine=ENGINE)).tables
        assert live.resume is None and live.games[-1].actions == ("0 declare",)
        restored = await store.restore_series(live)
        assert restored.current is not None and restored.current.game is not None
        assert [str(a) for a in restored.current.game.actions] == ["0 declare"]
    assert not (await dump(db_url))["snapshots"]


async def _create(url: str) -> None:
    async with await Store.open(url):
        pass


def test_the_command_line_reports_the_rows_or_the_refusal(tmp_path, capsys) -> None:
    source, target = f"sqlite:///{tmp_path / 's.db'}", f"sqlite:///{tmp_path / 't.db'}"
    assert main(["--from", source, "--to", target]) == 1  # the source must exist
    assert "there is no database at" in capsys.readouterr().err
    assert not (tmp_path / "s.db").exists() and not (tmp_path / "t.db").exists()
    asyncio.run(_create(source))
    assert main(["--from", source, "--to", target]) == 0
    assert capsys.readouterr().out.startswith(f"copied 0 rows to {target}: 0 guild_settings")
    assert main(["--from", source, "--to", source]) == 1
    assert "are the same database" in capsys.readouterr().err
