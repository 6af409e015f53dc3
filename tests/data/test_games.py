"""Series, deals (with void redeals) and the append-only action log."""

from __future__ import annotations

import pytest

from data import ActionConflictError, InvalidInputError, NotFoundError, ProfileUpdate, Store

from .conftest import dealt_hands, new_game


async def test_series_are_numbered_and_take_the_table_options(store: Store) -> None:
    table = await store.create_table(1, 100, 7, {"bie_san": True})
    first = await store.start_series(table.id)
    assert (first.number, first.options, first.status, first.totals) == (
        1,
        {"bie_san": True},
        "playing",
        None,
    )
    await store.finish_series(first.id, [4, -4, 2, -2, 0, 0])
    done = await store.get_series(first.id)
    assert (done.status, done.totals) == ("finished", [4, -4, 2, -2, 0, 0])
    second = await store.start_series(table.id, {"bie_san": False})
    assert (second.number, second.options) == (2, {"bie_san": False})


async def test_starting_a_series_abandons_the_one_still_playing(store: Store) -> None:
    table, series, game = await new_game(store)
    await store.start_series(table.id)
    assert (await store.get_series(series.id)).status == "abandoned"
    assert (await store.get_game(game.id)).status == "abandoned"


async def test_a_series_starts_and_a_table_ends_in_one_write_each(store: Store) -> None:
    """Starting a series sets its table playing, ending a table abandons its series and
    deal: a crash between two writes can leave neither half-done."""
    lobby = await store.create_table(7, 77, 1, {})
    await store.start_series(lobby.id)
    assert (await store.get_table(lobby.id)).status == "playing"
    table, series, game = await new_game(store)
    await store.end_table(table.id)
    assert (await store.get_table(table.id)).status == "ended"
    assert (await store.get_series(series.id)).status == "abandoned"
    assert (await store.get_game(game.id)).status == "abandoned"


async def test_abandon_series(store: Store) -> None:
    _table, series, game = await new_game(store)
    await store.abandon_series(series.id)
    assert (await store.get_series(series.id)).status == "abandoned"
    assert (await store.get_game(game.id)).status == "abandoned"
    with pytest.raises(InvalidInputError, match="already abandoned"):
        await store.abandon_series(series.id)
    with pytest.raises(InvalidInputError, match="already abandoned"):
        await store.finish_series(series.id, [0] * 6)
    with pytest.raises(NotFoundError):
        await store.abandon_series(999)


async def test_bad_series_changes_are_refused(store: Store) -> None:
    _table, series, _game = await new_game(store)
    with pytest.raises(InvalidInputError, match="six integers"):
        await store.finish_series(series.id, [1, 2, 3])
    with pytest.raises(NotFoundError):
        await store.start_series(999)
    with pytest.raises(NotFoundError):
        await store.get_series(999)
    assert (await store.get_series(series.id)).status == "playing"


async def test_deals_follow_game_numbers_and_a_void_deal_is_redealt(store: Store) -> None:
    _table, series, first = await new_game(store, seed=1)
    assert (first.number, first.deal, first.seed, first.hands) == (1, 1, 1, tuple(dealt_hands(1)))
    with pytest.raises(InvalidInputError, match="still being played"):
        await store.start_game(series.id, 2, dealt_hands(2))
    await store.record_game_result(1, first.id, [], {"places": [1, 2, 3, 4, 5, 6]})
    second = await store.start_game(series.id, 2, dealt_hands(2))
    await store.append_actions(second.id, ["0 nodeclare", "1 revolt", "4 revolt"])
    await store.void_game(second.id)
    redeal = await store.start_game(series.id, 3, dealt_hands(3))
    assert [(g.number, g.deal) for g in (first, second, redeal)] == [(1, 1), (2, 1), (2, 2)]
    assert (await store.get_game(second.id)).status == "void"
    with pytest.raises(InvalidInputError, match="is void"):
        await store.void_game(second.id)


async def test_bad_deals_are_refused(store: Store) -> None:
    _table, series, game = await new_game(store)
    await store.abandon_series(series.id)
    with pytest.raises(InvalidInputError, match="abandoned: start a new series"):
        await store.start_game(series.id, 1, dealt_hands(1))
    with pytest.raises(InvalidInputError, match="seed must be an integer"):
        await store.start_game(series.id, "7", dealt_hands(1))  # type: ignore[arg-type]  # on purpose
    with pytest.raises(InvalidInputError, match="six strings"):
        await store.start_game(series.id, 7, dealt_hands(1)[:5])
    with pytest.raises(NotFoundError):
        await store.start_game(999, 7, dealt_hands(1))
    with pytest.raises(NotFoundError):
        await store.get_game(999)


async def test_append_returns_contiguous_indexes_and_keeps_the_order(store: Store) -> None:
    _table, _series, game = await new_game(store)
    log = [
        "0 nodeclare",
        "1 declare",
        "2 norevolt",
        "0 play 9s 9h",
        "1 pass",
        "2 yield",
        "3 burn 99",
    ]
    assert [await store.append_action(game.id, a) for a in log] == list(range(7))
    assert await store.get_actions(game.id) == log
    assert await store.append_action(game.id, "4 noburn", expected_index=7) == 7
    assert await store.append_actions(game.id, ["5 pass", "0 leave"], expected_index=8) == [8, 9]
    assert await store.append_actions(game.id, []) == []
    assert (await store.get_actions(game.id))[7:] == ["4 noburn", "5 pass", "0 leave"]


async def test_append_at_the_wrong_index_is_a_conflict_and_changes_nothing(store: Store) -> None:
    _table, _series, game = await new_game(store)
    await store.append_actions(game.id, ["0 nodeclare", "1 nodeclare"])
    with pytest.raises(ActionConflictError, match="another writer") as caught:
        await store.append_action(game.id, "2 nodeclare", expected_index=1)
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    with pytest.raises(ActionConflictError):
        await store.append_actions(game.id, ["2 nodeclare", "3 nodeclare"], expected_index=5)
    assert await store.get_actions(game.id) == ["0 nodeclare", "1 nodeclare"]


async def test_malformed_actions_are_not_appended(store: Store) -> None:
    _table, _series, game = await new_game(store)
    with pytest.raises(InvalidInputError, match="unknown verb"):
        await store.append_action(game.id, "0 fold")
    with pytest.raises(InvalidInputError, match="not card notation"):
        await store.append_actions(game.id, ["0 nodeclare", "1 play zz"])
    with pytest.raises(InvalidInputError, match="a list of actions"):
        await store.append_actions(game.id, "0 pass")
    with pytest.raises(InvalidInputError, match="expected_index must be an index"):
        await store.append_action(game.id, "0 pass", expected_index="0")  # type: ignore[arg-type]  # on purpose
    with pytest.raises(InvalidInputError, match="expected_index must be an index"):
        await store.append_actions(game.id, ["0 pass"], expected_index=-1)
    assert await store.get_actions(game.id) == []


async def test_a_closed_log_takes_no_more_actions(store: Store) -> None:
    _table, _series, game = await new_game(store)
    await store.append_action(game.id, "0 nodeclare")
    await store.record_game_result(1, game.id, [ProfileUpdate(5000, 0, 1)], {})
    with pytest.raises(InvalidInputError, match="is finished: its log is closed"):
        await store.append_action(game.id, "1 nodeclare")
    with pytest.raises(InvalidInputError, match="is finished: its log is closed"):
        await store.append_actions(game.id, ["1 nodeclare"])
    with pytest.raises(NotFoundError, match="no game 999"):
        await store.append_action(999, "1 nodeclare")
    with pytest.raises(NotFoundError, match="no game 999"):
        await store.get_actions(999)
    assert await store.get_actions(game.id) == ["0 nodeclare"]


async def test_acknowledged_actions_are_in_the_file_for_the_next_opener(db_url) -> None:
    async with await Store.open(db_url) as store:
        _table, _series, game = await new_game(store)
        await store.append_actions(game.id, ["0 nodeclare", "1 nodeclare"])
        await store.append_action(game.id, "2 nodeclare")
        async with await Store.open(db_url) as other:  # a second connection sees them
            assert await other.get_actions(game.id) == ["0 nodeclare", "1 nodeclare", "2 nodeclare"]
            assert await other.append_action(game.id, "3 nodeclare") == 3
        with pytest.raises(ActionConflictError):
            await store.append_action(game.id, "3 declare", expected_index=3)
