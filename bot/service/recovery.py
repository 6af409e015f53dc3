"""A table that outlives a database hiccup, and a process that lets go of a table it lost.

When a write fails — SQLite busy past its timeout, a full disk, PostgreSQL down — the table
may hold in memory what its log does not (the engine moved on, the append did not land), so
it *waits for its database*: it stays in memory and in its channel, refuses presses and
commands with "the table is waiting for its database" (nothing is acknowledged that is not
logged), stops its clock and automatic play, and retries with backoff
(:func:`bot.service.supervise.backoff`: 0.25 s doubling to 5 s, as long as the table is
open; the tries logged 1, 2, 4, 8 … so that a long outage of many tables stays readable). A try rebuilds the table from its log — the same path as a restart:
nothing acknowledged is lost, nothing is applied twice (appends state the index they
expect) — asks every open question again and goes on. A table is set aside as broken only
when its log does not replay (or when something that is not the database fails it
:data:`MAX_FAILURES` times in a row: a bug that rebuilding does not cure).

A table whose claim another process took (:class:`~data.ClaimLostError`: this one stalled
past its lease) is dropped at once, without a write, and the log says so.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING

from bot.service.clock import Clock
from bot.service.errors import UserError
from bot.service.live import LiveTable
from bot.service.presenter import Presenter
from bot.service.supervise import Supervisor, backoff
from data import ClaimLostError, Store, StoreError

log = logging.getLogger("gouji.bot")

#: What a failing database raises: the store's errors, and the operating system's (a full
#: disk, a broken socket) should one slip through a driver.
OUTAGES: tuple[type[Exception], ...] = (StoreError, OSError)
#: Failures in a row that are not the database's before a table is set aside as broken.
MAX_FAILURES = 3
#: The background jobs that drive a table (a failure of any other — a Discord outbox, a
#: notice — is only logged).
DRIVING = frozenset({"automatic play", "clock", "recovery"})


class Recovery:
    """Waiting out a database outage, and losing a table to another process (a mixin of
    :class:`bot.service.tables.TableService`)."""

    store: Store
    presenter: Presenter
    clock: Clock
    rng: random.Random
    supervisor: Supervisor
    tables: dict[int, LiveTable]
    owner: str

    if TYPE_CHECKING:  # provided by the service

        def _forget_locked(self, live: LiveTable) -> None: ...

        async def _resync_locked(self, live: LiveTable) -> None: ...

    @asynccontextmanager
    async def _serving(self, live: LiveTable) -> AsyncIterator[None]:
        """The table's lock, for a command: ``UserError('db_waiting')`` while the table
        waits for its database; a database failure inside makes it wait (and the command is
        refused so: nothing was acknowledged); a lost claim drops the table
        (``UserError('table_moved')``)."""
        async with live.lock:
            if live.ended:
                raise UserError("no_table")
            if live.stalled_since is not None:
                raise UserError("db_waiting")
            try:
                yield
            except ClaimLostError as exc:
                self._lost_locked(live, exc)
                raise UserError("table_moved") from None
            except OUTAGES as exc:
                self._stall_locked(live, exc)
                raise UserError("db_waiting") from None

    def _failed_locked(self, live: LiveTable, exc: BaseException, job: str) -> None:
        """A background ``job`` of the table failed with ``exc`` (the lock is held)."""
        if live.ended:
            return
        if isinstance(exc, ClaimLostError):
            self._lost_locked(live, exc)
            return
        if isinstance(exc, OUTAGES):
            self._stall_locked(live, exc)
            return
        live.failures += 1
        log.error(
            "table %s: the %s failed (%d in a row)", live.id, job, live.failures, exc_info=exc
        )
        if live.failures >= MAX_FAILURES:
            reason = (
                f"the {job} failed {live.failures} times in a row ({type(exc).__name__}: {exc})"
            )
            self.supervisor.start(live.id, "setting aside", partial(self._set_aside, live, reason))
            return
        self._stall_locked(live, exc)  # rebuilt from its log, it may go on

    async def _task_failed(self, table_id: int, job: str, exc: Exception) -> None:
        """A supervised task ended with an exception (logged by the supervisor)."""
        live = self.tables.get(table_id)
        if live is None or live.ended or job not in DRIVING:
            return
        async with live.lock:
            self._failed_locked(live, exc, job)

    def _lost_locked(self, live: LiveTable, exc: ClaimLostError) -> None:
        """Another process holds the table now: stop serving it, write nothing."""
        log.warning("table %s: %s — no longer served by %s", live.id, exc, self.owner)
        self._forget_locked(live)

    def _stall_locked(self, live: LiveTable, exc: BaseException) -> None:
        """The table waits for its database: its clock and automatic play stop, and a
        recovery task retries until the table is rebuilt from its log."""
        if live.stalled_since is None:
            live.stalled_since = self.clock.now()
            live.stall_tries = 0
            log.warning(
                "table %s: waiting for its database (%s: %s)", live.id, type(exc).__name__, exc
            )
        for name in ("drive", "timer"):
            task = live.tasks.pop(name, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        live.deadline = None
        task = live.tasks.get("recovery")
        if task is None or task.done():
            live.tasks["recovery"] = self.supervisor.start(
                live.id, "recovery", lambda: self._recover(live)
            )

    async def _recover(self, live: LiveTable) -> None:
        """Retry with backoff until the table is rebuilt from its log (or set aside)."""
        waits = backoff(self.rng)
        while True:
            await self.clock.sleep(next(waits))
            async with live.lock:
                if live.ended or live.stalled_since is None:
                    return
                live.stall_tries += 1
                waited = self.clock.now() - live.stalled_since
                try:
                    await self._resync_locked(live)
                except ClaimLostError as exc:
                    self._lost_locked(live, exc)
                    return
                except OUTAGES as exc:
                    if live.stall_tries & (live.stall_tries - 1) == 0:  # tries 1, 2, 4, 8 …
                        log.warning(
                            "table %s: still waiting for its database after %.1f s (%d tries): %s",
                            live.id,
                            waited,
                            live.stall_tries,
                            exc,
                        )
                    self._stall_locked(live, exc)  # what the try started stops again
                    continue
                except ValueError as exc:  # RecordError, ReplayError: the log does not replay
                    reason = f"its log does not replay: {exc}"
                    self.supervisor.start(
                        live.id, "setting aside", partial(self._set_aside, live, reason)
                    )
                    return
                log.warning(
                    "table %s: back after %.1f s of waiting for its database (%d tries)",
                    live.id,
                    waited,
                    live.stall_tries,
                )
                return

    async def _set_aside(self, live: LiveTable, reason: str) -> None:
        """Mark the table broken (its owner only) and tell its channel — in general words:
        the reason may quote a hand, it goes to the log."""
        async with live.lock:
            if live.ended:
                return
            self._forget_locked(live)
        log.error("table %s is set aside as broken: %s", live.id, reason)
        try:
            await self.store.mark_broken(live.id, f"table {live.id}: {reason}")
        except ClaimLostError:
            log.warning("table %s: another process holds it; not marked broken here", live.id)
            return
        except OUTAGES:
            log.exception("table %s: marking it broken failed", live.id)
        self.presenter.broken(live.id, live.table.channel_id, reason)
