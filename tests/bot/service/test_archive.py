"""The read side and its privacy rules: only finished deals are loaded for a replay (and their
record stops there), never a game in progress in a record file; profiles, the leaderboard and
server settings."""

from __future__ import annotations

import json

import pytest

from bot.service.errors import UserError
from engine.replay_steps import Replay

from .helpers import CHANNEL, GUILD, HUMANS, make_service, seated_table, user_at


async def _into_game(service, live, number: int) -> None:
    """Play by the hint until game ``number`` of the series is being played."""
    while live.current.number < number or live.current.game is None:
        await service.settle(live)
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        await service.act_hint(live, user_at(live, seat))
    await service.settle(live)


async def test_only_a_finished_deal_is_loaded_and_its_record_stops_there(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    playing = live.game_id
    assert playing is not None
    with pytest.raises(UserError) as refused:
        await service.archive.finished_deal(playing)
    assert refused.value.key == "replay_unfinished"
    await _into_game(service, live, 3)
    games = await service.archive.finished_games(GUILD)
    assert [g.number for g in games] == [2, 1]  # the latest first
    assert await service.archive.last_finished(GUILD, CHANNEL) == games[0]
    in_progress = " ".join(str(c) for c in live.current.dealt[0])
    first = await service.archive.finished_deal(games[1].game_id, GUILD)
    assert [g["hands"] for g in first.record["games"]][-1] == list(
        (await store.get_game(games[1].game_id)).hands
    )
    assert in_progress not in json.dumps(first.record)
    second = await service.archive.finished_deal(games[0].game_id)
    dealt = sum(1 for d in live.running.deals if d.number <= 2)  # void deals too
    assert len(second.record["games"]) == dealt  # not the one being played
    assert in_progress not in json.dumps(second.record)
    replay = Replay.from_record(second.record, 2)
    last = live.running.deals[-2].game
    assert last is not None and list(replay.final.places) == list(last.places)
    assert second.seats == {user: seat for seat, user in enumerate(HUMANS)}
    for unknown, guild in ((10**9, None), (games[0].game_id, GUILD + 1)):
        with pytest.raises(UserError) as refused:
            await service.archive.finished_deal(unknown, guild)
        assert refused.value.key == "replay_unknown"
    await service.close()


async def test_a_record_file_never_holds_the_game_in_progress(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service)
    assert not service.archive.has_record(live)
    with pytest.raises(UserError):
        await service.archive.last_record(live)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await _into_game(service, live, 2)
    assert service.archive.has_record(live)
    found = await service.archive.last_record(live)
    assert found.name == f"gouji-table{live.id}-game1.json"
    assert found.record["format"] == "gouji-record/1"
    in_progress = " ".join(str(c) for c in live.current.dealt[0])
    assert in_progress not in json.dumps(found.record)
    await service.close()


async def test_profiles_and_the_leaderboard_after_a_game(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service, {"series": False})
    assert (await service.archive.profile(GUILD, HUMANS[0])).position is None
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await _into_game(service, live, 1)
    while live.playing:
        await service.settle(live)
        if not live.playing:
            break
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        await service.act_hint(live, user_at(live, seat))
    board = await service.archive.leaderboard(GUILD)
    assert {p.user_id for p in board} == set(HUMANS)
    for rank, profile in enumerate(board, start=1):
        found = await service.archive.profile(GUILD, profile.user_id)
        assert (found.score, found.games, found.places) == (
            profile.score,
            profile.games,
            profile.places,
        )
        assert found.position == rank and found.rating is not None
    await service.close()


async def test_server_settings_show_every_default_and_what_the_server_set(store) -> None:
    service, _ = make_service(store)
    settings = await service.archive.server_settings(GUILD)
    assert (settings.language, settings.overrides, settings.channels) == ("zh", {}, ())
    settings = await service.archive.configure(
        GUILD, language="en", channel_id=5, defaults={"burn_time": 9}
    )
    assert (settings.language, settings.overrides, settings.channels) == (
        "en",
        {"burn_time": 9},
        (5,),
    )
    assert settings.defaults.burn_time == 9 and settings.defaults.turn_time == 60
    settings = await service.archive.configure(GUILD, channel_id=5, allow=False)
    assert settings.channels == () and settings.overrides == {"burn_time": 9}
    await service.close()
