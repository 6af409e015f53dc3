"""The service's clock: what time it is and how to wait. Injectable, so that tests move time
by hand instead of sleeping (``tests/bot/service/helpers.py``: ``FakeClock``)."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Seconds since the epoch, and waiting some of them."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
