"""A restart rebuilds every open table from its log; a log that does not replay marks its
table broken and the others carry on."""

from __future__ import annotations

import random

import pytest

from data import ENGINE, Store
from data.snapshots import SNAPSHOT_EVERY
from tests.data.conftest import raw_sqlite

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    humans_act,
    make_service,
    play_humans,
    seated_table,
    user_at,
)


@pytest.mark.parametrize("snapshots", ["kept", "deleted"])
async def test_a_table_is_rebuilt_from_its_log_and_plays_on(db_path, snapshots, caplog) -> None:
    """From the snapshot the bot saved and the entries logged after it, or (no snapshot)
    from the whole log: the same table either way."""
    async with await Store.open(db_path) as store:
        service, _ = make_service(store)
        live = await seated_table(service, {"series_games": 2})  # a game boundary after
        await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
        await humans_act(service, live, 40)  # part of the first game
        hands = [service.views.hand_cards(live, s) for s in range(6)]
        to_act = live.running.to_act
        await service.close()
    async with await Store.open(db_path) as store:
        (whole,) = (await store.load_active_tables()).tables
        (active,) = (await store.load_active_tables(engine=ENGINE)).tables
        assert active.resume is not None and active.resume.idx % SNAPSHOT_EVERY == 0
        assert active.resume.idx + len(active.resume.tail) == len(whole.games[-1].actions)
    if snapshots == "deleted":
        with raw_sqlite(db_path) as conn:
            conn.execute("DELETE FROM snapshots")
    async with await Store.open(db_path) as store:
        service, presenter = make_service(store, rng=random.Random(99))
        assert await service.restore() == []
        again = service.tables.table_in(CHANNEL)
        assert [service.views.hand_cards(again, s) for s in range(6)] == hands
        assert again.running.to_act == to_act
        assert again.deadline is not None  # the clock runs again
        assert "instead of its snapshot" not in caplog.text
        assert ("table", again.id) in presenter.events
        await play_humans(service, again)
        assert again.running.finished
        assert (await store.get_profile(GUILD, HUMANS[0])).games == 2
        await service.close()


async def test_a_log_that_does_not_replay_marks_only_its_table_broken(db_path) -> None:
    async with await Store.open(db_path) as store:
        service, _ = make_service(store)
        good = await seated_table(service)
        await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
        bad = await service.open_table(GUILD, CHANNEL + 1, HUMANS[0], {})
        await service.join(service.tables.table_in(CHANNEL + 1), HUMANS[1])
        await service.add_ai(service.tables.table_in(CHANNEL + 1), HUMANS[0])
        await service.start(service.tables.table_in(CHANNEL + 1), HUMANS[0])
        await service.settle(good)
        await service.settle(bad)
        await service.close()
        # seat 0 "plays" twice in a row: the engine refuses it on replay
        assert bad.game_id is not None
        await store.append_action(bad.game_id, "0 play RRRRRRRR")
    async with await Store.open(db_path) as store:
        service, presenter = make_service(store)
        assert await service.restore() == [bad.id]
        assert (await store.get_table(bad.id)).status == "broken"
        assert "does not replay" in ((await store.get_table(bad.id)).broken_reason or "")
        assert [e[1] for e in presenter.of("broken")] == [bad.id]
        assert service.tables.table_in(CHANNEL).id == good.id
        assert service.tables.table_in(CHANNEL).playing
        await service.close()


async def test_a_kill_between_commit_and_controller_asks_the_player_again(db_path) -> None:
    """The process dies after a press is logged but before the next question's controller
    goes out (and before its clock is stored): the restored table asks every open question
    again — with the old deadline in the database, too."""
    async with await Store.open(db_path) as store:
        service, _ = make_service(store)
        live = await seated_table(service)
        await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
        await humans_act(service, live, 12)
        assert (await store.get_table(live.id)).turn_deadline is not None

        async def died(live) -> None:  # nothing is asked, no clock is stored
            return None

        service.flow.update_clock_locked = died  # type: ignore[method-assign]
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        await service.act_hint(live, user_at(live, seat))  # logged: then the kill
        await service.settle(live)
        await service.close()
    async with await Store.open(db_path) as store:
        service, presenter = make_service(store)
        assert await service.restore() == []
        again = service.tables.table_in(CHANNEL)
        await service.settle(again)
        waiting = {s for s in again.running.to_act if not again.is_ai(s)}
        assert waiting, "a person is waited on"
        asked = {e[2] for e in presenter.of("prompt") if e[1] == again.id}
        assert waiting <= asked, f"seats {sorted(waiting - asked)} were never asked again"
        assert again.deadline is not None and again.deadline > service.clock.now()
        await service.close()
