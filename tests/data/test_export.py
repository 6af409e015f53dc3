"""Records out of the store, in the shapes of docs/record.md."""

from __future__ import annotations

import json

import pytest

from data import InvalidInputError, NotFoundError, ProfileUpdate, Store

from .conftest import dealt_hands

OPTIONS = {"bie_san": False}
GAME_1 = ["0 nodeclare", "1 declare", "2 nodeclare", "0 play 9s 9h", "1 pass"]
# game 2 deal 1: tribute returns, then two revolts void it
GAME_2_VOID = ["0 return 4h", "3 return 5s", "0 nodeclare", "1 revolt", "4 revolt"]
GAME_2 = ["0 return 4h", "0 nodeclare", "1 norevolt", "2 play 3s", "3 burn 44"]


async def played_series(store: Store):
    table = await store.create_table(1, 100, 7, OPTIONS)
    series = await store.start_series(table.id)
    first = await store.start_game(series.id, 11, dealt_hands(11))
    await store.append_actions(first.id, GAME_1)
    tribute = [{"kind": "place", "from": 5, "to": 0, "count": 2}]
    await store.record_game_result(1, first.id, [ProfileUpdate(7, 4, 1)], {"tribute": tribute})
    void = await store.start_game(series.id, 12, dealt_hands(12))
    await store.append_actions(void.id, GAME_2_VOID)
    await store.void_game(void.id)
    second = await store.start_game(series.id, 13, dealt_hands(13))
    await store.append_actions(second.id, GAME_2)
    return series, first, void, second


async def test_series_record_has_the_gouji_series_shape(store: Store) -> None:
    series, _first, _void, _second = await played_series(store)
    record = await store.export_series_record(series.id)
    assert record == {
        "format": "gouji-series/1",
        "options": OPTIONS,
        "games": [
            {"hands": dealt_hands(11), "seed": 11, "actions": GAME_1},
            {
                "hands": dealt_hands(12),
                "seed": 12,
                "returns": ["0 return 4h", "3 return 5s"],
                "actions": ["0 nodeclare", "1 revolt", "4 revolt"],
            },
            {
                "hands": dealt_hands(13),
                "seed": 13,
                "returns": ["0 return 4h"],
                "actions": ["0 nodeclare", "1 norevolt", "2 play 3s", "3 burn 44"],
            },
        ],
    }
    assert json.loads(json.dumps(record)) == record
    assert all(len(h.split()) == 36 for h in record["games"][0]["hands"])  # with suits, as dealt


async def test_first_game_record_has_the_real_game_shape(store: Store) -> None:
    _series, first, _void, _second = await played_series(store)
    record = await store.export_game_record(first.id)
    assert record == {
        "format": "gouji-record/1",
        "options": OPTIONS,
        "hands": dealt_hands(11),
        "seed": 11,
        "actions": GAME_1,
    }
    assert "leader" not in record and "declared" not in record


async def test_a_game_after_tribute_needs_the_hands_play_started_from(store: Store) -> None:
    _series, _first, _void, second = await played_series(store)
    with pytest.raises(InvalidInputError, match="began with tribute"):
        await store.export_game_record(second.id)
    after_tribute = ["3s 4h", "5d", "6c", "7s", "8h", "R"]
    record = await store.export_game_record(second.id, hands=after_tribute)
    assert record == {
        "format": "gouji-record/1",
        "options": OPTIONS,
        "hands": after_tribute,
        "seed": 13,
        "actions": ["0 nodeclare", "1 norevolt", "2 play 3s", "3 burn 44"],
    }
    with pytest.raises(InvalidInputError, match="six strings"):
        await store.export_game_record(second.id, hands=["3s"])


async def test_a_game_after_a_game_that_owed_no_tribute_exports_as_dealt(store: Store) -> None:
    table = await store.create_table(1, 100, 7, OPTIONS)
    series = await store.start_series(table.id)
    first = await store.start_game(series.id, 1, dealt_hands(1))
    await store.record_game_result(1, first.id, [], {"tribute": []})  # 串三户: no tribute
    second = await store.start_game(series.id, 2, dealt_hands(2))
    await store.append_action(second.id, "0 nodeclare")
    record = await store.export_game_record(second.id)
    assert (record["hands"], record["actions"]) == (dealt_hands(2), ["0 nodeclare"])


async def test_series_logs_and_missing_ids(store: Store) -> None:
    series, first, void, second = await played_series(store)
    found, logs = await store.series_logs(series.id)
    assert found.id == series.id
    assert [(log.game.id, len(log.actions)) for log in logs] == [
        (first.id, 5),
        (void.id, 5),
        (second.id, 5),
    ]
    with pytest.raises(NotFoundError):
        await store.export_series_record(999)
    with pytest.raises(NotFoundError):
        await store.export_game_record(999)
