"""A database outage is waited out: SQLite busy for longer than its busy timeout, a full
disk, PostgreSQL stopped and started. The table stays in memory, refuses presses with "the
table is waiting for its database" (nothing is acknowledged that is not logged), its
channel keeps answering (no second table opens there), the service retries with backoff
and logs it, and once the database is back the table resumes from its log: nothing
acknowledged is lost, nothing is applied twice, no table is broken."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.service.errors import UserError
from data import Store, StoreError
from engine.record import replay_series
from tests.data.outages import FullDisk, NoTmpfs, WriteLock, fill_disk, small_disk
from tests.pgserver import PgServer, find_bindir

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    FakeClock,
    make_service,
    seated_table,
    user_at,
)

# ----------------------------------------------------------------------------- the outages


# ----------------------------------------------------------------------------- the table


async def _retried(clock: FakeClock, live, tries: int) -> None:
    """Move the clock on until the table has tried its database ``tries`` more times (each
    try is awaited: the retry sleeps on the clock again, or the table is back)."""
    target = live.stall_tries + tries
    for _ in range(tries * 50):
        if live.stall_tries >= target or live.stalled_since is None:
            return
        clock.advance(1.0)
        await _next_sleep(clock, live)
    raise AssertionError(f"the table tried {live.stall_tries} times, not {target}")


async def _next_sleep(clock: FakeClock, live) -> None:
    """Wait until the retry woken by the clock has run: it sleeps again, or it ended."""
    for _ in range(2000):
        await asyncio.sleep(0.005)
        task = live.tasks.get("recovery")
        if task is None or task.done() or clock.sleeping():
            return
    raise AssertionError("the retry neither slept again nor ended")


async def _resumed(clock: FakeClock, service, live) -> None:
    for _ in range(200):
        if live.stalled_since is None:
            await service.settle(live)
            return
        clock.advance(1.0)
        await _next_sleep(clock, live)
    raise AssertionError("the table never came back")


async def _press(service, live, acked: list[str]) -> None:
    """The person to act presses "play the hint"; an acknowledged press is remembered."""
    seat = next(s for s in live.running.to_act if not live.is_ai(s))
    action = await service.act_hint(live, user_at(live, seat))
    acked.append(str(action))


async def _play_out(service, live, acked: list[str]) -> None:
    while live.playing:
        await service.settle(live)
        if live.playing:
            await _press(service, live, acked)


async def _done(step: object) -> None:
    """Await what starting or ending an outage returned, if it is to be awaited."""
    if inspect.isawaitable(step):
        await step


def _subsequence(part: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(any(x == y for y in rest) for x in part)


async def _through_an_outage(
    store: Store, begin: Callable[[], object], end: Callable[[], object], caplog
) -> None:
    """A single game: people press, the outage begins, presses are refused with "waiting
    for its database", the table retries, the outage ends, the game is played out."""
    clock = FakeClock()
    service, shown = make_service(store, clock=clock)
    live = await seated_table(service, {"series": False, "turn_time": 600})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    acked: list[str] = []
    for _ in range(8):
        await service.settle(live)
        await _press(service, live, acked)
    await service.settle(live)
    caplog.set_level(logging.WARNING, logger="gouji.bot")
    seat = next(s for s in live.running.to_act if not live.is_ai(s))
    await _done(begin())
    refused = 0
    for _ in range(3):  # the same person presses, and again
        try:
            acked.append(str(await service.act_hint(live, user_at(live, seat))))
        except UserError as exc:
            assert exc.key == "db_waiting", exc
            refused += 1
    assert refused == 3 and live.stalled_since is not None, "the presses were not refused"
    assert service.tables.table_in(CHANNEL) is live, "the table left memory"
    with pytest.raises(UserError) as second:
        await service.open_table(GUILD, CHANNEL, HUMANS[1], {})
    assert second.value.key == "table_exists"
    await _retried(clock, live, 3)
    assert "waiting for its database" in caplog.text
    await _done(end())
    await _resumed(clock, service, live)
    assert "back after" in caplog.text
    await _play_out(service, live, acked)
    assert live.series_id is not None
    record = await store.export_series_record(live.series_id)
    logged = [a for g in record["games"] for a in g.get("returns", []) + g["actions"]]
    assert _subsequence(acked, logged), "an acknowledged press is not in the log"
    replay = replay_series({**record, "games_total": 1, "tribute": False})
    assert [g["finished"] for g in replay["games"]][-1]
    for user in HUMANS:  # the result was applied once
        assert (await store.get_profile(GUILD, user)).games == 1
    assert not shown.of("broken") and (await store.get_table(live.id)).status == "lobby"
    await service.close()


async def test_sqlite_busy_longer_than_the_busy_timeout_is_waited_out(db_path, caplog) -> None:
    async with await Store.open(db_path, busy_timeout=0.2) as store:
        holder: list[WriteLock] = []

        async def lock() -> None:
            holder.append(await WriteLock.take(db_path))

        await _through_an_outage(store, lock, lambda: holder[0].release(), caplog)


@pytest.mark.parametrize("disk", ["tmpfs", "injected"])
async def test_a_full_disk_is_waited_out(tmp_path, disk, caplog) -> None:
    if disk == "tmpfs":
        if os.geteuid() != 0:
            pytest.skip("a tmpfs needs root: the injected full disk covers this machine")
        with contextlib.ExitStack() as stack:
            try:
                where = stack.enter_context(small_disk(tmp_path / "disk"))
            except NoTmpfs as exc:
                pytest.skip(str(exc))
            async with await Store.open(where / "gouji.db") as store:
                filler: list[Path] = []
                await _through_an_outage(
                    store,
                    lambda: filler.append(fill_disk(where)),
                    lambda: filler[0].unlink(),
                    caplog,
                )
        return
    async with await Store.open(tmp_path / "gouji.db") as store:
        outage = FullDisk(store)
        await _through_an_outage(
            store,
            lambda: setattr(outage, "full", True),
            lambda: setattr(outage, "full", False),
            caplog,
        )


@pytest.fixture
def own_pg_server(request) -> Iterator[PgServer]:
    """A PostgreSQL server of this test alone (it is stopped and started)."""
    request.getfixturevalue("pg_server")  # skips (or fails under CI) without PostgreSQL
    bindir = find_bindir()
    assert bindir is not None
    server = PgServer(bindir).start()
    try:
        yield server
    finally:
        server.stop()


async def test_postgresql_stopped_and_started_is_waited_out(own_pg_server, caplog) -> None:
    async with await Store.open(own_pg_server.new_schema_url()) as store:
        await _through_an_outage(store, own_pg_server.halt, own_pg_server.resume, caplog)


async def test_a_store_error_in_the_automatic_play_is_waited_out_by_that_table_only(
    store, caplog
) -> None:
    """Two tables; the store fails the appends of one for a while (the AI seats answer
    first, so its automatic play meets it): that one waits, the other plays on."""
    clock = FakeClock()
    service, shown = make_service(store, clock=clock)
    bad = await seated_table(service, {"series": False})
    other = await service.open_table(GUILD, CHANNEL + 1, 201, {"series": False})
    for user in (202, 203, 204):
        await service.join(service.tables.table_in(CHANNEL + 1), user)
    await service.add_ai(service.tables.table_in(CHANNEL + 1), 201)
    append = store.append_action
    failing = [True]

    async def failing_append(game_id: int, action: str, expected_index=None) -> int:
        if failing[0] and game_id == bad.game_id:
            raise StoreError("the disk is full")
        return await append(game_id, action, expected_index)

    store.append_action = failing_append
    caplog.set_level(logging.WARNING, logger="gouji.bot")
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.start(service.tables.table_in(CHANNEL + 1), 201)
    await service.settle(bad)
    assert bad.stalled_since is not None and service.tables.table_in(CHANNEL) is bad
    await _play_out(service, other, [])
    assert other.running.finished
    await _retried(clock, bad, 2)
    failing[0] = False
    await _resumed(clock, service, bad)
    await _play_out(service, bad, [])
    assert bad.running.finished and not shown.of("broken")
    failed = [r for r in caplog.records if "waiting for its database" in r.getMessage()]
    assert failed and f"table {bad.id}" in failed[0].getMessage()
    # reading its log works while appends fail: each time the table came back and stalled
    # again it was the same outage — one warning, and the backoff went on (tries counted on)
    began = [
        m for r in caplog.records if (m := r.getMessage()).startswith(f"table {bad.id}: waiting")
    ]
    assert len(began) == 1, began
    await service.close()
