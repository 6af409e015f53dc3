"""Tournaments (比赛) on a server, run by the service without an organiser's babysitting
(docs/tournaments.md).

The event is data in the store (data/tournaments.py); :meth:`TournamentService.step` reads
it and does whatever is due, each step once, so a restarted process (or the next step after
a store error) goes on where the event stood:

- a round over (or none yet) and its pause (``gap``) passed: the next round is seated
  (engine/tournament/seating.py) — or, after the last, the event is over;
- a seated table with no game table: a venue (the front end's :class:`Venues`: a thread
  under the event's channel on Discord) and a table there in the lobby, its AI seats
  filled; once every table of the round has one, the round is posted (:class:`EventListener`);
- a table waiting for its players: each shows up (:meth:`TournamentService.show_up`: sits
  down at their planned seat); when all have, or at the show-up deadline, the seats still
  empty get AI players (those players are absent: they score nothing) and it starts;
- a table playing: once its series is played out, its players' results (the store's
  ``table_outcome``: the game's own scoring) are recorded — once — and the table ends.

The front ends call the lobby (:meth:`create`, :meth:`join`, :meth:`leave`, :meth:`start`,
:meth:`pause`, :meth:`resume`, :meth:`skip`, :meth:`end`) and read :meth:`board`. A refusal
is a :class:`~bot.service.errors.UserError` with a ``tournament_…`` key.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from data import Store
from data.tournaments import Tournament, TournamentState
from engine.tournament import (
    Config,
    ConfigError,
    RoundPlan,
    Standing,
    absent_result,
    seat_round,
    standings,
)

from .errors import UserError
from .periodic import Periodic
from .presenter import Listener
from .tables import TableService

log = logging.getLogger("gouji.bot")

#: The AI level of a tournament's AI seats (filling a table, or a no-show's seat).
AI_LEVEL = "hint"
#: Seconds between two looks at the running events (deadlines; a table's end wakes it at once).
POLL = 1.0


class Venues(Protocol):
    """Where a round's table plays: the front end makes the place (a Discord thread)."""

    async def table_channel(self, event: Tournament, round_number: int, table: int) -> int: ...


class ListedChannels:
    """The venues the organiser listed (``Config.channels``): table n plays in the n-th.
    Why listed channels rather than threads the bot creates: no permission beyond the
    bot's own (creating threads asks for more), each channel keeps one table at a time as
    every table does, and a server that limits where tables open lists those channels."""

    async def table_channel(self, event: Tournament, round_number: int, table: int) -> int:
        if table > len(event.config.channels):
            raise UserError("tournament_few_channels", count=len(event.config.channels))
        return event.config.channels[table - 1]


class EventListener(Protocol):
    """What the front end tells the server. Called outside any lock; may await."""

    async def round_seated(
        self, event: Tournament, plan: RoundPlan, channels: dict[int, int], board: Board
    ) -> None: ...

    async def event_over(self, event: Tournament, board: Board) -> None: ...


@dataclass(frozen=True, slots=True)
class Board:
    """An event's standings and where its current round plays (table → channel)."""

    event: Tournament
    lines: tuple[Standing, ...]
    plan: RoundPlan | None
    channels: dict[int, int]
    finished_tables: frozenset[int]


@dataclass(frozen=True, slots=True)
class TableStandings:
    """What a round's table shows of its event: its name, the round of how many, its status
    and the standings (the same lines as :meth:`TournamentService.board`; players only, an
    AI seat is never in them)."""

    event_id: int
    name: str
    round: int
    rounds: int
    status: str
    lines: tuple[Standing, ...]


def board_of(state: TournamentState, channels: dict[int, int]) -> Board:
    ev = state.tournament
    lines = standings(ev.config, state.players, state.rounds, state.left)
    plan = state.rounds[-1].plan if state.rounds else None
    done = frozenset(
        t.number for t in state.tables if t.round == ev.round and t.status == "finished"
    )
    return Board(ev, tuple(lines), plan, channels, done)


class _Wake(Listener):
    """Wakes the runner when a table's series is over or a table closes."""

    def __init__(self, wake: Callable[[], None]) -> None:
        self._wake = wake

    def series_over(self, live: object) -> None:
        self._wake()

    def closed(self, live: object, key: str) -> None:
        self._wake()


class TournamentService:
    """The server's events, run over the table service's tables."""

    def __init__(
        self,
        tables: TableService,
        venues: Venues,
        listener: EventListener,
        *,
        poll: float = POLL,
    ) -> None:
        self.tables = tables
        self.store: Store = tables.store
        self.clock = tables.clock
        self.venues = venues
        self.listener = listener
        self.poll = poll
        self._locks: dict[int, asyncio.Lock] = {}
        self._loop = Periodic("tournaments", self._step_all, self.clock, poll)
        self._waker = _Wake(self._loop.wake)
        self._running = False
        #: Rounds whose seating this process posted: (event, round) → when.
        self.seated_at: dict[tuple[int, int], float] = {}
        #: When each round's last table was recorded: (event, round) → time.
        self.over_at: dict[tuple[int, int], float] = {}

    # ----------------------------------------------------------------- running
    def run(self) -> None:
        """Start running this process's events (its shards' servers) in the background."""
        if not self._running:
            self._running = True
            self.tables.listen(self._waker)
            self._loop.start()

    async def close(self) -> None:
        await self._loop.close()
        if self._running:
            self._running = False
            self.tables.unlisten(self._waker)

    async def _step_all(self) -> None:
        for event in await self.store.running_tournaments(shards=self.tables.shards):
            await self.step(event.id)

    def _lock(self, event_id: int) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    async def step(self, event_id: int) -> None:
        """Do whatever the event has due now (nothing while it is not running)."""
        async with self._lock(event_id):
            await self._step_locked(event_id)

    async def _step_locked(self, event_id: int) -> None:
        state = await self.store.load_tournament(event_id)
        ev = state.tournament
        if ev.status != "running":
            return
        now = self.clock.now()
        if not state.rounds or state.rounds[-1].over:
            if not await self._next_round(state, now):
                return
            state = await self.store.load_tournament(event_id)
            ev = state.tournament
        number = state.rounds[-1].plan.number
        plan = state.rounds[-1].plan
        opened = recorded = False
        for t in state.tables:
            if t.round != number or t.status in ("finished", "skipped"):
                continue
            seats = plan.tables[t.number - 1].seats
            if t.table_id is None:
                await self._open(ev, number, t.number, seats)
                opened = True
            elif t.status == "seated":
                await self._start_if_ready(ev, (number, t.number), t.table_id, seats, now)
            else:
                recorded |= await self._collect(ev, number, t.number, t.table_id, seats)
        state = await self.store.load_tournament(event_id)
        if self._unposted(state, opened):
            await self._post_seating(state)
        if state.rounds[-1].over and recorded:  # the round's last table just ended
            self.over_at[(event_id, number)] = self.clock.now()  # (the store set when it is due)
            if ev.config.gap == 0 or number >= ev.config.rounds:
                await self._step_locked(event_id)  # straight on: the next round, or the end

    def _unposted(self, state: TournamentState, opened: bool) -> bool:
        """Whether the current round's seating is to be posted now: its tables all open,
        and either one just opened, or this process never posted it while a table still
        waits for its players (a crash or a failed post after the opening: the players
        are told, at least once)."""
        tables = [t for t in state.tables if t.round == state.tournament.round]
        if not tables or any(t.table_id is None for t in tables):
            return False
        key = (state.tournament.id, state.tournament.round)
        return opened or (key not in self.seated_at and any(t.status == "seated" for t in tables))

    async def _post_seating(self, state: TournamentState) -> None:
        """Post the round's seating; a failure is logged and the next look posts it."""
        ev, plan = state.tournament, state.rounds[-1].plan
        channels = await self._channels(state)
        try:
            await self.listener.round_seated(ev, plan, channels, board_of(state, channels))
        except Exception:
            log.exception("tournament %s: round %s's seating not posted yet", ev.id, ev.round)
            return
        self.seated_at[(ev.id, ev.round)] = self.clock.now()

    async def _next_round(self, state: TournamentState, now: float) -> bool:
        """Seat the next round if it is due (True), or end the event after its last."""
        ev = state.tournament
        done = len(state.rounds)
        if done < ev.config.rounds and ev.due_at is not None and now < ev.due_at:
            return False  # the pause between rounds
        lines = standings(ev.config, state.players, state.rounds, state.left)
        plan = None
        if done < ev.config.rounds:
            plan = seat_round(ev.config, done + 1, lines, state.rounds)
        if plan is None or not plan.tables:
            await self._finish(ev)
            return False
        await self.store.seat_tournament_round(ev.id, plan, due_at=now + ev.config.show_up)
        return True

    async def _finish(self, ev: Tournament, status: str = "finished") -> None:
        await self.store.set_tournament_status(ev.id, status)
        state = await self.store.load_tournament(ev.id)
        await self.listener.event_over(state.tournament, board_of(state, {}))

    async def _channels(self, state: TournamentState) -> dict[int, int]:
        out = {}
        for t in state.tables:
            if t.round == state.tournament.round and t.table_id is not None:
                out[t.number] = (await self.store.get_table(t.table_id)).channel_id
        return out

    async def _open(
        self, ev: Tournament, number: int, table: int, seats: Sequence[int | None]
    ) -> None:
        """A venue and a table in its lobby: the organiser opens it (and leaves its seat
        unless planned there), the AI seats filled; the players show up. After a crash
        between the table's opening and its being noted, the table the organiser opened in
        the venue is taken as it is; one of a finished event table still open is ended."""
        channel = await self.venues.table_channel(ev, number, table)
        options = {**ev.config.table, "series": ev.config.games == 5}
        try:
            table_id = (
                await self.tables.open_table(ev.guild_id, channel, ev.organiser_id, options)
            ).id
        except UserError as exc:
            if exc.key != "table_exists":
                raise
            table_id = await self._left_behind(ev, channel)
        await self.store.set_tournament_table(
            ev.id, number, table, table_id=table_id, status="seated"
        )
        await self._prepare(ev, channel, table_id, seats)

    async def _left_behind(self, ev: Tournament, channel: int) -> int:
        """The venue's open table a crash left: a lobby the organiser opened for no event
        table yet (its id), or an event table's that finished (ended, then the venue is
        opened again); else ``UserError('table_exists')``."""
        for row in await self.store.tables_in_channel(ev.guild_id, channel):
            noted = await self.store.tournament_of_table(row.id)
            if noted is None and row.status == "lobby" and row.creator_id == ev.organiser_id:
                return row.id
            if noted is not None and await self.store.table_outcome(row.id) is not None:
                with contextlib.suppress(UserError):
                    await self.tables.end(
                        self.tables.tables.table_in(channel), ev.organiser_id, True
                    )
                options = {**ev.config.table, "series": ev.config.games == 5}
                live = await self.tables.open_table(ev.guild_id, channel, ev.organiser_id, options)
                return live.id
        raise UserError("table_exists")

    async def _prepare(
        self, ev: Tournament, channel: int, table_id: int, seats: Sequence[int | None]
    ) -> None:
        """The lobby as planned, whatever of it was done before: the organiser off a seat
        not theirs, AI players in the seats the plan leaves to them."""
        held = await self.store.get_seats(table_id)
        if held[0].user_id == ev.organiser_id and seats[0] != ev.organiser_id:
            await self.tables.leave(self.tables.tables.table_in(channel), ev.organiser_id)
        for seat, player in enumerate(seats):
            if player is None and held[seat].user_id is None and held[seat].ai_kind is None:
                await self.tables.add_ai(
                    self.tables.tables.table_in(channel), ev.organiser_id, seat, AI_LEVEL
                )

    async def _start_if_ready(
        self,
        ev: Tournament,
        at: tuple[int, int],
        table_id: int,
        seats: Sequence[int | None],
        now: float,
    ) -> None:
        """Start the table once its players sat down, or at the deadline with AI seats for
        those who did not (or were skipped)."""
        table = await self.store.get_table(table_id)
        if table.status == "playing" or await self.store.table_outcome(table_id) is not None:
            # started before a crash noted it: playing
            await self.store.set_tournament_table(
                ev.id, at[0], at[1], table_id=table_id, status="playing"
            )
            return
        await self._prepare(ev, table.channel_id, table_id, seats)
        held = [s.user_id for s in await self.store.get_seats(table_id)]
        late = ev.due_at is not None and now >= ev.due_at
        missing = [s for s, p in enumerate(seats) if p is not None and held[s] != p]
        if missing and not late:
            return
        try:
            for seat in missing:
                stranger = held[seat]
                if stranger is not None:
                    await self.tables.leave(self.tables.tables.table_in(table.channel_id), stranger)
                await self.tables.add_ai(
                    self.tables.tables.table_in(table.channel_id), ev.organiser_id, seat, AI_LEVEL
                )
            await self.tables.start(self.tables.tables.table_in(table.channel_id), ev.organiser_id)
        except UserError as exc:  # coming back after a restart: the next look
            log.info("tournament %s: table %s not started yet (%s)", ev.id, table_id, exc.key)
            return
        await self.store.set_tournament_table(
            ev.id, at[0], at[1], table_id=table_id, status="playing"
        )

    async def _collect(
        self, ev: Tournament, number: int, table: int, table_id: int, seats: Sequence[int | None]
    ) -> bool:
        """Record a played-out table's results (once) and end the table: whether it did."""
        outcome = await self.store.table_outcome(table_id)
        if outcome is None:
            return False
        results = [
            outcome.get(p) or absent_result(p) for p in seats if p is not None
        ]  # a player with no game there never showed up
        recorded = await self.store.record_tournament_table(
            ev.id, number, table, results, next_due=self.clock.now() + ev.config.gap
        )
        channel = (await self.store.get_table(table_id)).channel_id
        with contextlib.suppress(UserError):  # ended already, or not served here
            await self.tables.end(self.tables.tables.table_in(channel), ev.organiser_id, True)
        return recorded

    # ----------------------------------------------------------------- the lobby
    async def create(
        self, guild_id: int, channel_id: int, organiser_id: int, config: Config
    ) -> Tournament:
        """A new event, open for entries (one at a time on a server)."""
        if await self.store.guild_tournaments(guild_id, active=True):
            raise UserError("tournament_exists")
        if config.seed == 0:  # the draw of round 1 and every tie left after the tie-breaks
            config = replace(config, seed=self.tables.rng.randrange(1, 2**31))
        return await self.store.create_tournament(guild_id, channel_id, organiser_id, config)

    async def current(self, guild_id: int) -> Tournament:
        """The server's event not over yet, else its latest; ``tournament_none``."""
        events = await self.store.guild_tournaments(guild_id)
        if not events:
            raise UserError("tournament_none")
        return next((e for e in events if e.active), events[0])

    async def join(self, guild_id: int, user_id: int) -> Tournament:
        ev = await self.current(guild_id)
        if ev.status != "open":
            raise UserError("tournament_started")
        if not await self.store.join_tournament(ev.id, user_id):
            raise UserError("tournament_joined")
        return ev

    async def leave(self, guild_id: int, user_id: int) -> Tournament:
        """Leave the event: before its start the entry goes; after, the player is out —
        mid-game they leave the table too (the game's leave: −10, the AI plays on)."""
        ev = await self.current(guild_id)
        if not ev.active:
            raise UserError("tournament_over")
        async with self._lock(ev.id):
            if not await self.store.leave_tournament(ev.id, user_id):
                raise UserError("tournament_not_in")
            state = await self.store.load_tournament(ev.id)
            for t in state.tables:
                if t.round == ev.round and t.table_id is not None and t.status != "finished":
                    table = await self.store.get_table(t.table_id)
                    held = [s.user_id for s in await self.store.get_seats(t.table_id)]
                    if user_id in held:
                        with contextlib.suppress(UserError):
                            await self.tables.leave(
                                self.tables.tables.table_in(table.channel_id), user_id
                            )
        return ev

    async def start(self, guild_id: int, user_id: int) -> Tournament:
        """The organiser starts the event: round 1 is seated at once."""
        ev = await self._organised(guild_id, user_id)
        if ev.status != "open":
            raise UserError("tournament_started")
        players = (await self.store.load_tournament(ev.id)).players
        if len(players) < (1 if ev.config.ai_fill else 6) or (
            len(players) < ev.config.finalists and ev.config.format == "knockout"
        ):
            raise UserError("tournament_too_few", count=len(players))
        tables = ev.config.tables_for(len(players))
        if ev.config.channels and tables > len(ev.config.channels):
            raise UserError("tournament_few_channels", count=len(ev.config.channels))
        await self.store.set_tournament_status(ev.id, "running")
        await self.step(ev.id)
        self._loop.wake()
        return await self.store.get_tournament(ev.id)

    async def show_up(self, guild_id: int, user_id: int) -> int:
        """The player sits down at their table of the current round; its channel."""
        ev = await self.current(guild_id)
        state = await self.store.load_tournament(ev.id)
        if ev.status not in ("running", "paused") or not state.rounds:
            raise UserError("tournament_not_running")
        plan = state.rounds[-1].plan
        if user_id in state.left:
            raise UserError("tournament_not_in")
        table = plan.table_of(user_id)
        row = next(
            (
                t
                for t in state.tables
                if table and t.round == plan.number and t.number == table.number
            ),
            None,
        )
        if table is None or row is None:
            raise UserError("tournament_no_seat")
        if row.table_id is None or row.status != "seated":
            raise UserError("tournament_table_not_ready", table=table.number)
        channel = (await self.store.get_table(row.table_id)).channel_id
        seats = [s.user_id for s in await self.store.get_seats(row.table_id)]
        if seats[table.seats.index(user_id)] != user_id:
            await self.tables.join(
                self.tables.tables.table_in(channel), user_id, table.seats.index(user_id)
            )
        self._loop.wake()
        return channel

    async def pause(self, guild_id: int, user_id: int) -> Tournament:
        """No new round while paused (the tables playing play on)."""
        ev = await self._organised(guild_id, user_id)
        if ev.status != "running":
            raise UserError("tournament_not_running")
        async with self._lock(ev.id):
            await self.store.set_tournament_status(ev.id, "paused", due_at=ev.due_at)
        return ev

    async def resume(self, guild_id: int, user_id: int) -> Tournament:
        ev = await self._organised(guild_id, user_id)
        if ev.status != "paused":
            raise UserError("tournament_not_paused")
        async with self._lock(ev.id):
            await self.store.set_tournament_status(ev.id, "running", due_at=ev.due_at)
        self._loop.wake()
        return ev

    async def skip(self, guild_id: int, user_id: int) -> Tournament:
        """The organiser stops waiting for the no-shows: the round's tables start now,
        AI seats for those not there."""
        ev = await self._organised(guild_id, user_id)
        if ev.status != "running":
            raise UserError("tournament_not_running")
        await self.store.set_tournament_due(ev.id, self.clock.now())
        await self.step(ev.id)
        return ev

    async def end(self, guild_id: int, user_id: int) -> Tournament:
        """End the event early: tables still playing are ended (their games do not count),
        and the ranking is what was recorded."""
        ev = await self._organised(guild_id, user_id)
        if not ev.active:
            raise UserError("tournament_over")
        async with self._lock(ev.id):
            state = await self.store.load_tournament(ev.id)
            for t in state.tables:
                if t.status in ("seated", "playing") and t.table_id is not None:
                    channel = (await self.store.get_table(t.table_id)).channel_id
                    with contextlib.suppress(UserError):
                        await self.tables.end(
                            self.tables.tables.table_in(channel), ev.organiser_id, True
                        )
            await self._finish(ev, "ended")
        return await self.store.get_tournament(ev.id)

    async def board(self, guild_id: int) -> Board:
        """The current (or latest) event's standings and tables."""
        ev = await self.current(guild_id)
        state = await self.store.load_tournament(ev.id)
        return board_of(state, await self._channels(state))

    async def standings_for_table(self, table_id: int) -> TableStandings | None:
        """The event of a round's table and its standings now; None for a table of no event,
        or of an event that is over."""
        found = await self.store.tournament_of_table(table_id)
        if found is None:
            return None
        state = await self.store.load_tournament(found[0])
        ev = state.tournament
        if not ev.active:
            return None
        lines = standings(ev.config, state.players, state.rounds, state.left)
        return TableStandings(
            ev.id, ev.config.name, ev.round, ev.config.rounds, ev.status, tuple(lines)
        )

    async def _organised(self, guild_id: int, user_id: int) -> Tournament:
        ev = await self.current(guild_id)
        if ev.organiser_id != user_id:
            raise UserError("tournament_organiser")
        return ev


def config_of(**settings: object) -> Config:
    """Settings from a front end, or ``UserError('tournament_bad_setting')``."""
    try:
        return Config(**settings)  # type: ignore[arg-type]
    except (ConfigError, TypeError, ValueError) as exc:
        raise UserError("tournament_bad_setting", setting=str(exc)) from None
