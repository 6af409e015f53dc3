"""Keeping the bot under Discord's global request limit before Discord refuses.

Discord allows a bot 50 requests per second over every route called with its token (the
interaction callbacks and follow-ups, which discord.py sends through its webhook adapter, are
not counted). discord.py waits out each route's own bucket from the ``X-RateLimit-*`` headers,
but learns of the global limit only from a 429. :class:`Pace` spaces the bot-token requests
so that no second holds more than ``limit`` of them; :func:`pace_requests` puts it in front
of a client's ``http.request``.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import discord

GLOBAL_LIMIT = 45  # requests per second: Discord's 50, with room for the network's jitter


class Pace:
    """At most ``limit`` starts in any ``per`` seconds (a sliding window); ``clock`` and
    ``sleep`` may be replaced by a test."""

    def __init__(
        self,
        limit: int = GLOBAL_LIMIT,
        per: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] = asyncio.sleep,
    ) -> None:
        if limit < 1 or per <= 0:
            raise ValueError("a pace needs a limit of at least 1 per a positive time")
        self.limit, self.per = limit, per
        self.clock, self.sleep = clock, sleep
        self.starts: deque[float] = deque()
        self.waited = 0  # how many requests had to wait (for tests and logs)
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        """Return when one more request may start now."""
        async with self._lock:  # in order: the first to wait is the first to go
            while True:
                now = self.clock()
                while self.starts and now - self.starts[0] >= self.per:
                    self.starts.popleft()
                if len(self.starts) < self.limit:
                    self.starts.append(now)
                    return
                self.waited += 1
                await self.sleep(self.starts[0] + self.per - now)


def pace_requests(client: discord.Client, pace: Pace) -> None:
    """Make every bot-token request of ``client`` wait for ``pace`` first."""
    http = client.http
    request = http.request

    async def paced(route: discord.http.Route, **kwargs: Any) -> Any:
        await pace.wait()
        return await request(route, **kwargs)

    http.request = paced  # type: ignore[method-assign]
