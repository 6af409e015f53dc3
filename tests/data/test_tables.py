"""Server settings, tables and seats."""

from __future__ import annotations

import pytest

from data import InvalidInputError, NotFoundError, Store


async def test_settings_default_then_change(store: Store) -> None:
    settings = await store.get_settings(1)
    assert (settings.language, settings.table_defaults, settings.channels) == ("zh", {}, ())
    await store.set_language(1, "en")
    await store.set_table_defaults(1, {"bie_san": True, "turn_seconds": 45})
    await store.set_channel_allowed(1, 300, True)
    await store.set_channel_allowed(1, 200, True)
    await store.set_channel_allowed(1, 200, True)  # twice is once
    await store.set_channel_allowed(1, 300, False)
    settings = await store.get_settings(1)
    assert settings.language == "en"
    assert settings.table_defaults == {"bie_san": True, "turn_seconds": 45}
    assert settings.channels == (200,)
    assert (await store.get_settings(2)).language == "zh"  # per server


async def test_bad_settings_are_refused(store: Store) -> None:
    with pytest.raises(InvalidInputError, match="language tag"):
        await store.set_language(1, "Chinese please")
    with pytest.raises(InvalidInputError, match="dict"):
        await store.set_table_defaults(1, ["bie_san"])  # type: ignore[arg-type]  # bad on purpose
    with pytest.raises(InvalidInputError, match="plain JSON"):
        await store.set_table_defaults(1, {"x": object()})
    assert (await store.get_settings(1)).table_defaults == {}


async def test_create_table_starts_in_the_lobby_with_six_empty_seats(store: Store) -> None:
    table = await store.create_table(1, 100, 7, {"bie_san": True})
    assert (table.guild_id, table.channel_id, table.creator_id) == (1, 100, 7)
    assert (table.status, table.options, table.message_id, table.turn_deadline) == (
        "lobby",
        {"bie_san": True},
        None,
        None,
    )
    seats = await store.get_seats(table.id)
    assert [s.seat for s in seats] == list(range(6))
    assert all(s.is_empty for s in seats)
    assert await store.get_table(table.id) == table


async def test_table_state_changes(store: Store) -> None:
    times = iter([10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
    store._clock = lambda: next(times)
    table = await store.create_table(1, 100, 7, {"bie_san": True})
    await store.set_table_status(table.id, "playing")
    await store.set_table_message(table.id, 987654321)
    await store.set_turn_deadline(table.id, 1234.5)
    changed = await store.get_table(table.id)
    assert (changed.status, changed.message_id, changed.turn_deadline, changed.options) == (
        "playing",
        987654321,
        1234.5,
        {"bie_san": True},
    )
    assert (changed.created_at, changed.updated_at) == (10.0, 40.0)
    await store.set_turn_deadline(table.id, None)
    assert (await store.get_table(table.id)).turn_deadline is None


async def test_mark_broken_keeps_the_reason_and_a_new_status_clears_it(store: Store) -> None:
    table = await store.create_table(1, 100, 7, {})
    await store.mark_broken(table.id, "the engine could not replay action 12")
    broken = await store.get_table(table.id)
    assert (broken.status, broken.broken_reason) == (
        "broken",
        "the engine could not replay action 12",
    )
    await store.set_table_status(table.id, "ended")
    ended = await store.get_table(table.id)
    assert (ended.status, ended.broken_reason) == ("ended", None)


async def test_bad_table_changes_are_refused(store: Store) -> None:
    table = await store.create_table(1, 100, 7, {})
    with pytest.raises(InvalidInputError, match="use mark_broken"):
        await store.set_table_status(table.id, "broken")
    with pytest.raises(InvalidInputError, match="needs a reason"):
        await store.mark_broken(table.id, "  ")
    with pytest.raises(InvalidInputError, match="unix time"):
        await store.set_turn_deadline(table.id, float("nan"))
    with pytest.raises(NotFoundError, match="no table 999"):
        await store.set_table_status(999, "ended")
    with pytest.raises(NotFoundError, match="no table 999"):
        await store.get_table(999)
    assert await store.get_table(table.id) == table


async def test_tables_in_channel(store: Store) -> None:
    first = await store.create_table(1, 100, 7, {})
    await store.set_table_status(first.id, "finished")
    second = await store.create_table(1, 100, 8, {})
    await store.create_table(1, 101, 9, {})
    assert [t.id for t in await store.tables_in_channel(1, 100)] == [second.id]
    assert [t.id for t in await store.tables_in_channel(1, 100, active_only=False)] == [
        first.id,
        second.id,
    ]


async def test_seats_users_ais_and_standins(store: Store) -> None:
    table = await store.create_table(1, 100, 7, {})
    await store.set_seat(table.id, 0, user_id=7)
    ai = await store.set_seat(table.id, 1, ai_kind="hint")
    assert (ai.user_id, ai.ai_kind, ai.standin) == (None, "hint", False)
    await store.set_standin(table.id, 0, True, "strong")
    seat = (await store.get_seats(table.id))[0]
    assert (seat.user_id, seat.ai_kind, seat.standin) == (7, "strong", True)
    await store.set_standin(table.id, 0, False)
    assert not (await store.get_seats(table.id))[0].standin
    assert [await store.add_timeout(table.id, 0) for _ in range(3)] == [1, 2, 3]
    await store.set_dm_refused(table.id, 0, True)
    seat = (await store.get_seats(table.id))[0]
    assert (seat.timeouts, seat.dm_refused) == (3, True)
    await store.reset_timeouts(table.id, 0)
    assert (await store.get_seats(table.id))[0].timeouts == 0
    emptied = await store.set_seat(table.id, 0)
    assert emptied.is_empty and not emptied.dm_refused


async def test_bad_seat_changes_are_refused(store: Store) -> None:
    table = await store.create_table(1, 100, 7, {})
    await store.set_seat(table.id, 0, user_id=7)
    with pytest.raises(InvalidInputError, match="user 7 already sits"):
        await store.set_seat(table.id, 3, user_id=7)
    with pytest.raises(InvalidInputError, match="seat must be 0 to 5"):
        await store.set_seat(table.id, 6, user_id=8)
    with pytest.raises(InvalidInputError, match="AI kind"):
        await store.set_seat(table.id, 1, ai_kind="genius")
    with pytest.raises(InvalidInputError, match="only for a seated user"):
        await store.set_seat(table.id, 1, ai_kind="hint", standin=True)
    with pytest.raises(InvalidInputError, match="no user to stand in for"):
        await store.set_standin(table.id, 2, True)
    with pytest.raises(NotFoundError):
        await store.get_seats(999)
    with pytest.raises(NotFoundError):
        await store.add_timeout(999, 0)
    seats = await store.get_seats(table.id)
    assert seats[0].user_id == 7 and all(s.is_empty for s in seats[1:])
