"""The drawer: pictures from worker processes are the pictures drawn in-process."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.pictures import png as pictures
from bot.pictures.drawing import Drawer

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
    from bot.service.config import BotConfig

    assert BotConfig.from_env({}).draw_processes == 1
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
