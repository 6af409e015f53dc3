"""Profiles: a finished game counts exactly once; the leaderboard order."""

from __future__ import annotations

import pytest

from data import InvalidInputError, NotFoundError, ProfileUpdate, Store

from .conftest import dealt_hands, new_game

RESULT = {"places": [1, 4, 2, 5, 3, 6], "points": [4, 0, 2, -2, 0, -4], "tribute": []}


async def test_a_result_updates_every_profile_and_finishes_the_game(store: Store) -> None:
    _table, _series, game = await new_game(store, guild_id=9)
    updates = [
        ProfileUpdate(11, 6, 1, opens=1, burns=2),
        ProfileUpdate(12, -6, 4, stifles=1),
        ProfileUpdate(13, -16, None, leaves=1),
    ]
    assert await store.record_game_result(9, game.id, updates, RESULT) is True
    first = await store.get_profile(9, 11)
    assert (first.score, first.games, first.places, first.opens, first.burns) == (
        6,
        1,
        (1, 0, 0, 0, 0, 0),
        1,
        2,
    )
    second = await store.get_profile(9, 12)
    assert (second.score, second.places, second.stifles) == (-6, (0, 0, 0, 1, 0, 0), 1)
    leaver = await store.get_profile(9, 13)
    assert (leaver.score, leaver.games, leaver.places, leaver.leaves) == (-16, 1, (0,) * 6, 1)
    finished = await store.get_game(game.id)
    assert (finished.status, finished.result) == ("finished", RESULT)


async def test_recording_the_same_game_twice_counts_once(store: Store) -> None:
    _table, series, game = await new_game(store)
    updates = [ProfileUpdate(11, 6, 1, opens=1)]
    assert await store.record_game_result(1, game.id, updates, RESULT) is True
    assert await store.record_game_result(1, game.id, updates, RESULT) is False
    assert await store.record_game_result(1, game.id, [ProfileUpdate(11, 99, 2)], {}) is False
    profile = await store.get_profile(1, 11)
    assert (profile.score, profile.games, profile.places[0], profile.opens) == (6, 1, 1, 1)
    assert (await store.get_game(game.id)).result == RESULT
    second = await store.start_game(series.id, 8, dealt_hands(8))
    assert await store.record_game_result(1, second.id, [ProfileUpdate(11, -2, 5)], RESULT)
    profile = await store.get_profile(1, 11)
    assert (profile.score, profile.games, profile.places) == (4, 2, (1, 0, 0, 0, 1, 0))


async def test_profiles_are_per_server(store: Store) -> None:
    _t, _s, game_a = await new_game(store, guild_id=1)
    _t, _s, game_b = await new_game(store, guild_id=2)
    await store.record_game_result(1, game_a.id, [ProfileUpdate(11, 6, 1)], RESULT)
    await store.record_game_result(2, game_b.id, [ProfileUpdate(11, -6, 6)], RESULT)
    assert (await store.get_profile(1, 11)).score == 6
    assert (await store.get_profile(2, 11)).score == -6
    nobody = await store.get_profile(1, 99)
    assert (nobody.score, nobody.games, nobody.places) == (0, 0, (0,) * 6)


@pytest.mark.parametrize(
    ("updates", "reason"),
    [
        ([ProfileUpdate(11, 6, 7)], "place must be 1 to 6"),
        ([ProfileUpdate(11, 6, 1), ProfileUpdate(11, 2, 2)], "two profile updates"),
        ([ProfileUpdate(11, 6, 1, burns=-1)], "burns must be an integer"),
        ([ProfileUpdate(11, 6.5, 1)], "score_delta must be an integer"),  # type: ignore[arg-type]
        ([(11, 6, 1)], "must be ProfileUpdate"),
    ],
)
async def test_bad_updates_are_refused_and_change_nothing(store: Store, updates, reason) -> None:
    _table, _series, game = await new_game(store)
    with pytest.raises(InvalidInputError, match=reason):
        await store.record_game_result(1, game.id, updates, RESULT)
    assert (await store.get_profile(1, 11)).games == 0
    assert (await store.get_game(game.id)).status == "playing"
    assert await store.record_game_result(1, game.id, [ProfileUpdate(11, 6, 1)], RESULT)


async def test_results_for_the_wrong_server_or_game_are_refused(store: Store) -> None:
    _table, series, game = await new_game(store, guild_id=1)
    with pytest.raises(InvalidInputError, match="played on server 1, not 2"):
        await store.record_game_result(2, game.id, [ProfileUpdate(11, 6, 1)], RESULT)
    with pytest.raises(NotFoundError):
        await store.record_game_result(1, 999, [ProfileUpdate(11, 6, 1)], RESULT)
    with pytest.raises(InvalidInputError, match="dict"):
        await store.record_game_result(1, game.id, [ProfileUpdate(11, 6, 1)], [1, 2])  # type: ignore[arg-type]  # not a dict, on purpose
    await store.void_game(game.id)
    with pytest.raises(InvalidInputError, match="is void: it has no result"):
        await store.record_game_result(1, game.id, [ProfileUpdate(11, 6, 1)], RESULT)
    assert (await store.get_profile(1, 11)).games == 0
    assert (await store.get_profile(2, 11)).games == 0


async def test_leaderboard_orders_by_score_then_games_then_user(store: Store) -> None:
    # (user, [score of each game]) — several ties on score, one tie on score and games
    players = {30: [5], 31: [3, 2], 32: [10], 33: [3, 2], 34: [-5], 35: [0, 0, 5]}
    _table, series, game = await new_game(store, guild_id=4)
    rounds = max(len(v) for v in players.values())
    for r in range(rounds):
        updates = [ProfileUpdate(u, s[r], 1) for u, s in players.items() if len(s) > r]
        await store.record_game_result(4, game.id, updates, RESULT)
        if r + 1 < rounds:
            game = await store.start_game(series.id, r, dealt_hands(r))
    top = await store.leaderboard(4, limit=5)
    assert [(p.user_id, p.score, p.games) for p in top] == [
        (32, 10, 1),
        (35, 5, 3),
        (31, 5, 2),
        (33, 5, 2),
        (30, 5, 1),
    ]
    assert [p.user_id for p in await store.leaderboard(4, limit=5, offset=5)] == [34]
    assert [await store.rank_of(4, u) for u in (32, 35, 31, 33, 30, 34)] == [1, 2, 3, 4, 5, 6]
    assert await store.rank_of(4, 99) is None
    assert await store.leaderboard(5) == []
    with pytest.raises(InvalidInputError, match="limit"):
        await store.leaderboard(4, limit=0)
