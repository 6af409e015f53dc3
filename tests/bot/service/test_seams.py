"""Every seam of the flow resumes from the store: a two-game tribute series with a leave is
played through, and at each of the flow's writes — the start, a leave, each game's end,
the series' end — one run fails that write with a store error (the table waits for its
database and rebuilds itself) and another kills the process just after it commits (a new
incarnation of the process restores the table). Either way the series goes on by itself to
its end, and nothing is lost or doubled: each game recorded once, the leave kept, the close
announced once."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service.errors import UserError
from bot.service.live import LiveTable
from bot.service.presenter import RecordingPresenter
from bot.service.tables import TableService
from data import Store, StoreError
from engine.record import replay_series

from .helpers import CHANNEL, GUILD, HUMANS, FakeClock, make_service, seated_table, user_at

INSTANCE = "seams @ test"
#: The flow's writes of a series (the log's appends are counted only for a leave).
FLOW_WRITES = (
    "start_series",
    "start_game",
    "void_game",
    "record_game_result",
    "set_seat",
    "set_standin",
    "finish_series",
    "set_table_status",
    "append_action",
)
#: What a dead process cannot do either (not counted).
OTHER_WRITES = (
    "save_snapshot",
    "set_turn_deadline",
    "add_timeout",
    "reset_timeouts",
    "mark_broken",
    "renew_claims",
    "release_claims",
)
LEAVER = HUMANS[3]


class Killed(Exception):
    """The process died here: this store writes nothing more."""


class Seams:
    """Counts the flow's writes made through ``store`` and breaks the ``target``-th one:
    ``error`` raises a :class:`StoreError` instead of making it; ``kill`` makes it, then
    every call of this store raises :class:`Killed`."""

    def __init__(self, store: Store, target: int | None, mode: str) -> None:
        self.target, self.mode = target, mode
        self.writes: list[str] = []
        self.dead = False
        self.counting = False  # from the start of the series on
        for name in FLOW_WRITES + OTHER_WRITES:
            setattr(store, name, self._wrap(name, getattr(store, name)))

    def _wrap(self, name: str, write: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        @functools.wraps(write)
        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            if self.dead:
                raise Killed(name)
            counted = (
                self.counting
                and name in FLOW_WRITES
                and (name != "append_action" or str(args[1]).endswith(" leave"))
            )
            index = len(self.writes)
            if counted:
                self.writes.append(name)
            if counted and index == self.target and self.mode == "error":
                raise StoreError(f"injected: {name} failed")
            result = await write(*args, **kwargs)
            if counted and index == self.target and self.mode == "kill":
                self.dead = True
                raise Killed(name)
            return result

        return wrapped


class Run:
    """One series through the seams: the service serving it now, and every presenter."""

    def __init__(self, db_url: str, target: int | None, mode: str) -> None:
        self.db_url, self.target, self.mode = db_url, target, mode
        self.clock = FakeClock()
        self.stores: list[Store] = []
        self.shown: list[RecordingPresenter] = []
        self.seams: Seams | None = None
        self.service: TableService | None = None

    async def open(self) -> TableService:
        store = await Store.open(self.db_url)
        self.stores.append(store)
        if self.seams is None:
            self.seams = Seams(store, self.target, self.mode)
        service, shown = make_service(store, clock=self.clock, instance=INSTANCE)
        self.shown.append(shown)
        self.service = service
        await service.restore()
        return service

    @property
    def killed(self) -> bool:
        """The process died and has not restarted yet."""
        return self.seams is not None and self.seams.dead and len(self.stores) == 1

    async def restart(self) -> tuple[TableService, LiveTable]:
        """The process died: a new incarnation restores the table."""
        assert self.service is not None
        await self.service.close(release=False)
        service = await self.open()
        return service, service.tables.table_in(CHANNEL)

    async def close(self) -> None:
        if self.service is not None:
            await self.service.close()
        for store in self.stores:
            await store.close()


async def _waited_out(run: Run, service: TableService, live: LiveTable) -> None:
    """Move the clock on while the table waits for its database (it retries with backoff,
    rebuilds itself and goes on)."""
    for _ in range(400):
        if live.stalled_since is None and not _recovering(live):
            return
        run.clock.advance(1.0)
        await asyncio.sleep(0.002)
    raise AssertionError("the table never came back from its database")


def _recovering(live: LiveTable) -> bool:
    task = live.tasks.get("recovery")
    return task is not None and not task.done()


async def _play(run: Run) -> tuple[TableService, LiveTable]:
    """Start a two-game series, leave in its first game, play it out through the broken
    seam; returns the service and table it ended at."""
    service = await run.open()
    live = await seated_table(service, {"series_games": 2, "turn_time": 60})
    assert run.seams is not None
    run.seams.counting = True
    steps, left = 0, False
    while steps < 5000:
        steps += 1
        assert run.seams is not None
        if run.killed:
            service, live = await run.restart()
            continue
        try:
            if live.series is None:
                await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
                continue
            await service.settle(live)
            if run.killed:
                continue
            await _waited_out(run, service, live)
            if not live.playing and live.table.status == "lobby" and _settled(live):
                return service, live
            if not left and live.running.current is not None and len(live.running.deals) == 1:
                game = live.running.current.game
                if game is not None and len(game.actions) > 30:
                    try:
                        await service.leave(service.tables.table_in(CHANNEL), LEAVER)
                    except UserError as exc:  # it was logged before the process died
                        if exc.key != "left_table":
                            raise
                    left = True
                    continue
            waiting = [s for s in live.running.to_act if not live.is_ai(s)]
            if waiting:
                await service.act_hint(live, user_at(live, waiting[0]))
        except Killed:
            continue
        except UserError as exc:  # a press while the table waits for its database
            assert exc.key == "db_waiting", exc.key
            if not run.killed:
                await _waited_out(run, service, live)
    raise AssertionError(f"the series did not end: {run.seams.writes if run.seams else ''}")


def _settled(live: LiveTable) -> bool:
    return not live.tasks.get("recovery") or live.tasks["recovery"].done()


async def _check(run: Run, service: TableService, live: LiveTable) -> None:
    store = run.stores[-1]
    series = await store.get_series(live.series_row)
    assert series.status == "finished" and series.totals is not None
    assert (await store.get_table(live.id)).status == "lobby"
    record = await store.export_series_record(live.series_row)
    replay = replay_series({**record, "games_total": 2, "tribute": True})
    assert len([g for g in replay["games"] if g["finished"]]) == 2
    games = {user: (await store.get_profile(GUILD, user)).games for user in HUMANS}
    assert games == {**dict.fromkeys(HUMANS, 2), LEAVER: 1}, games  # each game once
    assert live.seats[3].user_id is None and live.seats[3].ai_kind is not None
    over = [k for shown in run.shown for k in shown.announced() if k == "ev_series_over"]
    assert len(over) == 1, over
    assert not any(shown.of("broken") for shown in run.shown)


async def _writes(db_url: str) -> list[str]:
    """The flow's writes of the series when nothing fails."""
    run = Run(db_url, None, "error")
    try:
        service, live = await _play(run)
        await _check(run, service, live)
        assert run.seams is not None
        return run.seams.writes
    finally:
        await run.close()


@pytest.fixture(scope="module")
def expected_writes() -> list[str]:
    """What :func:`_writes` gives (a test below checks it is still the flow's)."""
    return [
        "start_series",
        "start_game",
        "append_action",  # the leave
        "set_seat",  # its seat to the AI (托管)
        "record_game_result",
        "set_seat",  # the leaver's seat an AI seat for good
        "start_game",
        "record_game_result",
        "finish_series",
        "set_table_status",
    ]


async def test_the_flow_writes_what_the_seams_below_break(db_path, expected_writes) -> None:
    assert await _writes(f"sqlite:///{db_path}") == expected_writes


@pytest.mark.parametrize("mode", ["error", "kill"])
@pytest.mark.parametrize("target", range(10))
async def test_a_series_goes_on_after_a_failure_at_any_write(db_path, target, mode) -> None:
    run = Run(f"sqlite:///{db_path}", target, mode)
    try:
        service, live = await _play(run)
        assert run.seams is not None and len(run.seams.writes) > target
        if mode == "kill":
            assert len(run.stores) == 2, "the process was not killed"
        await _check(run, service, live)
    finally:
        await run.close()
