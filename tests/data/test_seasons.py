"""Seasons in the store (data/seasons.py), on SQLite and PostgreSQL: a new season starts at
zero, the past season's board is kept, the all-time figures are unchanged; a server that
never started one is in season 1 with its all-time figures; the migration from version 9
keeps every existing rating as the first season."""

from __future__ import annotations

import itertools
import random

import pytest

from data import ProfileUpdate, Store
from data.errors import NotFoundError
from data.postgres import VERSION_TABLE
from engine.scoring import PLACE_POINTS

from .conftest import dealt_hands, raw_sql, sqlite_file

CHANNELS = itertools.count(300)
PEOPLE = list(range(40, 52))


async def play(store: Store, seats: list[int | str], places: list[int], guild: int = 1) -> None:
    """A finished game: each person scores their team's place points."""
    table = await store.create_table(guild, next(CHANNELS), 5000, {})
    for seat, who in enumerate(seats):
        if isinstance(who, int):
            await store.set_seat(table.id, seat, user_id=who)
        else:
            await store.set_seat(table.id, seat, ai_kind=who)
    await store.set_table_status(table.id, "playing")
    series = await store.start_series(table.id)
    game = await store.start_game(series.id, 7, dealt_hands(7))
    team = [sum(PLACE_POINTS[places[s]] for s in range(6) if s % 2 == t) for t in (0, 1)]
    updates = [
        ProfileUpdate(who, team[seat % 2], places[seat])
        for seat, who in enumerate(seats)
        if isinstance(who, int)
    ]
    assert await store.record_game_result(guild, game.id, updates, {"places": places})
    await store.set_table_status(table.id, "finished")


async def play_some(store: Store, games: int, seed: int, guild: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        seats: list[int | str] = [*rng.sample(PEOPLE, 5), "hint"]
        rng.shuffle(seats)
        places = list(range(1, 7))
        rng.shuffle(places)
        await play(store, seats, places, guild)


async def all_time(store: Store, guild: int = 1) -> tuple[list, list]:
    board = await store.leaderboard(guild, limit=100)
    ratings = await store.rating_board(guild, limit=100)
    return board, [(r.player, r.rating) for r in ratings]


async def test_season_one_is_everything_then_a_new_season_starts_at_zero(store: Store) -> None:
    await play_some(store, 8, seed=1)
    (first,) = await store.seasons(1)
    assert (first.number, first.started_at, first.current) == (1, None, True)
    before = await all_time(store)
    board = await store.season_board(1)
    assert list(board.profiles) == before[0]  # the same Profile rows, in the same order
    assert sorted((p, r) for p, r in board.ratings.items()) == sorted(before[1])

    second = await store.start_season(1)
    assert second.number == 2 and second.current
    fresh = await store.season_board(1)
    assert fresh.profiles == () and fresh.ratings == {}  # at zero
    kept = await store.season_board(1, 1)
    assert kept.season.ended_at is not None
    assert kept.profiles == board.profiles and kept.ratings == board.ratings
    assert await all_time(store) == before  # the all-time figures stay

    await play_some(store, 3, seed=2)
    now = await store.season_board(1)
    assert sum(p.games for p in now.profiles) == 15  # three games of five people
    assert await store.season_board(1, 1) == kept  # the past board does not move
    everything = await store.leaderboard(1, limit=100)
    by_user = {p.user_id: p for p in everything}
    for p in now.profiles:  # all-time = season 1 + season 2
        old = kept.profile(p.user_id)
        assert by_user[p.user_id].score == p.score + (old.score if old else 0)
        assert by_user[p.user_id].games == p.games + (old.games if old else 0)
    assert [s.number for s in await store.seasons(1)] == [1, 2]
    with pytest.raises(NotFoundError):
        await store.season_board(1, 3)


async def test_servers_have_seasons_of_their_own_and_the_monthly_switch(store: Store) -> None:
    await play_some(store, 2, seed=3, guild=1)
    await play_some(store, 2, seed=4, guild=2)
    await store.start_season(1)
    assert (await store.current_season(2)).number == 1
    assert len((await store.season_board(2)).profiles) > 0
    await store.set_monthly_seasons(2, True)
    await store.set_monthly_seasons(3, True)
    await store.set_monthly_seasons(3, False)
    assert await store.monthly_season_guilds() == [2]


async def test_the_migration_keeps_every_rating_as_the_first_season(db_url: str) -> None:
    async with await Store.open(db_url) as store:
        await play_some(store, 10, seed=5)
        await play_some(store, 4, seed=6, guild=2)
        before = {g: await all_time(store, g) for g in (1, 2)}
    async with raw_sql(db_url) as db:  # the database as version 9 left it
        await db.execute("DROP TABLE seasons")
        await db.execute("DROP TABLE season_settings")
        if sqlite_file(db_url) is None:
            await db.execute(f"UPDATE {VERSION_TABLE} SET version = 9")
    if (path := sqlite_file(db_url)) is not None:
        import sqlite3

        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA user_version = 9")
    async with await Store.open(db_url) as store:
        for guild in (1, 2):
            (season,) = await store.seasons(guild)
            assert season.number == 1 and season.started_at is not None and season.current
            board = await store.season_board(guild)
            board_all, ratings = before[guild]
            assert list(board.profiles) == board_all
            assert sorted(board.ratings.items()) == sorted(ratings)
            assert await all_time(store, guild) == before[guild]
