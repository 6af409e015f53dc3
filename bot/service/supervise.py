"""Every background task of the table service runs here (the automatic play, the clock, a
table waiting for its database, the Discord outboxes): an exception is logged with its
table's id and handed to ``on_failure`` (the service decides: wait for the database, drop a
table whose claim was lost, …); the other tables go on. Cancelling a task (a table closing,
the bot stopping) is no failure.

A task is started from a factory (``lambda: self._drive(live)``), called inside the task: a
task cancelled before it ran leaves no coroutine behind that was never awaited.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any

log = logging.getLogger("gouji.bot")

OnFailure = Callable[[int, str, Exception], Awaitable[None]]
Work = Callable[[], Coroutine[Any, Any, None]]

#: Waiting for the database: the first retry after FIRST seconds, each wait then FACTOR
#: times the one before, never more than MOST (±JITTER of it, so that many tables of one
#: process do not knock on the database in step). A table retries as long as it is open:
#: an outage of any length is waited out, and the table is back at most MOST seconds after
#: the database.
FIRST, FACTOR, MOST, JITTER = 0.25, 2.0, 5.0, 0.2


def backoff(rng: random.Random | None = None) -> Iterator[float]:
    """The waits between two tries: 0.25, 0.5, 1, 2, 4, 5, 5, … seconds (with jitter)."""
    pick = rng or random.Random()
    wait = FIRST
    while True:
        yield wait * (1 + JITTER * (2 * pick.random() - 1))
        wait = min(wait * FACTOR, MOST)


class Supervisor:
    """Starts tasks for tables and watches them (it also keeps them referenced)."""

    def __init__(self, on_failure: OnFailure | None = None) -> None:
        self.on_failure = on_failure
        self.tasks: set[asyncio.Task[None]] = set()

    def start(self, table_id: int, name: str, work: Work) -> asyncio.Task[None]:
        """Run ``work()`` (the ``name`` job of table ``table_id``) as a supervised task."""
        task = asyncio.create_task(
            self._run(table_id, name, work), name=f"table {table_id}: {name}"
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _run(self, table_id: int, name: str, work: Work) -> None:
        try:
            await work()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("table %s: the %s task failed", table_id, name)
            if self.on_failure is None:
                return
            try:
                await self.on_failure(table_id, name, exc)
            except Exception:
                log.exception("table %s: handling the failed %s task failed too", table_id, name)

    async def cancel_all(self) -> None:
        """Cancel every task still running and wait until they have ended (shutting down:
        nothing of theirs is written after this returns)."""
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
