"""A service's background look: ``work()`` now, then again every ``every`` seconds of the
service's clock, or at once when woken (:meth:`Periodic.wake`). A failure is logged (a store
outage as a warning) and the next look tries again; :meth:`Periodic.close` cancels it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from data import StoreError

from .clock import Clock

log = logging.getLogger("gouji.bot")


class Periodic:
    """One named background loop (the tournaments' steps, the monthly seasons)."""

    def __init__(
        self, name: str, work: Callable[[], Awaitable[object]], clock: Clock, every: float
    ) -> None:
        self.name = name
        self.work = work
        self.clock = clock
        self.every = every
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name=self.name)

    def wake(self) -> None:
        """Look again now (a callback may call it: it returns at once)."""
        self._woken.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            self._woken.clear()
            try:
                await self.work()
            except StoreError as exc:  # an outage: the next look tries again
                log.warning("%s: the store failed: %s", self.name, exc)
            except Exception:
                log.exception("%s failed", self.name)
            sleep = asyncio.ensure_future(self.clock.sleep(self.every))
            woken = asyncio.ensure_future(self._woken.wait())
            await asyncio.wait({sleep, woken}, return_when=asyncio.FIRST_COMPLETED)
            for task in (sleep, woken):
                task.cancel()
