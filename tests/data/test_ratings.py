"""Ratings in the store (data/ratings.py), on SQLite and PostgreSQL: every recorded game
rates its six seats, in its transaction; a rebuild computes exactly the same numbers; a
restart loses nothing; servers are separate; leavers lose; an AI level is one player."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence

import pytest

from data import ProfileUpdate, Store, ai_player, user_player
from data.postgres import POSTGRES_MIGRATIONS_DIR, PostgresDatabase
from data.ratings import MODEL
from data.schema import load_migrations
from engine.rating import Entry, Rating, rate_game

from .conftest import dealt_hands, raw_sql, raw_sqlite, sqlite_file

Seats = list[int | str]  # a user id, or an AI kind
CHANNELS = itertools.count(100)  # a channel of its own per table (one active table each)


async def play(
    store: Store,
    seats: Sequence[int | str],
    places: list[int],
    *,
    guild: int = 1,
    left: tuple[int, ...] = (),
    table_id: int | None = None,
) -> int:
    """Record a finished game of ``seats`` at a table (a new one unless ``table_id``); the
    deal's id."""
    if table_id is None:
        table = await store.create_table(guild, next(CHANNELS), 5000, {})
        table_id = table.id
        for seat, who in enumerate(seats):
            if isinstance(who, int):
                await store.set_seat(table_id, seat, user_id=who)
            else:
                await store.set_seat(table_id, seat, ai_kind=who)
    await store.set_table_status(table_id, "playing")
    series = await store.start_series(table_id)
    game = await store.start_game(series.id, 7, dealt_hands(7))
    updates = [
        ProfileUpdate(who, 0, places[seat] if places else None, leaves=int(seat in left))
        for seat, who in enumerate(seats)
        if isinstance(who, int)
    ]
    assert await store.record_game_result(guild, game.id, updates, {"places": places})
    return game.id


def entries(
    seats: Sequence[int | str], places: list[int], left: tuple[int, ...] = ()
) -> list[Entry]:
    return [
        Entry(user_player(w) if isinstance(w, int) else ai_player(w), places[s], s in left)
        for s, w in enumerate(seats)
    ]


async def dump(store: Store, url: str, guild: int = 1) -> tuple[list, list]:
    """A server's ratings and rating changes, exactly as stored."""
    board = await store.rating_board(guild, limit=1000)
    async with raw_sql(url) as db:
        changes = await db.fetch(
            "SELECT series_id, changes FROM series_ratings WHERE guild_id = ? ORDER BY series_id",
            (guild,),
        )
    return [(r.player, r.rating, r.rank) for r in board], [tuple(c) for c in changes]


SIX = [11, 12, 13, 14, 15, 16]


async def test_a_finished_game_rates_its_six_players(store) -> None:
    seats: Seats = [11, 12, 13, 14, 15, "expert"]
    await play(store, seats, [1, 2, 3, 4, 5, 6])
    expected = rate_game({}, entries(seats, [1, 2, 3, 4, 5, 6]), MODEL)
    for seat, who in enumerate(seats):
        key = user_player(who) if isinstance(who, int) else ai_player(who)
        rating = await store.player_rating(1, key)
        assert rating is not None and rating.rating == expected[key], seat
        assert rating.players == 6 and rating.rating.games == 1
    assert (await store.player_rating(1, "ai:expert")).ai_kind == "expert"
    assert (await store.player_rating(1, "11")).user_id == 11
    assert await store.player_rating(1, user_player(99)) is None


async def test_a_result_recorded_twice_rates_once(store, db_url) -> None:
    game_id = await play(store, SIX, [1, 2, 3, 4, 5, 6])
    before = await dump(store, db_url)
    again = [ProfileUpdate(11, 0, 1)]
    assert not await store.record_game_result(1, game_id, again, {"places": [1, 2, 3, 4, 5, 6]})
    assert await dump(store, db_url) == before


def random_games(rng: random.Random, count: int) -> list[tuple[Seats, list[int], tuple[int, ...]]]:
    """Games of eight people and the three AI levels: AI levels on several seats, leavers,
    and games that cannot be rated (no places)."""
    out = []
    for _ in range(count):
        seats: Seats = list(rng.sample(range(21, 29), rng.randint(2, 6)))
        seats += [rng.choice(["hint", "expert", "strong"]) for _ in range(6 - len(seats))]
        rng.shuffle(seats)
        places = rng.sample(range(1, 7), 6)
        humans = [s for s in range(6) if isinstance(seats[s], int)]
        left = tuple(rng.sample(humans, 1)) if rng.random() < 0.15 else ()
        out.append((seats, places if rng.random() > 0.05 else [], left))
    return out


async def test_a_rebuild_equals_the_incremental_updates(store, db_url) -> None:
    games = random_games(random.Random(5), 40)
    for seats, places, left in games:
        await play(store, seats, places, left=left)
    incremental = await dump(store, db_url)
    report = await store.rebuild_ratings()
    assert (report.guilds, report.results) == (1, 40)
    assert report.rated == sum(1 for _, places, _ in games if places) == len(incremental[1])
    assert await dump(store, db_url) == incremental  # the same floats, to the last bit
    # and both are the fold of the engine's rating over the games, in order
    ratings: dict[str, Rating] = {}
    for seats, places, left in games:
        if places:
            ratings.update(rate_game(ratings, entries(seats, places, left), MODEL))
    assert {player: rating for player, rating, _ in incremental[0]} == ratings


async def test_a_restart_loses_nothing(db_url) -> None:
    async with await Store.open(db_url) as store:
        for seats, places, left in random_games(random.Random(6), 12):
            await play(store, seats, places, left=left)
        before = await dump(store, db_url)
    async with await Store.open(db_url) as store:
        assert await dump(store, db_url) == before
        await play(store, [21, 22, 23, 24, "hint", "hint"], [6, 5, 4, 3, 2, 1])
        after = await dump(store, db_url)
        await store.rebuild_ratings()
        assert await dump(store, db_url) == after


async def test_ratings_per_server_are_separate(store) -> None:
    await play(store, SIX, [1, 2, 3, 4, 5, 6], guild=1)
    await play(store, SIX, [6, 1, 4, 3, 2, 5], guild=2)
    await play(store, [11, 12, 13, 14, "hint", "hint"], [6, 1, 4, 3, 2, 5], guild=2)
    one, two = await store.player_rating(1, "11"), await store.player_rating(2, "11")
    assert one is not None and two is not None
    assert one.rating.games == 1 and two.rating.games == 2
    assert one.rating.mu > 25 > two.rating.mu  # 头科 on server 1, 大落 twice on server 2
    assert await store.player_rating(1, "ai:hint") is None
    assert one.players == 6 and two.players == 7
    await store.rebuild_ratings(1)
    assert await store.player_rating(2, "11") == two


async def test_a_leaver_loses_the_game_for_their_team(store) -> None:
    # seats 0, 2, 4 take 头科, 二科, 三科 — and seat 2 left: their team is ranked last
    await play(store, SIX, [1, 4, 2, 5, 3, 6], guild=1)
    await play(store, SIX, [1, 4, 2, 5, 3, 6], guild=2, left=(2,))
    played = [await store.player_rating(1, user_player(u)) for u in SIX]
    left = [await store.player_rating(2, user_player(u)) for u in SIX]
    assert played[2].rating.mu > 25 > left[2].rating.mu  # 二科 counts for nothing: they left
    for seat in range(6):
        if seat % 2 == 0:
            assert left[seat].rating.mu < played[seat].rating.mu
        else:
            assert left[seat].rating.mu > played[seat].rating.mu
            assert left[seat].rating.mu > 25
    assert left[0].rating.mu > left[2].rating.mu > left[4].rating.mu  # in their places' order


async def test_each_ai_level_is_one_player_per_server(store) -> None:
    await play(store, [11, "hint", 12, "hint", 13, "strong"], [1, 2, 3, 4, 5, 6])
    hint = await store.player_rating(1, ai_player("hint"))
    assert hint is not None and hint.rating.games == 1
    board = await store.rating_board(1)
    assert sorted(r.player for r in board) == ["11", "12", "13", "ai:hint", "ai:strong"]


async def test_a_game_without_six_places_is_not_rated(store) -> None:
    await play(store, SIX, [])
    assert await store.rating_board(1) == []
    await play(store, SIX, [1, 2, 3, 4, 5, 6])
    assert (await store.player_rating(1, "11")).rating.games == 1


async def test_the_board_is_in_rating_order_with_ranks(store) -> None:
    for _ in range(3):
        await play(store, SIX, [1, 2, 3, 4, 5, 6])  # the same places three times
    board = await store.rating_board(1)
    assert [r.rank for r in board] == [1, 2, 3, 4, 5, 6]
    assert [r.player for r in board] == ["11", "12", "13", "14", "15", "16"]
    figures = [r.rating.ordinal for r in board]
    assert figures == sorted(figures, reverse=True)
    second = await store.rating_board(1, limit=2, offset=2)
    assert [(r.player, r.rank) for r in second] == [(r.player, r.rank) for r in board[2:4]]
    for row in board:
        assert (await store.player_rating(1, row.player)).rank == row.rank


async def test_series_rating_changes_add_up_its_games(store) -> None:
    table = await store.create_table(1, 100, 5000, {})
    for seat, user in enumerate(SIX):
        await store.set_seat(table.id, seat, user_id=user)
    await store.set_table_status(table.id, "playing")
    series = await store.start_series(table.id)
    for number, places in enumerate(([1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5]), start=1):
        game = await store.start_game(series.id, number, dealt_hands(number))
        updates = [ProfileUpdate(u, 0, places[s]) for s, u in enumerate(SIX)]
        await store.record_game_result(1, game.id, updates, {"places": places})
    await play(store, SIX, [1, 2, 3, 4, 5, 6], table_id=table.id)  # the next series
    changes = await store.series_rating_changes(series.id)
    assert set(changes) == {user_player(u) for u in SIX}
    first = rate_game({}, entries(SIX, [1, 2, 3, 4, 5, 6]), MODEL)
    second = rate_game(first, entries(SIX, [2, 1, 4, 3, 6, 5]), MODEL)
    for user in SIX:
        change = changes[user_player(user)]
        assert change.games == 2
        assert change.after == pytest.approx(second[user_player(user)].ordinal)
        assert change.change == pytest.approx(second[user_player(user)].ordinal)  # from 0
    assert await store.series_rating_changes(999) == {}


async def test_ratings_of_another_model_are_rebuilt_when_read(store, db_url) -> None:
    await play(store, SIX, [1, 2, 3, 4, 5, 6])
    before = await dump(store, db_url)
    async with raw_sql(db_url) as db:
        await db.execute("UPDATE rating_state SET model = 'an older model'")
        await db.execute("UPDATE ratings SET mu = 0")
    assert await dump(store, db_url) == before
    async with raw_sql(db_url) as db:
        (model,) = (await db.fetch("SELECT model FROM rating_state"))[0]
    assert model == MODEL.name


async def test_ratings_that_lag_behind_are_rebuilt_with_the_next_result(store, db_url) -> None:
    await play(store, SIX, [1, 2, 3, 4, 5, 6])
    async with raw_sql(db_url) as db:
        await db.execute("DELETE FROM rating_state")
        await db.execute("DELETE FROM ratings")
    await play(store, SIX, [2, 1, 4, 3, 6, 5])
    after = await dump(store, db_url)
    assert [len(after[1])] == [2]
    await store.rebuild_ratings()
    assert await dump(store, db_url) == after


async def test_the_lineup_is_kept_with_the_result(store, db_url) -> None:
    game_id = await play(store, [11, 12, 13, 14, 15, "strong"], [3, 1, 6, 2, 4, 5], left=(2,))
    async with raw_sql(db_url) as db:
        ((text, seq),) = await db.fetch(
            "SELECT lineup, seq FROM game_results WHERE game_id = ?", (game_id,)
        )
    assert seq == 1
    lineup = json.loads(text)
    assert lineup[0] == {"seat": 0, "user": 11, "left": False, "place": 3}
    assert lineup[2]["left"] is True
    assert lineup[5] == {"seat": 5, "ai": "strong", "place": 5}


# --- results recorded before ratings (schema version 6) --------------------------------


async def build_v6_with_results(url: str) -> None:
    """A database at schema version 6 with two finished games of one table: five people
    and an expert AI, one of them leaving in the second game."""
    rows = [
        "INSERT INTO tables (id, guild_id, channel_id, creator_id, status, created_at, "
        "updated_at) VALUES (1, 10, 20, 30, 'lobby', 1, 1)",
        *[
            f"INSERT INTO seats (table_id, seat, user_id, ai_kind) VALUES (1, {s}, "
            + ("NULL, 'expert')" if s == 5 else f"{100 + s}, NULL)")
            for s in range(6)
        ],
        "INSERT INTO series (id, table_id, number, created_at, updated_at) VALUES (1, 1, 1, 1, 1)",
    ]
    results = [([1, 2, 3, 4, 5, 6], ()), ([2, 1, 4, 3, 6, 5], (100,))]
    for game, (places, left) in enumerate(results, start=1):
        hands = json.dumps(dealt_hands(game))
        updates = json.dumps(
            [
                {"user_id": 100 + s, "score_delta": 0, "place": places[s], "opens": 0,
                 "burns": 0, "stifles": 0, "leaves": int(100 + s in left)}
                for s in range(5)
            ]
        )  # fmt: skip
        rows += [
            "INSERT INTO games (id, series_id, number, seed, hands, status, result, created_at, "
            f"updated_at) VALUES ({game}, 1, {game}, {game}, '{hands}', 'finished', "
            f"'{json.dumps({'places': places})}', 1, 1)",
            "INSERT INTO game_results (game_id, guild_id, updates, applied_at) VALUES "
            f"({game}, 10, '{updates}', {10 - game})",  # the clock went back: the seq follows it
        ]
    path = sqlite_file(url)
    if path is not None:
        with raw_sqlite(path) as conn:
            for migration in load_migrations()[:6]:
                conn.executescript(migration.script())
            for sql in rows:
                conn.execute(sql)
        return
    db = await PostgresDatabase.connect(url, load_migrations(POSTGRES_MIGRATIONS_DIR)[:6])
    try:
        async with db.transaction():
            for sql in rows:
                await db.execute(sql)
    finally:
        await db.close()


async def test_results_recorded_before_ratings_are_rated_after_the_upgrade(db_url) -> None:
    await build_v6_with_results(db_url)
    async with await Store.open(db_url) as store:
        board = {r.player: r.rating for r in await store.rating_board(10)}
    seats: Seats = [100, 101, 102, 103, 104, "expert"]
    expected: dict[str, Rating] = {}
    # game 2 was recorded at time 8, game 1 at 9: game 2 is rated first
    for places, left in (([2, 1, 4, 3, 6, 5], (0,)), ([1, 2, 3, 4, 5, 6], ())):
        expected.update(rate_game(expected, entries(seats, places, left), MODEL))
    assert board == expected
    async with raw_sql(db_url) as db:
        rows = await db.fetch("SELECT game_id, seq, lineup FROM game_results ORDER BY game_id")
    assert [(g, s) for g, s, _ in rows] == [(1, 2), (2, 1)]
    lineup = sorted(json.loads(rows[1][2]), key=lambda e: e["seat"])
    assert lineup[0] == {"seat": 0, "user": 100, "place": 2, "left": True}
    assert lineup[5] == {"seat": 5, "ai": "expert", "place": 5}
