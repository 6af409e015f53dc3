"""The queries of 录像 and 复盘: a server's (a channel's) finished deals, latest first, and the
people a finished deal counted for. A deal still played is never among them."""

from __future__ import annotations

from data import ProfileUpdate, Store

from .conftest import new_game


async def test_finished_games_are_listed_latest_first_by_server_and_channel(store: Store) -> None:
    table, _, first = await new_game(store, guild_id=1, channel_id=100)
    await store.set_table_status(table.id, "finished")  # a channel's next table, after it
    _, _, playing = await new_game(store, guild_id=1, channel_id=100, seed=8)
    _, _, other_channel = await new_game(store, guild_id=1, channel_id=101, seed=9)
    _, _, other_guild = await new_game(store, guild_id=2, channel_id=200, seed=10)
    for guild, game in ((1, first), (1, other_channel), (2, other_guild)):
        await store.record_game_result(guild, game.id, [ProfileUpdate(7, 0, 2)], {"places": []})
    assert [g.game_id for g in await store.finished_games(1)] == [other_channel.id, first.id]
    assert [g.game_id for g in await store.finished_games(1, 100)] == [first.id]
    assert [g.game_id for g in await store.finished_games(1, limit=1)] == [other_channel.id]
    found = await store.finished_game(first.id)
    assert found is not None and (found.guild_id, found.channel_id, found.number) == (1, 100, 1)
    assert await store.finished_game(playing.id) is None
    assert await store.finished_game(99999) is None


async def test_game_players_are_the_people_of_its_result(store: Store) -> None:
    _, _, game = await new_game(store)
    assert await store.game_players(game.id) == {}
    updates = [ProfileUpdate(7, 3, 1), ProfileUpdate(8, -3, None)]
    await store.record_game_result(1, game.id, updates, {"places": []})
    assert await store.game_players(game.id) == {7: 1, 8: None}
