"""Every background task of the table service runs here (the automatic play, the clock, the
Discord outboxes): an exception is logged with its table's id and handed to ``on_failure``
(the service sets the table aside as broken and says so in its channel); the other tables go
on. Cancelling a task (a table closing, the bot stopping) is no failure."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

log = logging.getLogger("gouji.bot")

OnFailure = Callable[[int, str, Exception], Awaitable[None]]


class Supervisor:
    """Starts tasks for tables and watches them (it also keeps them referenced)."""

    def __init__(self, on_failure: OnFailure | None = None) -> None:
        self.on_failure = on_failure
        self.tasks: set[asyncio.Task[None]] = set()

    def start(
        self, table_id: int, name: str, work: Coroutine[Any, Any, None]
    ) -> asyncio.Task[None]:
        """Run ``work`` (the ``name`` job of table ``table_id``) as a supervised task."""
        task = asyncio.create_task(
            self._run(table_id, name, work), name=f"table {table_id}: {name}"
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _run(self, table_id: int, name: str, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
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

    def cancel_all(self) -> None:
        """Cancel every task still running (shutting down)."""
        for task in list(self.tasks):
            task.cancel()
