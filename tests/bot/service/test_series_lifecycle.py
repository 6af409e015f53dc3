"""Between and around series: playing again, taking over an AI seat between games, the
warning before a timeout, a single game instead of a series, the strong AI."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.errors import UserError

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    clocked_table,
    humans_act,
    make_service,
    play_humans,
    seated_table,
    user_at,
)


async def test_again_starts_a_new_series_with_the_same_seats(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service, {"series": False})
    with pytest.raises(UserError) as err:
        await service.start(service.tables.table_in(CHANNEL), HUMANS[1], again=True)
    assert err.value.key == "no_series_before"
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    assert live.running.finished and len(live.running.counted) == 1, "a single game"
    first = live.series_id
    assert (await store.get_table(live.id)).status == "lobby"
    await service.start(
        service.tables.table_in(CHANNEL), HUMANS[2], again=True
    )  # any seated player
    assert live.playing and live.series_id != first
    assert [s.user_id for s in live.seats] == [*HUMANS, None, None]
    assert (await store.get_profile(GUILD, HUMANS[2])).games == 1
    await service.close()


async def test_joining_an_ai_seat_during_a_game_takes_it_when_the_game_ends(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    _, seat, later = await service.join(service.tables.table_in(CHANNEL), 555, 4)
    assert (seat, later) == (4, True)
    assert live.seats[4].user_id is None, "the AI finishes this game"
    with pytest.raises(UserError):
        await service.join(service.tables.table_in(CHANNEL), 556, 4)
    while live.running.number_of_next_game == 1:
        await service.settle(live)
        waiting = [s for s in live.running.to_act if not live.is_ai(s)]
        if waiting:
            await service.act_hint(live, user_at(live, waiting[0]))
    assert user_at(live, 4) == 555 and not live.is_ai(4)
    assert (await store.get_seats(live.id))[4].user_id == 555
    assert (await store.get_profile(GUILD, 555)).games == 0, "the game the AI played is not theirs"
    await service.close()


async def test_a_warning_comes_before_the_timeout(store) -> None:
    service, presenter, live, clock = await clocked_table(store, turn_time=5, warn_before=1.0)
    await service.settle(live)
    clock.advance(3.9)
    for _ in range(10):
        await asyncio.sleep(0)
    assert not presenter.of("warn")
    clock.advance(0.1)
    for _ in range(10):  # the timer wakes (no real time passes)
        await asyncio.sleep(0)
        if presenter.of("warn"):
            break
    (_, _, seats, seconds), *_ = presenter.of("warn")
    assert set(seats) == {0, 1, 2, 3} and 0 < seconds <= 1
    assert live.running_game.phase == "declare", "warned before anything was decided for them"
    await service.close()


async def test_a_strong_ai_seat_plays(store) -> None:
    service, _ = make_service(store)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {"series": False})
    await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0], kind="strong")
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await humans_act(service, live, 3)
    assert live.ai_kind(3) == "strong"
    assert len(await store.get_actions(live.game_id)) >= 6
    await service.close()


async def test_a_bie_san_series_plays_out(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service, {"bie_san": True})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    assert live.running_game.options.bie_san
    await play_humans(service, live)
    assert live.running.finished
    record = await store.export_series_record(live.series_id)
    assert record["options"] == {"bie_san": True}
    await service.close()
