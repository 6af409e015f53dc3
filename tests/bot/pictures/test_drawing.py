"""The drawer: pictures from worker processes are the pictures drawn in-process."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.pictures import png as pictures
from bot.pictures.drawing import SOON, Drawer

HAND = "3s 3h 7d Tc Qs As 2h"


async def test_a_worker_process_draws_the_same_picture() -> None:
    drawer = Drawer(processes=1)
    drawer.start()
    try:
        png = await drawer(pictures.hand_png, HAND, "en", "33")
        assert png == pictures.hand_png(HAND, "en", "33")
        assert drawer._pool is not None, "drawn by the pool, not in a thread"
    finally:
        drawer.close()
    drawer.close()  # twice is fine
    assert drawer._pool is None


async def test_no_processes_means_threads() -> None:
    drawer = Drawer(processes=0)
    assert await drawer(pictures.hand_png, HAND, "zh") == pictures.hand_png(HAND, "zh")
    assert drawer._pool is None


def test_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        Drawer(processes=-1)


def test_the_environment_sets_the_drawing_processes() -> None:
    from bot.service.config import DRAW_PROCESSES, BotConfig

    assert BotConfig.from_env({}).draw_processes == DRAW_PROCESSES == 1
    assert BotConfig.from_env({"GOUJI_DRAW_PROCESSES": "0"}).draw_processes == 0
    assert BotConfig().draw_processes == 0  # built in code (tests): threads


async def test_background_pictures_wait_for_a_free_worker_others_do_not() -> None:
    drawer = Drawer(processes=0)  # threads: one background picture at a time as well
    gate = threading.Event()

    def slow_redraw() -> str:
        gate.wait(5)
        return "redraw"

    first = asyncio.create_task(drawer.background(slow_redraw))
    second = asyncio.create_task(drawer.background(lambda: "second redraw"))
    await asyncio.sleep(0)
    assert drawer._background is not None and drawer._background.locked()
    assert await drawer(lambda: "hand") == "hand", "a picture someone waits for goes ahead"
    assert not second.done()
    gate.set()
    assert await asyncio.gather(first, second) == ["redraw", "second redraw"]


async def test_a_kept_picture_queued_in_the_background_is_drawn_at_once_when_someone_waits() -> (
    None
):
    # a DM went without its hand picture (the workers were busy); the player presses and
    # the answer asks for that picture: it does not wait behind the queue of redraws
    drawer = Drawer(processes=0)
    gate = threading.Event()

    def slow_redraw() -> str:
        gate.wait(5)
        return "redraw"

    busy = asyncio.create_task(drawer.background(slow_redraw))
    queued = asyncio.create_task(drawer.background(pictures.hand_png, HAND, "en"))
    later = asyncio.create_task(drawer.background(lambda: "later"))
    await asyncio.sleep(0)
    assert drawer._background is not None and drawer._background.waiting(SOON) == 2
    png = await asyncio.wait_for(drawer(pictures.hand_png, HAND, "en"), 5)
    assert png == pictures.hand_png(HAND, "en") and await queued == png
    assert drawer.cache.misses == 1 and drawer.cache.hits == 1, "drawn once"
    assert not busy.done() and not later.done()
    assert drawer._background.waiting(SOON) == 1, "its place in the queue is given up"
    gate.set()
    assert await asyncio.gather(busy, later) == ["redraw", "later"]
    assert drawer._background.free == 1 and not drawer._hurry


async def test_a_slot_given_up_or_cancelled_while_waiting_is_not_taken() -> None:
    from bot.pictures.drawing import Gate

    gate = Gate(1)
    loop = asyncio.get_running_loop()
    async with gate.slot(SOON):

        async def hurried(skip: asyncio.Future[None]) -> bool:
            async with gate.slot_unless(SOON, skip) as held:
                return held

        skip = loop.create_future()
        waiter = asyncio.create_task(hurried(skip))
        await asyncio.sleep(0)
        assert gate.waiting(SOON) == 1
        skip.set_result(None)
        assert await waiter is False
        cancelled = asyncio.create_task(hurried(loop.create_future()))
        await asyncio.sleep(0)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
    assert gate.free == 1 and not gate.locked()
    async with gate.slot_unless(SOON, loop.create_future()) as held:  # free: a slot at once
        assert held and gate.free == 0
    assert gate.free == 1


async def test_an_unchanged_table_picture_is_not_drawn_again() -> None:
    drawer = Drawer(processes=0)
    drawn: list[str] = []

    def table(view: str) -> bytes:
        assert threading.get_ident() != loop_thread, "never drawn on the event loop's thread"
        drawn.append(view)
        return view.encode()

    loop_thread = threading.get_ident()

    def never() -> None:
        raise AssertionError("nothing is drawn off the caller's way when the workers are free")

    assert await drawer.latest(7, table, "a", then=never) == b"a"
    assert await drawer.latest(7, table, "a", then=never) == b"a"
    assert await drawer.latest(8, table, "a", then=never) == b"a"  # another table
    assert drawn == ["a", "a"] and drawer.latest_unchanged == 1 and drawer.latest_drawn == 2


async def test_a_busy_drawer_draws_only_the_newest_table_picture_off_the_callers_way() -> None:
    drawer = Drawer(processes=0)
    gate, drawn, shown = threading.Event(), list[str](), list[int]()

    def hand() -> bytes:
        gate.wait(5)
        return b"hand"

    def table(view: str) -> bytes:
        drawn.append(view)
        return view.encode()

    busy = asyncio.create_task(drawer.background(hand))
    await asyncio.sleep(0)
    # the table's queue does not wait: no picture yet, the newest of three is drawn later
    for view in ("1", "2", "3"):
        assert await drawer.latest(7, table, view, then=lambda: shown.append(7)) is None
    assert drawer.drawing_latest and drawn == []
    gate.set()
    await busy
    while drawer.drawing_latest:
        await asyncio.sleep(0.01)
    assert drawn == ["3"] and shown == [7], "drawn once, then told once"
    assert await drawer.latest(7, table, "3", then=shown.clear) == b"3"  # shown: not redrawn
    assert drawn == ["3"]


async def test_a_table_redraw_waits_behind_the_controllers_pictures() -> None:
    from bot.pictures.drawing import LATER, SOON, Gate

    gate = Gate(1)
    order: list[str] = []

    async def holder(name: str, priority: int) -> None:
        async with gate.slot(priority):
            order.append(name)
            await asyncio.sleep(0)

    async with gate.slot(SOON):
        tasks = [
            asyncio.create_task(holder("table", LATER)),
            asyncio.create_task(holder("hand 1", SOON)),
            asyncio.create_task(holder("hand 2", SOON)),
        ]
        await asyncio.sleep(0)
        assert gate.locked() and gate.waiting(LATER) == 1 and gate.waiting(SOON) == 2
    await asyncio.gather(*tasks)
    assert order == ["hand 1", "hand 2", "table"]
    assert not gate.locked() and gate.free == 1


async def test_a_waiter_cancelled_gives_its_slot_back() -> None:
    from bot.pictures.drawing import SOON, Gate

    gate = Gate(1)
    async with gate.slot(SOON):
        waiter = asyncio.create_task(gate.slot(SOON).__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
    assert gate.free == 1 and not gate.locked()
