"""Restoring open tables at start-up; a damaged table is set aside, the others load."""

from __future__ import annotations

import pytest

from data import ProfileUpdate, Store

from .conftest import dealt_hands, new_game, raw_sql, sqlite_file


async def test_active_tables_come_back_with_seats_series_and_every_deal(store: Store) -> None:
    table, series, first = await new_game(store, seed=1)
    await store.set_seat(table.id, 0, user_id=50)
    await store.set_seat(table.id, 3, ai_kind="strong")
    await store.append_actions(first.id, ["0 nodeclare", "1 revolt", "2 revolt"])
    await store.void_game(first.id)
    redeal = await store.start_game(series.id, 2, dealt_hands(2))
    await store.append_actions(redeal.id, ["0 declare", "1 nodeclare", "0 play 9s"])
    lobby = await store.create_table(1, 101, 5, {})
    ended = await store.create_table(1, 102, 5, {})
    await store.set_table_status(ended.id, "ended")

    report = await store.load_active_tables()
    assert report.broken == []
    assert [t.table.id for t in report.tables] == [table.id, lobby.id]
    active, waiting = report.tables
    assert active.table == await store.get_table(table.id)
    assert active.seats == tuple(await store.get_seats(table.id))
    assert active.series == await store.get_series(series.id)
    assert [(g.game.id, g.game.status, g.game.deal) for g in active.games] == [
        (first.id, "void", 1),
        (redeal.id, "playing", 2),
    ]
    assert active.games[1].game.hands == tuple(dealt_hands(2))
    assert active.games[1].actions == ("0 declare", "1 nodeclare", "0 play 9s")
    assert (waiting.series, waiting.games) == (None, ())


async def test_only_the_latest_series_is_loaded(store: Store) -> None:
    table, old, game = await new_game(store)
    await store.append_action(game.id, "0 nodeclare")
    await store.record_game_result(1, game.id, [ProfileUpdate(1, 0, 1)], {})
    await store.finish_series(old.id, [0] * 6)
    new = await store.start_series(table.id)
    (active,) = (await store.load_active_tables()).tables
    assert active.series is not None
    assert (active.series.id, active.games) == (new.id, ())


async def damage_action_gap(conn, game_id):
    await conn.execute("DELETE FROM actions WHERE game_id = ? AND idx = 1", (game_id,))


async def damage_truncated_action(conn, game_id):
    await conn.execute(
        "UPDATE actions SET action = '0 pla' WHERE game_id = ? AND idx = 2", (game_id,)
    )


async def damage_bad_cards(conn, game_id):
    await conn.execute(
        "UPDATE actions SET action = '0 play 9s 9z' WHERE game_id = ? AND idx = 2", (game_id,)
    )


async def damage_options_json(conn, game_id):
    await conn.execute(
        "UPDATE tables SET options = '{\"bie_san\": tr' WHERE id = "
        "(SELECT table_id FROM series WHERE id = (SELECT series_id FROM games WHERE id = ?))",
        (game_id,),
    )


async def damage_hands_null(conn, game_id):
    await conn.execute("UPDATE games SET hands = 'null' WHERE id = ?", (game_id,))


async def damage_hands_cards(conn, game_id):
    await conn.execute(
        'UPDATE games SET hands = \'["3s","4h","zz","5","6","7"]\' WHERE id = ?', (game_id,)
    )


async def damage_seed_text(conn, game_id):
    if conn.kind != "sqlite":
        pytest.skip("only SQLite lets text into an integer column")
    await conn.execute("UPDATE games SET seed = 'lucky' WHERE id = ?", (game_id,))


async def damage_missing_seat(conn, game_id):
    await conn.execute(
        "DELETE FROM seats WHERE seat = 4 AND table_id = "
        "(SELECT table_id FROM series WHERE id = (SELECT series_id FROM games WHERE id = ?))",
        (game_id,),
    )


async def damage_series_options(conn, game_id):
    await conn.execute(
        "UPDATE series SET options = '[1, 2]' WHERE id = (SELECT series_id FROM games WHERE id = ?)",
        (game_id,),
    )


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (damage_action_gap, "action 1 is missing from the log (it jumps from 0 to 2)"),
        (damage_truncated_action, "action 2: action '0 pla'"),
        (damage_bad_cards, "not card notation"),
        (damage_options_json, "options is not valid JSON"),
        (damage_hands_null, "hands is NULL"),
        (damage_hands_cards, "seat 2 is not card notation"),
        (damage_seed_text, "seed should be an integer, not 'lucky'"),
        (damage_missing_seat, "seats [4] are missing"),
        (damage_series_options, "options should be a JSON dict"),
    ],
)
async def test_a_damaged_table_is_marked_broken_and_the_others_load(db_url, damage, reason) -> None:
    async with await Store.open(db_url) as store:
        games = [await new_game(store, channel_id=100 + i, seed=i) for i in range(3)]
        for _table, _series, game in games:
            await store.append_actions(
                game.id, ["0 nodeclare", "1 nodeclare", "0 play 9s 9h", "1 pass"]
            )
    victim_table, _series, victim_game = games[1]
    async with raw_sql(db_url) as conn:
        await damage(conn, victim_game.id)

    async with await Store.open(db_url) as store:
        report = await store.load_active_tables()
        assert [t.table.id for t in report.tables] == [games[0][0].id, games[2][0].id]
        assert all(len(t.games[0].actions) == 4 for t in report.tables)
        (broken,) = report.broken
        assert (broken.table_id, broken.guild_id, broken.channel_id) == (victim_table.id, 1, 101)
        assert broken.reason.startswith(f"table {victim_table.id} cannot be restored: ")
        assert reason in broken.reason
        # the verdict is kept: the table is no longer active, its reason is on record
        again = await store.load_active_tables()
        assert (len(again.tables), again.broken) == (2, [])
    async with raw_sql(db_url) as conn:
        ((status, stored_reason),) = await conn.fetch(
            "SELECT status, broken_reason FROM tables WHERE id = ?", (victim_table.id,)
        )
    assert (status, stored_reason) == ("broken", broken.reason)


async def test_mark_broken_takes_a_table_out_of_the_load(store: Store) -> None:
    table, _series, _game = await new_game(store)
    other, _s, _g = await new_game(store, channel_id=200)
    await store.mark_broken(table.id, "replay failed at action 3: seat 4 may not answer")
    report = await store.load_active_tables()
    assert [t.table.id for t in report.tables] == [other.id]
    assert report.broken == []


async def test_a_bad_seat_number_is_reported_as_such(db_url) -> None:
    async with await Store.open(db_url) as store:
        table, _series, _game = await new_game(store)
    async with raw_sql(db_url) as conn:
        if sqlite_file(db_url):
            await conn.execute("PRAGMA ignore_check_constraints = ON")
        else:
            await conn.execute("ALTER TABLE seats DROP CONSTRAINT seats_seat_check")
        await conn.execute("UPDATE seats SET seat = 9 WHERE table_id = ? AND seat = 5", (table.id,))
    async with await Store.open(db_url) as store:
        (broken,) = (await store.load_active_tables()).broken
    assert "seat number is 9, not one of 0, 1, 2, 3, 4, 5" in broken.reason
