"""Running a series at a table: applying actions (logged before anyone is answered), what
happens after each one (announcements, hands, prompts, the clock), the AI seats and the
automatic 要不起 passes, timeouts, dealing, and game results.

Part of :class:`bot.service.tables.TableService` (its ``flow``); every method that changes a table runs under the
table's lock (the ``_locked`` ones expect it held).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.service.clock import Clock
from bot.service.live import LiveTable
from bot.service.presenter import Acted, Place, Presenter, Who
from bot.service.questions import Prompt, question_kind
from bot.service.results import game_result, profile_updates
from bot.service.standing import change_line, seat_changes
from bot.service.supervise import Supervisor
from bot.text.narration import narration
from bot.text.params import (
    OwedLine,
    PlaceLine,
    RatingLine,
    ScoreLine,
    TeamPoints,
    TitleLine,
    TributeLine,
)
from data import ClaimLostError, Store
from data.models import TableStatus
from data.snapshots import SNAPSHOT_EVERY, logged_entries
from engine.actions import Action, IllegalActionError, Verb
from engine.ai import make_player
from engine.cards import deal
from engine.events import (
    HandChanged,
    Snapshot,
    changes,
    of_kind,
    snapshot,
    tribute_paid,
)
from engine.scoring import counts_as_open, team_totals, title_for

log = logging.getLogger("gouji.bot")

#: Seconds a finished game's result stays on the table for the people looking at it from a
#: page before the next deal, unless each presses go on (继续) sooner: time to read the places,
#: points and marks (the apps' result screens stand 10–15 s), and no more than a short wait
#: for a table whose person looks away. Nobody looking, the next deal comes at once.
RESULT_HOLD = 20.0


@dataclass(frozen=True, slots=True)
class _Before:
    """What the announcements and hand DMs are computed from, before an action: the deal,
    the cards each seat holds while tribute is returned, the game's public state."""

    deal: int
    returning: tuple[int, ...] | None
    game: Snapshot | None


@dataclass(frozen=True, slots=True)
class Step:
    """One automatic action the service will take: an AI seat acts, or a 要不起 pass."""

    deal: int
    index: int
    seat: int
    ai: bool


class Failures(Protocol):
    """What becomes of a table whose database or background job fails
    (:class:`bot.service.recovery.Recovery`)."""

    def stall_locked(self, live: LiveTable, exc: BaseException) -> None: ...

    def failed_locked(self, live: LiveTable, exc: BaseException, job: str) -> None: ...


class GameFlow:
    """The game side of the table service (see the module doc)."""

    failures: Failures  # set by the service once its recovery exists

    def __init__(
        self,
        store: Store,
        presenter: Presenter,
        clock: Clock,
        supervisor: Supervisor,
        rng: random.Random,
        *,
        ai_delay: float,
        warn_before: float,
    ) -> None:
        self.store = store
        self.presenter = presenter
        self.clock = clock
        self.supervisor = supervisor
        self.rng = rng
        self.ai_delay = ai_delay
        self.warn_before = warn_before

    # ----------------------------------------------------------------- applying
    def _before(self, live: LiveTable) -> _Before | None:
        series = live.series
        if series is None or series.current is None:
            return None
        cur = series.current
        if cur.game is None:
            return _Before(len(series.deals), tuple(len(h) for h in cur.hands), None)
        return _Before(len(series.deals), None, snapshot(cur.game))

    async def apply_locked(self, live: LiveTable, action: Action) -> None:
        """Apply ``action`` to the engine and append it to the log (committed, at the index
        the engine expects: the database refuses it anywhere else), then announce what it
        caused. Raises the engine's error (nothing changed) if refused; if the append fails
        the table waits for its database and is rebuilt from its log."""
        before = self._before(live)
        expected = logged_entries(live.running)
        live.running.apply(action)
        try:
            index = await self.store.append_action(
                live.game_row, str(action), expected_index=expected
            )
        except Exception as exc:
            if not isinstance(exc, ClaimLostError):  # the engine moved on, the log did not
                self.failures.stall_locked(live, exc)
            raise
        live.failures = 0
        if (index + 1) % SNAPSHOT_EVERY == 0:
            await self._snapshot_locked(live)
        try:
            self._announce_changes(live, before, action)
        except Exception:  # the action is logged: a display bug must not undo the answer
            log.exception("table %s: announcing %s failed", live.id, action)

    async def _snapshot_locked(self, live: LiveTable) -> None:
        """Store the engine's state, so that a restart resumes the table from here (a
        failure only costs the restart a longer replay: logged, never raised)."""
        try:
            await self.store.save_snapshot(live.game_row, live.running)
        except Exception:
            log.exception("table %s: saving its snapshot failed", live.id)

    def _announce_changes(self, live: LiveTable, before: _Before | None, action: Action) -> None:
        """Tell the presenter what the action changed (:mod:`engine.events`): the hands
        that changed, and the narrator's lines (:func:`bot.text.narration.narration`)."""
        series = live.series
        if before is None or series is None or before.deal != len(series.deals):
            return  # a new deal is announced by dealing it
        p = self.presenter
        cur = live.current
        game = cur.game
        if before.game is None or game is None:  # tribute returns: hands only
            for seat in range(6):
                now = len(cur.hands[seat]) if game is None else -1
                if before.returning is not None and before.returning[seat] != now:
                    self._hand_changed(live, seat)
            return
        events = changes(before.game, game, action)
        for changed in of_kind(events, HandChanged):
            self._hand_changed(live, changed.seat)
        for said in narration(events):  # the table's moments, as every front end tells them
            p.announce(live, said.key, **said.params)

    def _hand_changed(self, live: LiveTable, seat: int) -> None:
        if live.seats[seat].user_id is not None and seat not in live.leavers:
            self.presenter.hand_changed(live, seat)

    # ----------------------------------------------------------------- after a change
    async def after_change_locked(self, live: LiveTable) -> None:
        """Settle finished or void deals, update the clock and prompts, redraw."""
        await self.settle_locked(live)
        if live.ended:
            return
        await self.update_clock_locked(live)
        self.presenter.table_changed(live)
        self.kick(live)

    async def settle_locked(self, live: LiveTable) -> None:
        """Carry the series on to where its log says it stands: a void deal redealt, a
        finished one recorded, its leavers' seats given to the AI and the next deal dealt, a
        played-out series closed, a series without a deal dealt its first. Each step writes
        once and is skipped once written, so that after a crash or a store error anywhere
        in between (the table rebuilt from its rows, :mod:`bot.service.recovery`) this same
        loop finishes what was half done."""
        series = live.series
        if series is not None and not live.series_closed and live.table.status == "lobby":
            await self._set_status_locked(live, "playing")  # a start cut in two
        await self._resume_leaves_locked(live)
        while series is not None and live.table.status == "playing":
            cur = series.current
            if cur is None:  # started, and stopped before its first deal was written
                await self.deal_locked(live)
                continue
            if cur.void:
                if not live.deal_voided:
                    await self.store.void_game(live.game_row)
                    live.deal_voided = True
                    self.presenter.announce(live, "ev_void")
                await self.deal_locked(live)
                continue
            if not cur.finished:
                return
            if live.games_finished < len(series.counted):
                await self._record_result_locked(live)
            await self._seat_changes_after_game_locked(live)
            if series.finished:
                await self._finish_series_locked(live)
                return
            if await self._hold_result_locked(live):
                return
            await self.deal_locked(live)

    async def _hold_result_locked(self, live: LiveTable) -> bool:
        """Whether the finished game's result stays on the table: held once per deal, for
        the people looking at it from a page (AI seats and 托管 never wait), until each has
        pressed go on (:meth:`go_on_locked`) or :data:`RESULT_HOLD` seconds have passed."""
        deals = len(live.running.deals)
        if live.result_held_deal == deals:
            if live.result_waiting is None:
                return False
            still = frozenset(s for s in live.result_waiting if not live.is_ai(s))
            if not still:  # the last one waited on handed the seat to the AI (托管)
                await self._release_result_locked(live)
                return False
            live.result_waiting = still
            return True
        live.result_held_deal = deals
        people = frozenset(s for s, n in live.lookers.items() if n > 0 and not live.is_ai(s))
        if not people:
            return False
        live.result_waiting = people
        await self.set_deadline_locked(live, self.clock.now() + RESULT_HOLD, people)
        return True

    async def go_on_locked(self, live: LiveTable, seat: int) -> None:
        """``seat`` has seen the result: the next deal once nobody else is waited on."""
        if live.result_waiting is None or seat not in live.result_waiting:
            return
        live.result_waiting = live.result_waiting - {seat}
        if not live.result_waiting:
            await self._release_result_locked(live)
        else:
            await self.set_deadline_locked(live, live.deadline, live.result_waiting)
        await self.after_change_locked(live)

    async def _release_result_locked(self, live: LiveTable) -> None:
        live.result_waiting = None
        await self.set_deadline_locked(live, None, frozenset())

    async def _set_status_locked(self, live: LiveTable, status: TableStatus) -> None:
        """Write the table's status and keep the row in memory as written."""
        await self.store.set_table_status(live.id, status)
        live.table = replace(live.table, status=status)

    async def _resume_leaves_locked(self, live: LiveTable) -> None:
        """A leave logged (中途强退) whose seat was not yet handed to the AI (a crash or a
        store error between the two writes): hand it over now."""
        for seat, user in live.leavers.items():
            if not live.seats[seat].standin:
                live.seats[seat] = await self.store.set_seat(
                    live.id, seat, user_id=user, ai_kind=live.ai_kind(seat), standin=True
                )

    async def _record_result_locked(self, live: LiveTable) -> None:
        series = live.running
        cur = live.current
        users = [live.leavers.get(seat, live.seats[seat].user_id) for seat in range(6)]
        updates = profile_updates(cur, users)
        result = game_result(cur, tribute=live.options.series)
        await self.store.record_game_result(live.table.guild_id, live.game_row, updates, result)
        live.games_finished = len(series.counted)
        self._announce_result(live)
        await self._seat_changes_after_game_locked(live)

    def _announce_result(self, live: LiveTable) -> None:
        """The game's result card: places, team points, who opened, burned, was stifled,
        and the tribute owed next game (announced together, without a pause between)."""
        series = live.running
        cur = live.current
        game = live.running_game
        places = [p for p in game.places if p is not None]
        if len(places) != 6:
            raise RuntimeError(f"table {live.id}: a finished game without six places")
        order = sorted(range(6), key=lambda s: places[s])
        team = team_totals(cur.score())
        p = self.presenter
        p.announce(
            live,
            "ev_game_over",
            number=cur.number,
            places=[PlaceLine(Who(s), Place(places[s])) for s in order],
            teams=TeamPoints(team[0], team[1]),
        )
        opened = [Who(s) for s in range(6) if counts_as_open(game.opened, game.revolted, s)]
        if opened:
            p.announce(live, "ev_result_opened", users=opened)
        burners = [Who(b.burner) for b in game.successful_burns()]
        if burners:
            p.announce(live, "ev_result_burns", users=burners)
        if game.stifled:
            p.announce(live, "ev_result_stifled", users=[Who(s) for s, _ in game.stifled])
        owed = game.tribute() or []
        if live.options.series and owed and not series.finished:
            lines = [OwedLine(Who(t.payer), Who(t.receiver), t.count, t.kind) for t in owed]
            p.announce(live, "ev_tribute_owed", lines=lines)
        if game.sweep and not series.finished:
            p.announce(live, "ev_sweep")

    async def _seat_changes_after_game_locked(self, live: LiveTable) -> None:
        """Leavers' seats become AI seats; players waiting for an AI seat take it."""
        for seat in list(live.leavers):
            kind = live.ai_kind(seat)
            live.seats[seat] = await self.store.set_seat(live.id, seat, ai_kind=kind)
        live.leavers.clear()
        for seat, user in list(live.pending_joins.items()):
            if live.seats[seat].user_id is None and live.seat_of(user) is None:
                live.seats[seat] = await self.store.set_seat(live.id, seat, user_id=user)
                self.presenter.announce(live, "joined", user=Who(seat), seat=seat)
        live.pending_joins.clear()

    async def _finish_series_locked(self, live: LiveTable) -> None:
        """Close a played-out series: its totals written, then the totals, titles and
        rating changes announced, then the table back in the lobby. A close resumed after a
        crash or a store error (the table still playing) skips the totals once written and
        announces what it has not announced: only a crash between the announcements and the
        last write repeats them."""
        series = live.running
        changes = await self.store.series_rating_changes(live.series_row)
        rated = seat_changes(live.seats, changes)
        scores = series.player_scores()
        titles = []
        earned: list[str | None] = [None] * 6
        for seat in range(6):
            user = live.seats[seat].user_id
            if user is not None:
                profile = await self.store.get_profile(live.table.guild_id, user)
                earned[seat] = title_for(profile.score)
                titles.append(TitleLine(Who(seat), earned[seat] or ""))
        if not live.series_closed:
            await self.store.finish_series(live.series_row, series.totals())
            live.series_closed = True
        live.series_ratings = (live.series_row, rated)  # the scoreboard shows them
        live.series_titles = (live.series_row, tuple(earned))  # and the titles
        for seat in sorted(live.waiting):  # the answer that ended it: its mention goes too
            self.presenter.answered(live, seat)
        if live.closing_told != live.series_row:  # not again after a store error below
            self._announce_close(live, scores, titles, rated)
            live.closing_told = live.series_row
        await self._set_status_locked(live, "lobby")
        await self.set_deadline_locked(live, None, frozenset())

    def _announce_close(
        self,
        live: LiveTable,
        scores: list[int],
        titles: list[TitleLine],
        rated: tuple[tuple[float, float] | None, ...],
    ) -> None:
        """The series' totals, the players' titles, their rating changes; the series over."""
        if live.options.series:  # a single game has its result card: no series to end
            self.presenter.announce(
                live, "ev_series_over", totals=[ScoreLine(Who(s), scores[s]) for s in range(6)]
            )
        if titles:
            self.presenter.announce(live, "ev_titles", titles=titles)
        lines = [RatingLine(Who(s), change_line(*r)) for s, r in enumerate(rated) if r is not None]
        if lines:
            self.presenter.announce(live, "ev_ratings", ratings=lines)
        self.presenter.series_over(live)

    async def deal_locked(self, live: LiveTable) -> None:
        """Deal the next game (or the redeal of a void one): log it, pay tribute, DM hands."""
        seed = self.rng.randrange(2**31)
        hands = deal(seed)
        row = await self.store.start_game(
            live.series_row, seed, [" ".join(str(c) for c in h) for h in hands]
        )
        live.game_id = row.id
        live.deal_voided = False
        live.players.clear()
        cur = live.running.start_game(hands, seed)
        await self._snapshot_locked(live)
        if cur.paid:
            self.presenter.announce(
                live,
                "ev_tribute",
                lines=[
                    TributeLine(Who(t.payer), Who(t.receiver), t.cards) for t in tribute_paid(cur)
                ],
            )
        if len(live.running.deals) > 1:  # the first deal is announced by the start reply
            self.presenter.announce(live, "ev_next_game", number=cur.number)
        for seat in range(6):
            if live.seats[seat].user_id is not None:
                self.presenter.hand_changed(live, seat)

    # ----------------------------------------------------------------- the clock
    def _waiting_humans(self, live: LiveTable) -> frozenset[int]:
        if not live.playing:
            return frozenset()
        return frozenset(s for s in live.running.to_act if not live.is_ai(s))

    async def update_clock_locked(self, live: LiveTable) -> None:
        """Ask the people the table now waits on (DM prompt, channel ping) and run the
        clock for them; tell the presenter whose question was answered."""
        if live.result_waiting is not None:
            return  # a result held: its clock runs for the people looking at it
        waiting = self._waiting_humans(live)
        if next_step(live) is not None:
            waiting = frozenset()  # automatic actions first; then we see who is waited on
        kind = question_kind(live) if waiting else None
        key = (len(live.running.deals), kind) if kind is not None else None
        stale = live.waiting if key != live.clock_key else live.waiting - waiting
        for seat in sorted(stale):
            self.presenter.answered(live, seat)
        if kind is None:
            live.clock_key = None
            await self.set_deadline_locked(live, None, waiting)
            return
        if key != live.clock_key:  # a new question: everyone waited on is asked anew
            live.waiting = frozenset()
            live.clock_key = key
        new = waiting - live.waiting
        if not new and live.deadline is not None:
            live.waiting = waiting
            return
        seconds = live.options.burn_time if kind == Prompt.BURN else live.options.turn_time
        for seat in sorted(new):
            self.presenter.prompt(live, seat, kind)
        # every question notifies each person newly asked once (a turn, a burn window too)
        self.presenter.ping(
            live, sorted(new), "your_turn" if kind == Prompt.TURN else "your_turn_many"
        )
        await self.set_deadline_locked(live, self.clock.now() + seconds, waiting)

    async def set_deadline_locked(
        self, live: LiveTable, deadline: float | None, waiting: frozenset[int]
    ) -> None:
        live.waiting = waiting
        if deadline == live.deadline:
            return
        live.deadline = deadline
        await self.store.set_turn_deadline(live.id, deadline)
        old = live.tasks.pop("timer", None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if deadline is not None:
            live.tasks["timer"] = self.supervisor.start(
                live.id, "clock", lambda: self._timer(live, deadline)
            )

    async def _timer(self, live: LiveTable, deadline: float) -> None:
        warn_at = deadline - self.warn_before
        if self.warn_before > 0 and warn_at - self.clock.now() > 1:
            await self.clock.sleep(warn_at - self.clock.now())
            if live.deadline == deadline and live.waiting:
                self.presenter.warn(live, sorted(live.waiting), round(deadline - self.clock.now()))
        await self.clock.sleep(max(0.0, deadline - self.clock.now()))
        async with live.lock:
            if live.deadline != deadline or live.ended or live.stalled_since is not None:
                return
            try:
                await self._timeout_locked(live)
                await self.after_change_locked(live)
            except Exception as exc:
                self.failures.failed_locked(live, exc, "clock")

    async def _timeout_locked(self, live: LiveTable) -> None:
        """The clock ran out. Questions take their default (no declaring, no revolution,
        无头, the lowest legal return, no burn); a turn is played by the AI (托管), and a second
        timed-out turn in a row leaves the AI in the seat until ``back``."""
        if live.result_waiting is not None:  # a held result's time is up: the next deal
            await self._release_result_locked(live)
            return
        await self.set_deadline_locked(live, None, live.waiting)  # this clock is spent
        for seat in sorted(live.waiting):
            if not live.playing or seat not in live.running.to_act:
                continue
            if question_kind(live) == Prompt.TURN:
                count = await self.store.add_timeout(live.id, seat)
                if count >= 2 and not live.seats[seat].standin:
                    await self.store.set_standin(live.id, seat, True, live.ai_kind(seat))
                    self.presenter.announce(live, "timeout_standin", user=Who(seat))
                live.seats[seat] = (await self.store.get_seats(live.id))[seat]
                think = self._ai_thinker(live, seat)  # a timed-out turn: thought under the lock
                action = await self._ai_act_locked(live, seat, await think())
            else:
                action = self._fallback_action(live, seat)  # the engine's "no" comes first
                await self.apply_locked(live, action)
            cards = str(action.cards) if action.cards is not None else None
            self.presenter.announce(
                live, "ev_clock_played", user=Who(seat), what=Acted(action.verb, cards)
            )
        live.waiting = frozenset()

    # ----------------------------------------------------------------- AI and auto-pass
    def _ai_thinker(self, live: LiveTable, seat: int) -> Callable[[], Awaitable[Action | None]]:
        """The seat's AI choosing from what it sees now (taken under the lock): await the
        result with the lock released, so that the table's presses, views and notifications
        need not wait while it thinks (a strong AI's search takes up to a second, in a thread
        for the slower kinds). None: the AI failed (logged), and the table goes on."""
        try:
            series = live.running
            cur = live.current
            kind = live.ai_kind(seat)
            key = (seat, kind)
            player = live.players.get(key)
            if player is None:
                player = make_player(kind, (cur.seed or 0) * 6 + seat)
                live.players[key] = player
            game = cur.game
            if game is None:
                n, allowed = series.returnable(seat)
                act = functools.partial(_returned, seat, player, allowed, n)
            else:
                act = functools.partial(player.act, game.observe(seat))
            inline = kind == "hint" or game is None  # quick: no thread
        except Exception:  # an AI bug
            log.exception("table %s seat %s: the AI failed to choose", live.id, seat)
            return _no_choice

        async def think() -> Action | None:
            try:
                return act() if inline else await asyncio.to_thread(act)
            except Exception:  # an AI bug
                log.exception("table %s seat %s: the AI failed to choose", live.id, seat)
                return None

        return think

    def quiet(self, live: LiveTable) -> bool:
        """Whether the table waits on people only: no AI seat, 托管 or automatic pass is due
        to act (what a test or a benchmark waits for before it plays a person's part)."""
        return next_step(live) is None

    def kick(self, live: LiveTable) -> None:
        """Make sure the automatic actions of this table are being taken."""
        task = live.tasks.get("drive")
        if task is None or task.done():
            live.tasks["drive"] = self.supervisor.start(
                live.id, "automatic play", lambda: self._drive(live)
            )

    async def _drive(self, live: LiveTable) -> None:
        while True:
            async with live.lock:
                step = next_step(live)
            if step is None:
                return
            phase = question_kind(live)
            if step.ai and self.ai_delay > 0 and phase in (Prompt.TURN, Prompt.BURN):
                await self.clock.sleep(self.ai_delay)
            choice: Action | None = None
            if step.ai:
                async with live.lock:
                    if next_step(live) != step:
                        continue
                    think = self._ai_thinker(live, step.seat)
                choice = await think()  # without the lock; the step is checked again below
            async with live.lock:
                if next_step(live) != step:
                    continue
                try:
                    if step.ai:
                        await self._ai_act_locked(live, step.seat, choice)
                    else:
                        await self.apply_locked(live, Action(step.seat, Verb.PASS))
                    await self.after_change_locked(live)
                except Exception as exc:
                    self.failures.failed_locked(live, exc, "automatic play")
                    return

    async def _ai_act_locked(self, live: LiveTable, seat: int, action: Action | None) -> Action:
        """The seat's AI's choice ``action`` is taken (:meth:`_ai_thinker`). An AI that
        failed (None) or whose action is refused must not stop the table: the first legal
        action is taken instead (a default one where there is one: no burn, no declaring, no
        revolution, the lowest return), and that is logged."""
        if action is not None:
            try:
                await self.apply_locked(live, action)
                return action
            except IllegalActionError as exc:
                log.warning("table %s seat %s: the AI chose %s: %s", live.id, seat, action, exc)
        kind = question_kind(live)
        action = self._fallback_action(live, seat)
        log.warning(
            "table %s seat %s (%s): took %s instead of the AI's choice", live.id, seat, kind, action
        )
        await self.apply_locked(live, action)
        return action

    def _fallback_action(self, live: LiveTable, seat: int) -> Action:
        """A legal action for ``seat`` in every phase (play, burn window, declare, revolt,
        return): the first of the engine's legal actions, or the lowest return."""
        game = live.current.game
        if game is None:
            return Action(seat, Verb.RETURN, live.running.default_return(seat))
        return game.legal_actions(seat)[0]

    async def settle(self, live: LiveTable) -> None:
        """Wait until the table has taken every automatic action it can (tests)."""
        while True:
            task = live.tasks.get("drive")
            if task is None or task.done():
                async with live.lock:
                    if next_step(live) is None:
                        return
                self.kick(live)
            await asyncio.sleep(0)
            if task is not None and not task.done():
                await asyncio.wait({task})


async def _no_choice() -> Action | None:
    """The thought of an AI that failed before it could think (:meth:`GameFlow._ai_thinker`)."""
    return None


def _returned(seat: int, player: Any, allowed: list[int], n: int) -> Action:
    """The AI's 还贡: ``n`` cards of ``allowed`` (rank counts)."""
    return Action(seat, Verb.RETURN, player.choose_return(allowed, n))


def next_step(live: LiveTable) -> Step | None:
    """The automatic action the table takes next (an AI seat acts, or a 要不起 pass), or
    None: it waits on people (or nothing is on)."""
    if live.ended or not live.playing or live.stalled_since is not None:
        return None
    series = live.running
    cur = live.current
    index = len(cur.game.actions) if cur.game else sum(r.cards is not None for r in cur.returns)
    for seat in series.to_act:
        if live.is_ai(seat):
            return Step(len(series.deals), index, seat, True)
    if live.options.auto_pass and cur.game is not None and cur.game.window is None:
        for seat in series.to_act:
            if cur.game.only_pass(seat):
                return Step(len(series.deals), index, seat, False)
    return None
