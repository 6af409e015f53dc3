"""Drawing pictures off the event loop: in worker processes, or in threads.

A picture takes 10-20 ms of mostly Python work. In a thread it holds the GIL that the event
loop needs, so with many tables every socket call of the loop waits behind the drawing (at
50 busy tables the first answers to interactions took up to half a second). Worker processes
have their own GIL: the loop stays free and a second core draws.

    drawer = Drawer(processes=1)       # 0: threads (tests; a one-core machine)
    png = await drawer(pictures.hand_png, cards, "zh")          # a reply someone waits for
    png = await drawer.background(pictures.view_png, view, "zh")  # a table redraw, a hand DM
    drawer.close()

The function and its arguments go to the worker by pickle: module-level functions of
``bot.pictures.png`` and plain data. A worker that dies is replaced on the next picture; that
picture is drawn in a thread. A function marked :func:`bot.pictures.cache.reusable` (a hand
picture) is drawn once per set of arguments: ``drawer.cache`` keeps its pictures.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar, cast

from .cache import PictureCache, is_reusable

T = TypeVar("T")
log = logging.getLogger("gouji.bot")


def _exit_with(parent: int) -> None:
    """End this worker once ``parent`` is gone (a bot killed by a signal does not stop its
    workers; left alone they would hold its output pipes open)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _start_worker(parent: int) -> None:
    """A new worker of the bot process ``parent``: watch it, fill the font and card caches
    (so the first picture is as fast as the rest)."""
    import render

    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    render.warm_up()


def _warm() -> None:
    import render

    render.warm_up()


class Drawer:
    """Runs drawing functions in ``processes`` worker processes (0: in threads); the
    pictures of reusable functions are kept in ``cache``."""

    def __init__(self, processes: int = 0, cache: PictureCache | None = None) -> None:
        if processes < 0:
            raise ValueError("the number of drawing processes cannot be negative")
        self.processes = processes
        self.cache = cache if cache is not None else PictureCache()
        self._pool: ProcessPoolExecutor | None = None
        self._background: asyncio.Semaphore | None = None  # made in the running loop

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the bot process has threads (SQLite, drawing) a fork would copy
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def start(self) -> None:
        """Start the workers now (they take a moment to import and warm up)."""
        if self.processes:
            pool = self._executor()
            for _ in range(self.processes):
                pool.submit(_warm)

    async def __call__(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a worker (or a thread); its result (kept, if ``fn`` is reusable)."""
        if is_reusable(fn):
            picture = cast(Callable[..., bytes], fn)
            kept = await self.cache.get(picture, args, lambda: self._run(picture, *args))
            return cast(T, kept)
        return await self._run(fn, *args)

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        if not self.processes:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            log.warning("a drawing process died; starting new ones")
            self._pool = None
            return await asyncio.to_thread(fn, *args)

    async def background(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` when a worker is free: at most one such picture per worker is in
        the pool's queue, so the pictures someone waits for (``drawer(...)``) get ahead of
        the table redraws instead of behind all of them. A kept picture comes at once."""
        if is_reusable(fn):
            picture = cast(Callable[..., bytes], fn)
            kept = await self.cache.get(picture, args, lambda: self._queued(picture, *args))
            return cast(T, kept)
        return await self._queued(fn, *args)

    async def _queued(self, fn: Callable[..., T], *args: Any) -> T:
        if self._background is None:
            self._background = asyncio.Semaphore(max(1, self.processes))
        async with self._background:
            return await self._run(fn, *args)

    def close(self) -> None:
        """Stop the workers (pictures being drawn are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
