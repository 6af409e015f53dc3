"""One writer per table: two processes serving the same shards (a rolling deploy, a
restarted container) never both play a table; a process paused past its lease finds its
tables gone when it wakes, writes nothing to them, breaks nothing and says so in the log.
On real SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import logging

import pytest

from bot.service.errors import UserError
from data import Store
from data.claims import Shards
from engine.record import replay_series

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    FakeClock,
    humans_act,
    make_service,
    play_humans,
    seated_table,
    user_at,
)

SHARDS = Shards(1, (0,))


class StoreClock:
    """The stores' clock (claims and their leases), moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def _check_the_log(store: Store, live, games: int) -> None:
    """The series as logged replays to the end, and each game counted once per person."""
    record = await store.export_series_record(live.series_id)
    replay = replay_series({**record, "games_total": games, "tribute": games > 1})
    assert len([g for g in replay["games"] if g["finished"]]) == games
    for user in HUMANS:
        assert (await store.get_profile(GUILD, user)).games == games


async def test_two_processes_with_the_same_shards_have_one_writer(db_url, caplog) -> None:
    clock = StoreClock()
    async with (
        await Store.open(db_url, clock=clock) as a,
        await Store.open(db_url, clock=clock) as b,
    ):
        first, first_shown = make_service(a, shards=SHARDS)
        live = await seated_table(first, {"series": False})
        await first.start(first.tables.table_in(CHANNEL), HUMANS[0])
        await humans_act(first, live, 10)
        second, second_shown = make_service(b, shards=SHARDS)  # started beside it
        caplog.set_level(logging.WARNING, logger="gouji.bot")
        assert await second.restore() == []
        assert second.tables.by_id == {}, "the second process took a table the first one plays"
        assert "is held by" in caplog.text
        try:
            await second.open_table(GUILD, CHANNEL, HUMANS[1], {})
            raise AssertionError("a second table opened in the channel")
        except UserError as exc:
            assert exc.key == "table_exists"
        await play_humans(first, live)
        assert await second.tend_claims() == [] and second.tables.by_id == {}
        assert live.running.finished
        assert (await a.get_table(live.id)).status == "lobby"
        assert not first_shown.of("broken") and not second_shown.of("broken")
        await _check_the_log(a, live, 1)
        await first.close()
        await second.close()


async def test_a_process_paused_past_its_lease_stops_and_breaks_nothing(db_url, caplog) -> None:
    clock = StoreClock()
    timers = FakeClock()
    async with (
        await Store.open(db_url, clock=clock) as a,
        await Store.open(db_url, clock=clock) as b,
    ):
        paused, paused_shown = make_service(a, shards=SHARDS, lease=10, clock=timers)
        live = await seated_table(paused, {"series": False, "turn_time": 30})
        await paused.start(paused.tables.table_in(CHANNEL), HUMANS[0])
        await humans_act(paused, live, 6)
        clock.now += 11  # SIGSTOP: no renewal, the lease lapses
        other, other_shown = make_service(b, shards=SHARDS, lease=10)
        assert await other.restore() == []
        taken = other.tables.table_in(CHANNEL)
        await humans_act(other, taken, 4)
        logged = len((await b.load_active_tables()).tables[0].games[-1].actions)
        # SIGCONT: a person presses at the paused process, and its clock runs out
        caplog.set_level(logging.WARNING, logger="gouji.bot")
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        try:
            await paused.act_hint(live, user_at(live, seat))
            raise AssertionError("the paused process played a table it no longer holds")
        except UserError as exc:
            assert exc.key in ("table_moved", "no_table")
        timers.advance(60)
        await paused.settle(live)
        assert live.ended and paused.tables.by_id == {}, "the paused process still drives the table"
        assert "claim" in caplog.text and "no longer served" in caplog.text
        assert len((await b.load_active_tables()).tables[0].games[-1].actions) == logged
        assert (await b.get_table(taken.id)).status == "playing"
        await play_humans(other, taken)
        assert not paused_shown.of("broken") and not other_shown.of("broken")
        await _check_the_log(b, taken, 1)
        await paused.close()
        await other.close()


async def test_a_restarted_process_serves_its_tables_at_once_with_the_default_lease(
    db_url,
) -> None:
    """SIGKILL, restart: the next incarnation of the instance takes the table back without
    waiting out the 30 s lease; another process meanwhile says the table is coming back."""
    clock = StoreClock()
    async with (
        await Store.open(db_url, clock=clock) as a,
        await Store.open(db_url, clock=clock) as b,
        await Store.open(db_url, clock=clock) as c,
    ):
        dead, _ = make_service(a, shards=SHARDS, instance="shards 0 of 1 @ host-1")
        assert await dead.restore() == []
        live = await seated_table(dead, {"series": False})
        await dead.start(dead.tables.table_in(CHANNEL), HUMANS[0])
        await humans_act(dead, live, 6)
        # another process of the same shards: the claim is live, the table is coming back
        other, _ = make_service(c, shards=SHARDS)
        assert await other.restore() == [] and other.tables.by_id == {}
        for ask in (lambda: other.tables.table_in(CHANNEL), lambda: other.tables.get(live.id)):
            with pytest.raises(UserError) as refused:
                ask()
            assert refused.value.key == "table_restoring"
        clock.now += 1  # the dead process never renews; its restart comes up
        back, _ = make_service(b, shards=SHARDS, instance="shards 0 of 1 @ host-1")
        assert await back.restore() == []
        taken = back.tables.table_in(CHANNEL)
        assert taken.id == live.id and back.owner.endswith("epoch 2")
        await play_humans(back, taken)
        assert (await b.get_table(live.id)).status == "lobby"
        await _check_the_log(b, taken, 1)
        await back.close()
        await other.close()


async def test_a_table_reached_at_a_process_says_where_it_is(db_url) -> None:
    """The browser may reach any process: a table of other shards runs elsewhere, one that
    ended is over, one unknown is none."""
    async with await Store.open(db_url) as store:
        here, _ = make_service(store, shards=Shards(2, (0,)))
        guest, _ = make_service(store, shards=Shards(2, (1,)))
        await guest.restore()
        other = await guest.open_table((1 << 22) + 5, CHANNEL, HUMANS[0], {})
        assert await guest.tables.reach(other.id) is other
        for table_id, key in ((other.id, "table_elsewhere"), (other.id + 100, "no_table")):
            with pytest.raises(UserError) as refused:
                await here.tables.reach(table_id)
            assert refused.value.key == key
        await guest.end(guest.tables.table_in(CHANNEL), HUMANS[0], True)
        with pytest.raises(UserError) as refused:
            await here.tables.reach(other.id)
        assert refused.value.key == "no_table"
        await here.close()
        await guest.close()
