"""Table commands: one table per channel, seats, AI seats, who may start and end."""

from __future__ import annotations

import pytest

from bot.service.errors import UserError

from .helpers import CHANNEL, GUILD, HUMANS, FakeClock, make_service, seated_table


async def test_one_table_per_channel(store) -> None:
    service, _ = make_service(store)
    await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    with pytest.raises(UserError) as err:
        await service.open_table(GUILD, CHANNEL, HUMANS[1], {})
    assert err.value.key == "table_exists"


async def test_tables_open_only_in_allowed_channels(store) -> None:
    await store.set_channel_allowed(GUILD, 999, True)
    service, _ = make_service(store)
    with pytest.raises(UserError) as err:
        await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    assert err.value.key == "channel_not_allowed"
    assert await store.tables_in_channel(GUILD, CHANNEL) == []


async def test_server_defaults_and_overrides_make_the_options(store) -> None:
    await store.set_table_defaults(GUILD, {"turn_time": 30, "bie_san": True})
    service, _ = make_service(store)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {"turn_time": 45})
    assert live.options.turn_time == 45 and live.options.rules.bie_san
    assert (await store.get_table(live.id)).options["turn_time"] == 45


async def test_join_takes_the_next_free_seat_and_refuses_a_taken_one(store) -> None:
    service, _ = make_service(store)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    assert live.seat_of(HUMANS[0]) == 0
    _, seat, later = await service.join(service.tables.table_in(CHANNEL), HUMANS[1])
    assert (seat, later) == (1, False)
    with pytest.raises(UserError) as err:
        await service.join(service.tables.table_in(CHANNEL), HUMANS[2], 1)
    assert err.value.key == "seat_taken"
    with pytest.raises(UserError) as err:
        await service.join(service.tables.table_in(CHANNEL), HUMANS[1])
    assert err.value.key == "already_seated"
    with pytest.raises(UserError):
        await service.join(service.tables.table_in(CHANNEL + 1), HUMANS[2])
    assert [s.user_id for s in await store.get_seats(live.id)][:3] == [HUMANS[0], HUMANS[1], None]


async def test_ai_add_fills_every_empty_seat_and_remove_frees_them(store) -> None:
    service, _ = make_service(store)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    _, seats = await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0], kind="strong")
    assert seats == [1, 2, 3, 4, 5]
    assert {s.ai_kind for s in await store.get_seats(live.id)} == {None, "strong"}
    with pytest.raises(UserError) as err:
        await service.remove_ai(service.tables.table_in(CHANNEL), HUMANS[0], 0)
    assert err.value.key == "seat_not_ai"
    await service.remove_ai(service.tables.table_in(CHANNEL), HUMANS[0], 3)
    assert live.empty_seats() == [3]


async def test_ai_add_takes_a_difficulty_stores_its_kind_and_refuses_unknown_ones(store) -> None:
    service, _ = make_service(store)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0], 1, "困难")
    await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0], 2, "normal")
    assert [live.ai_kind(s) for s in (1, 2)] == ["strong", "expert"]
    for name in ("genius", "random"):
        with pytest.raises(UserError) as err:
            await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0], 3, name)
        assert err.value.key == "unknown_ai" and err.value.params == {"name": name}
    assert live.empty_seats() == [3, 4, 5]
    assert [s.ai_kind for s in await store.get_seats(live.id)] == [
        None, "strong", "expert", None, None, None
    ]  # fmt: skip


async def test_only_the_creator_starts_and_only_with_six_seated(store) -> None:
    service, _ = make_service(store)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    with pytest.raises(UserError) as err:
        await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    assert err.value.key == "need_six" and err.value.params["missing"] == 5
    await service.join(service.tables.table_in(CHANNEL), HUMANS[1])
    await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0])
    with pytest.raises(UserError) as err:
        await service.start(service.tables.table_in(CHANNEL), HUMANS[1])
    assert err.value.key == "only_creator"
    assert live.series is None and (await store.get_table(live.id)).status == "lobby"


async def test_end_needs_the_creator_or_manage_channels(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    with pytest.raises(UserError) as err:
        await service.end(service.tables.table_in(CHANNEL), HUMANS[1], may_manage=False)
    assert err.value.key == "end_denied"
    assert live.playing
    await service.end(service.tables.table_in(CHANNEL), HUMANS[1], may_manage=True)
    assert (await store.get_table(live.id)).status == "ended"
    assert (await store.get_series(live.series_id)).status == "abandoned"
    assert presenter.of("closed")[-1][2] == "ended"
    with pytest.raises(UserError):
        service.tables.table_in(CHANNEL)


async def test_idle_tables_end_by_themselves(store) -> None:
    clock = FakeClock()
    service, presenter = make_service(store, clock=clock, idle_seconds=60)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    clock.t += 30
    assert await service.end_idle() == []
    await service.join(service.tables.table_in(CHANNEL), HUMANS[1])  # activity
    clock.t += 59
    assert await service.end_idle() == []
    clock.t += 2
    assert await service.end_idle() == [live.id]
    assert (await store.get_table(live.id)).status == "ended"
    assert presenter.of("closed")[-1][2] == "ended_idle"
