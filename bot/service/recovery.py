"""A table that outlives a crash or a database hiccup, and a process that serves only the
tables it holds.

**Restoring** (:meth:`Recovery.restore`): at start-up — and every third of the lease for
the tables of a process that died (:meth:`Recovery.tend_claims`) — the process claims the
open tables of its shards nobody else holds and rebuilds each from its log; every open
question is asked again, with a fresh clock (a crash between logging an action and sending
the next controller left it unasked, and nothing stored can tell).

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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

from bot.service.clock import Clock
from bot.service.errors import OUTAGES, UserError
from bot.service.flow import GameFlow
from bot.service.live import LiveTable, TableOptions
from bot.service.presenter import Presenter
from bot.service.registry import Registry
from bot.service.supervise import Supervisor, backoff
from data import ENGINE, ActiveTable, ClaimLostError, Store
from data.claims import incarnation_of, incarnation_owner

log = logging.getLogger("gouji.bot")

#: Failures in a row that are not the database's before a table is set aside as broken.
MAX_FAILURES = 3
#: seconds after coming back within which a new store error is the same outage (a full
#: disk lets the log be read, then the next append fails): no new warning, the backoff goes on
RELAPSE = 5.0
#: The background jobs that drive a table (a failure of any other — a Discord outbox, a
#: notice — is only logged).
DRIVING = frozenset({"automatic play", "clock", "recovery"})


class Recovery:
    """Restoring tables, claims, waiting out a database outage, and losing a table to
    another process (the part of :class:`bot.service.tables.TableService` that deals with
    crashes, outages and other processes: its ``recovery``)."""

    def __init__(
        self,
        store: Store,
        tables: Registry,
        flow: GameFlow,
        presenter: Presenter,
        clock: Clock,
        supervisor: Supervisor,
        *,
        owner: str,
        lease: float,
        instance: str | None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.flow = flow
        self.presenter = presenter
        self.clock = clock
        self.supervisor = supervisor
        # The process claims the tables it serves (a shard process: of its shards only)
        # under a name of its own, and writes only to those it holds. With an ``instance``
        # (the bot's: data.claims.default_instance) the first restore names it anew as the
        # next incarnation of that instance, and it takes that instance's tables at once.
        self.owner = owner
        self.lease = lease
        self.instance = instance
        self._held: set[int] = set()  # tables another process holds (logged once)

    @asynccontextmanager
    async def serving(self, live: LiveTable) -> AsyncIterator[None]:
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
                self.stall_locked(live, exc)
                raise UserError("db_waiting") from None

    def failed_locked(self, live: LiveTable, exc: BaseException, job: str) -> None:
        """A background ``job`` of the table failed with ``exc`` (the lock is held)."""
        if live.ended:
            return
        if isinstance(exc, ClaimLostError):
            self._lost_locked(live, exc)
            return
        if isinstance(exc, OUTAGES):
            self.stall_locked(live, exc)
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
        self.stall_locked(live, exc)  # rebuilt from its log, it may go on

    async def task_failed(self, table_id: int, job: str, exc: Exception) -> None:
        """A supervised task ended with an exception (logged by the supervisor)."""
        live = self.tables.find(table_id)
        if live is None or live.ended or job not in DRIVING:
            return
        async with live.lock:
            self.failed_locked(live, exc, job)

    def _lost_locked(self, live: LiveTable, exc: ClaimLostError) -> None:
        """Another process holds the table now: stop serving it, write nothing."""
        log.warning("table %s: %s — no longer served by %s", live.id, exc, self.owner)
        self.tables.forget(live)
        self.presenter.moved(live)

    def stall_locked(self, live: LiveTable, exc: BaseException) -> None:
        """The table waits for its database: its clock and automatic play stop, and a
        recovery task retries until the table is rebuilt from its log."""
        if live.stalled_since is None:
            now = self.clock.now()
            since, tries, back = live.relapse or (now, 0, -RELAPSE)
            if now - back <= RELAPSE:  # back, then stalled again at once: the same outage
                live.stalled_since, live.stall_tries = since, tries  # its backoff goes on
            else:
                live.stalled_since, live.stall_tries = now, 0
                log.warning(
                    "table %s: waiting for its database (%s: %s)",
                    live.id,
                    type(exc).__name__,
                    exc,
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
        waits = backoff()  # its own jitter: the deals' random numbers stay the deals'
        for _ in range(min(live.stall_tries, 8)):  # a relapse waits as long as the last try
            next(waits)
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
                    self.stall_locked(live, exc)  # what the try started stops again
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
            self.tables.forget(live)
        log.error("table %s is set aside as broken: %s", live.id, reason)
        try:
            await self.store.mark_broken(live.id, f"table {live.id}: {reason}")
        except ClaimLostError:
            log.warning("table %s: another process holds it; not marked broken here", live.id)
            return
        except OUTAGES:
            log.exception("table %s: marking it broken failed", live.id)
        self.presenter.broken(live.id, live.table.channel_id, reason)

    # ----------------------------------------------------------------- restoring
    async def restore(self) -> list[int]:
        """Claim the open tables of this process's shards that nobody else holds and rebuild
        them from their logs (at start-up, and for tables whose holder stopped renewing:
        :meth:`tend_claims`); returns the ids of tables found broken."""
        await self._incarnate()
        claims = await self.store.claim_tables(
            self.owner, shards=self.tables.shards, lease=self.lease
        )
        for table_id, holder in claims.held:
            if table_id not in self._held:
                log.warning("table %s is held by %s: not restored here", table_id, holder)
        self._held = {table_id for table_id, _ in claims.held}
        # every active table of these shards not served here is coming back: "a moment"
        self.tables.coming = {t: c for t, c in claims.channels if t not in self.tables}
        new = [t for t in claims.claimed if t not in self.tables]
        if not new:
            return []
        return await self._restore_claimed(new)

    async def _incarnate(self) -> None:
        """A process with an instance names itself as its next incarnation, once: the
        tables of its earlier ones are then its to take at once (data/claims.py)."""
        if self.instance is None or incarnation_of(self.owner)[0] == self.instance:
            return
        epoch = await self.store.incarnate(self.instance)
        self.owner = incarnation_owner(self.instance, epoch)
        self.store.act_as(self.owner, lease=self.lease)
        log.info("this process serves as %s", self.owner)

    async def _restore_claimed(self, new: list[int]) -> list[int]:
        """Rebuild the tables ``new`` this process just claimed; returns those broken."""
        report = await self.store.load_active_tables(
            shards=self.tables.shards, owner=self.owner, engine=ENGINE, tables=new
        )
        broken = []
        for b in report.broken:
            broken.append(b.table_id)
            self.tables.coming.pop(b.table_id, None)
            log.error("table %s is set aside as broken: %s", b.table_id, b.reason)
            self.presenter.broken(b.table_id, b.channel_id, b.reason)
        for active in report.tables:
            try:
                live = await rebuild(self.store, active)
            except ValueError as exc:  # RecordError, ReplayError: the log does not replay
                reason = f"table {active.table.id}: its log does not replay: {exc}"
                log.error("table %s is set aside as broken: %s", active.table.id, reason)
                try:
                    await self.store.mark_broken(active.table.id, reason)
                except OUTAGES:  # still claimed: the next tend_claims tries it again
                    log.exception("table %s: marking it broken failed", active.table.id)
                    continue
                broken.append(active.table.id)
                self.tables.coming.pop(active.table.id, None)
                self.presenter.broken(active.table.id, active.table.channel_id, reason)
                continue
            self.tables.register(live)
            async with live.lock:
                try:
                    await self.flow.settle_locked(live)
                    await self._restore_clock_locked(live)
                except Exception as exc:
                    self.failed_locked(live, exc, "restore")
                    continue
                self.presenter.table_changed(live)
                self.flow.kick(live)
        return broken

    async def _resync_locked(self, live: LiveTable) -> None:
        """Rebuild the table in place from its log (it waited for its database), then go
        on as after a restart: every open question is asked again."""
        report = await self.store.load_active_tables(
            owner=self.owner, engine=ENGINE, tables=[live.id]
        )
        if report.broken:
            raise ValueError(report.broken[0].reason)
        if not report.tables:  # no longer active and this process's
            holder = (await self.store.get_table(live.id)).owner
            raise ClaimLostError(f"table {live.id} is held by {holder or 'nobody'} now")
        fresh = await rebuild(self.store, report.tables[0])
        live.table, live.seats, live.options = fresh.table, fresh.seats, fresh.options
        live.series, live.series_id, live.game_id = fresh.series, fresh.series_id, fresh.game_id
        live.games_finished, live.leavers = fresh.games_finished, fresh.leavers
        live.deal_voided, live.series_closed = fresh.deal_voided, fresh.series_closed
        live.players.clear()
        live.ranked = None
        await self.flow.settle_locked(live)
        await self._restore_clock_locked(live)
        live.relapse = (live.stalled_since or self.clock.now(), live.stall_tries, self.clock.now())
        live.stalled_since = None
        live.stall_tries = 0
        self.presenter.table_changed(live)
        self.flow.kick(live)

    async def _restore_clock_locked(self, live: LiveTable) -> None:
        """After a restore (or a wait for the database) this process has asked nothing:
        every open question is asked again — its controller sent again (the DM, or the
        channel mention for a player without DMs) — and its clock starts afresh. (A crash
        between logging an action and sending the next controller left that question
        unasked; a stored deadline cannot tell.)"""
        live.clock_key = None
        live.waiting = frozenset()
        live.deadline = None
        await self.flow.update_clock_locked(live)

    # ----------------------------------------------------------------- claims
    async def renew_claims(self) -> list[int]:
        """Renew this process's claims; a table whose claim was lost (another process took
        it after this one stalled past the lease) is dropped from memory. Returns those."""
        served = set(self.tables.by_id)
        held = set(await self.store.renew_claims(self.owner, lease=self.lease))
        lost = sorted(t for t in served - held if t in self.tables)
        for table_id in lost:
            await self.lose(table_id)
        return lost

    async def tend_claims(self) -> list[int]:
        """Every third of the lease: renew the claims (dropping the tables lost), then take
        the tables of these shards whose holder stopped renewing (it died) and restore them.
        Returns the ids of the tables taken over."""
        await self.renew_claims()
        before = set(self.tables.by_id)
        await self.restore()
        return sorted(set(self.tables.by_id) - before)

    async def lose(self, table_id: int) -> None:
        """Stop serving a table another process now holds (nothing is written to it)."""
        live = self.tables.find(table_id)
        if live is None:
            return
        async with live.lock:
            self._lost_locked(live, ClaimLostError(f"table {table_id}: its claim was lost"))


async def rebuild(store: Store, active: ActiveTable) -> LiveTable:
    """A table in memory as its rows hold it (its series and current deal replayed from the
    log; nothing asked, no clock): what restoring starts from, and a read-only mirror of a
    table another process serves (bench.discord_shards)."""
    options = TableOptions.from_json(active.table.options)
    live = LiveTable(active.table, list(active.seats), options)
    if active.series is None:
        return live
    live.series_id = active.series.id
    live.series = await store.restore_series(
        active, games_total=options.games, tribute=options.series
    )
    last = active.games[-1].game if active.games else None
    live.game_id = last.id if last is not None else None
    live.deal_voided = last is not None and last.status == "void"
    live.series_closed = active.series.status != "playing"
    live.games_finished = sum(1 for g in active.games if g.game.status == "finished")
    game = live.game
    for seat in live.seats:  # a leave logged is a leave, its seat handed over or not yet
        if seat.user_id is not None and game is not None and seat.seat in game.left:
            live.leavers[seat.seat] = seat.user_id
    return live
