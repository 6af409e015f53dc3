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

A table picture changes with every action: at hundreds of tables the pictures asked for
outrun one drawing process, and a table's queue of Discord jobs that waited for its picture
held its players' notifications behind the redraws of every other table. So
``drawer.latest(table_id, fn, *args, then=...)`` never draws a table's unchanged picture
again, and when the workers are busy it draws off the caller's way, at the lowest priority,
only the newest picture asked for each table, and returns None (``then()`` is called once
it is drawn, to show it) or the picture drawn since it was last shown.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from .cache import PictureCache, is_reusable

T = TypeVar("T")
log = logging.getLogger("gouji.bot")
SOON, LATER = 0, 1  # background priorities: a controller's hand picture, a table redraw
LATEST_KEPT = 2000  # tables whose last picture is kept (~70 KB each)


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


class Gate:
    """At most ``slots`` holders at a time; the waiter of the lowest priority number gets
    the next free slot (first come, first served within a priority)."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # given up: done
        self._queued = 0  # the waiters not given up (thousands at a busy moment: counted)
        self._order = itertools.count()

    def locked(self) -> bool:
        """Whether a new holder would wait."""
        return self.free == 0 or self._queued > 0

    def waiting(self, priority: int) -> int:
        """How many wait at ``priority``."""
        return sum(1 for p, _, f in self._waiting if p == priority and not f.done())

    @asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        await self._acquire(priority)
        try:
            yield
        finally:
            self._release()

    @asynccontextmanager
    async def slot_unless(self, priority: int, skip: asyncio.Future[None]) -> AsyncIterator[bool]:
        """A slot as :meth:`slot` gives it (True), or none (False) once ``skip`` is done
        while waiting for it: the holder goes ahead without a slot."""
        waiting = self._ask(priority)
        if waiting is not None:
            try:
                await asyncio.wait({waiting, skip}, return_when=asyncio.FIRST_COMPLETED)
            except BaseException:
                self._give_up(waiting)
                raise
            if not waiting.done():
                self._give_up(waiting)  # its place in the queue goes
                yield False
                return
        try:
            yield True
        finally:
            self._release()

    def _ask(self, priority: int) -> asyncio.Future[None] | None:
        """Take a free slot (None), or queue for one: the future done when it is handed over."""
        if not self.locked():
            self.free -= 1
            return None
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        self._queued += 1
        return future

    async def _acquire(self, priority: int) -> None:
        waiting = self._ask(priority)
        if waiting is None:
            return
        try:
            await waiting
        except asyncio.CancelledError:
            self._give_up(waiting)
            raise

    def _give_up(self, waiting: asyncio.Future[None]) -> None:
        """Leave the queue; a slot handed over meanwhile is given back."""
        if waiting.done() and not waiting.cancelled():
            self._release()
        else:
            waiting.cancel()  # _release passes it over
            self._queued -= 1

    def _release(self) -> None:
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)  # the slot goes straight to this waiter
                self._queued -= 1
                return
        self.free += 1


@dataclass
class _Latest:
    """One key's (a table's) last picture, and the newest one asked for while busy."""

    args: tuple[object, ...] | None = None  # what ``png`` shows
    png: bytes | None = None
    shown: bool = True  # ``png`` was returned since it was drawn
    wanted: tuple[Callable[..., bytes], tuple[object, ...]] | None = None
    then: Callable[[], None] | None = None
    task: asyncio.Task[None] | None = None


class Drawer:
    """Runs drawing functions in ``processes`` worker processes (0: in threads); the
    pictures of reusable functions are kept in ``cache``."""

    def __init__(self, processes: int = 0, cache: PictureCache | None = None) -> None:
        if processes < 0:
            raise ValueError("the number of drawing processes cannot be negative")
        self.processes = processes
        self.cache = cache if cache is not None else PictureCache()
        self._pool: ProcessPoolExecutor | None = None
        self._background: Gate | None = None  # made in the running loop
        self._latest: OrderedDict[Hashable, _Latest] = OrderedDict()
        # kept pictures asked for in the background, waiting for a slot, by cache key: done
        # when someone waits for one (``drawer(...)``), which then goes ahead of the queue
        self._hurry: dict[Hashable, asyncio.Future[None]] = {}
        self.latest_drawn = 0  # pictures ``latest`` drew (in the caller's way or not)
        self.latest_unchanged = 0  # pictures ``latest`` gave again without drawing

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
            hurry = self._hurry.get(self.cache.key(picture, args))
            if hurry is not None and not hurry.done():
                hurry.set_result(None)  # queued in the background: drawn now, waited for
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
        the table redraws instead of behind all of them. A kept picture comes at once; one
        still waiting for a worker when someone asks for it with ``drawer(...)`` (a press's
        answer showing the hand a DM went without) stops waiting: it goes to the workers
        at once, as theirs would."""
        if is_reusable(fn):
            picture = cast(Callable[..., bytes], fn)
            key = self.cache.key(picture, args)
            kept = await self.cache.get(picture, args, lambda: self._hurried(key, picture, *args))
            return cast(T, kept)
        return await self._queued(fn, *args)

    async def _hurried(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` when a worker is free, or at once when ``key`` is hurried."""
        hurry = self._hurry[key] = asyncio.get_running_loop().create_future()
        try:
            async with self._gate().slot_unless(SOON, hurry):
                return await self._run(fn, *args)
        finally:
            del self._hurry[key]

    def _gate(self) -> Gate:
        if self._background is None:
            self._background = Gate(max(1, self.processes))
        return self._background

    async def _queued(self, fn: Callable[..., T], *args: Any, priority: int = SOON) -> T:
        async with self._gate().slot(priority):
            return await self._run(fn, *args)

    async def latest(
        self,
        key: Hashable,
        fn: Callable[..., bytes],
        *args: object,
        then: Callable[[], None],
        wait: bool = False,
    ) -> bytes | None:
        """The picture ``fn(*args)`` of ``key`` (a table), drawn after every other
        background picture: the last one again if ``args`` are those it was drawn with.
        When the workers are busy (and not ``wait``), it is drawn off the caller's way, the
        newest ``args`` of ``key`` only, and ``then()`` is called once it is; meanwhile this
        gives the picture drawn since it was last given (a moment old), else None."""
        entry = self._latest.get(key)
        if entry is None:
            entry = self._latest[key] = _Latest()
            self._forget_old()
        self._latest.move_to_end(key)
        if entry.png is not None and entry.args == args:
            entry.shown = True
            entry.wanted = None  # an older wish drawn after this would show the past
            self.latest_unchanged += 1
            return entry.png
        if wait or (entry.task is None and not self._gate().locked()):
            png = await self._queued(fn, *args, priority=LATER)
            self.latest_drawn += 1
            if entry.task is None:  # else a newer one is being drawn
                entry.args, entry.png, entry.shown = args, png, True
            return png
        entry.wanted, entry.then = (fn, args), then
        if entry.task is None:
            entry.task = asyncio.create_task(self._draw_latest(entry))
        if entry.png is not None and not entry.shown:
            entry.shown = True
            return entry.png
        return None

    async def _draw_latest(self, entry: _Latest) -> None:
        try:
            while entry.wanted is not None:
                fn, args = entry.wanted
                entry.wanted = None
                png = await self._queued(fn, *args, priority=LATER)
                self.latest_drawn += 1
                entry.args, entry.png, entry.shown = args, png, False
            if entry.then is not None:
                entry.then()
        except Exception:
            log.exception("a picture drawn off the caller's way failed")
        finally:
            entry.task = None

    @property
    def drawing_latest(self) -> bool:
        """Whether a picture of :meth:`latest` is being drawn off its caller's way."""
        return any(e.task is not None for e in self._latest.values())

    def _forget_old(self) -> None:
        while len(self._latest) > LATEST_KEPT:
            oldest = next(iter(self._latest))
            if self._latest[oldest].task is not None:
                return
            del self._latest[oldest]

    def close(self) -> None:
        """Stop the workers (pictures being drawn are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
