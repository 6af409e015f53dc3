"""The table service: every table command, with no Discord in sight.

One table per channel (the database holds to it too). Who may do what is checked here
(seated, not left, creator, whose turn, values within their declared bounds); the engine
decides legality; every accepted action is in the store before the call returns; what
follows (AI seats, automatic passes, clocks, results) runs under the table's lock, and the
outside world hears about it through a :class:`~bot.service.presenter.Presenter`.

Each process claims the tables it serves under a name of its own
(:func:`data.claims.process_owner`) and writes only to the tables it holds; a table whose
database fails waits for it (:mod:`bot.service.recovery`).

    service = TableService(store, presenter)
    await service.restore()                      # rebuild every open table from its log
    live = await service.open_table(guild, channel, user, {"turn_time": 60})
    await service.act(live, user, Verb.PLAY, "KK")  # raises UserError / IllegalActionError
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Any

from bot.service.archive import Archive
from bot.service.clock import Clock, SystemClock
from bot.service.errors import OUTAGES, UserError
from bot.service.flow import GameFlow
from bot.service.live import LiveTable, TableOptions, echo
from bot.service.presenter import Listeners, Mention, Presenter, Who
from bot.service.questions import question_token
from bot.service.recovery import Recovery
from bot.service.registry import Registry
from bot.service.seasons import Seasons
from bot.service.supervise import Supervisor
from bot.service.table_views import TableViews
from bot.service.views import RecentLog
from data import ChannelTakenError, Seat, Store
from data.claims import DEFAULT_LEASE, Shards, process_owner, serving
from engine.actions import Action, Verb
from engine.ai import DIFFICULTIES, ai_kind, suggest
from engine.cards import CardError, counts_of, format_cards, parse_cards
from engine.hands import HandError, Play, classify
from engine.options import Phase
from engine.series import Series

log = logging.getLogger("gouji.bot")

VERBS = frozenset(Verb) - {Verb.LEAVE}  # what a player may do at a table (leaving is /gouji leave)
#: The store's "server" of the tables outside Discord (:func:`own_place`).
OWN_GUILD = 0
#: The most characters of cards read from a command (the longest play is far shorter).
LONGEST_CARDS = 200


def check_seat(seat: object) -> None:
    """``UserError('bad_seat')`` unless ``seat`` is None (any) or a seat 0–5."""
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 5):
        raise UserError("bad_seat", seat=echo(seat))


def table_ai_kind(name: str) -> str:
    """The kind of AI a table seats for ``name`` (a difficulty — 简单/普通/困难, easy/normal/
    hard — or its kind), or ``UserError('unknown_ai')``: no random play at a table."""
    try:
        kind = ai_kind(name)
    except (ValueError, TypeError):
        kind = ""
    if kind not in (d.kind for d in DIFFICULTIES):
        raise UserError("unknown_ai", name=echo(name))
    return kind


def own_place(user_id: int) -> tuple[int, int]:
    """Where the store keeps a person's own table, outside Discord: server 0 (no Discord
    server has id 0), "channel" minus their user id (no Discord channel is negative)."""
    return OWN_GUILD, -user_id


class TableService:
    """All tables of the bot (see the module doc)."""

    def __init__(
        self,
        store: Store,
        presenter: Presenter,
        *,
        ai_delay: float = 0.8,
        warn_before: float = 10.0,
        idle_seconds: float = 3600.0,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        shards: Shards | None = None,
        lease: float = DEFAULT_LEASE,
        instance: str | None = None,
    ) -> None:
        self.store = store
        self.lease = lease
        self.idle_seconds = idle_seconds
        self.clock = clock or SystemClock()
        self.rng = rng or random.SystemRandom()  # the deals' (and events' draws) randomness
        self.recent = RecentLog()  # the announcements its views show
        self.presenter: Listeners = Listeners(self.recent, presenter)  # more: listen()
        # one table's failed background job never stops another: see Recovery.task_failed
        self.supervisor = Supervisor(lambda *failed: self.recovery.task_failed(*failed))
        self.tables = Registry(store, self.clock, shards)  # every table served here
        self.views = TableViews(self.tables, self.recent)  # what a table shows, to whom
        self.archive = Archive(store)  # settings, standings, finished deals, records
        self.seasons = Seasons(store, self.clock)  # 赛季: each server's, and the monthly ones
        self.flow = GameFlow(  # the play: actions, AI seats, clocks, dealing, results
            store,
            self.presenter,
            self.clock,
            self.supervisor,
            self.rng,
            ai_delay=ai_delay,
            warn_before=warn_before,
        )
        self.recovery = Recovery(  # restoring, claims, outages, other processes
            store,
            self.tables,
            self.flow,
            self.presenter,
            self.clock,
            self.supervisor,
            owner=process_owner(serving(shards)),
            lease=lease,
            instance=instance,
        )
        self.flow.failures = self.recovery
        store.act_as(self.recovery.owner, lease=lease)

    @property
    def shards(self) -> Shards | None:
        """The shards whose servers' tables this process serves (None: every server)."""
        return self.tables.shards

    @property
    def owner(self) -> str:
        """The name this process claims its tables under (data/claims.py)."""
        return self.recovery.owner

    # ----------------------------------------------------------------- lifecycle
    async def restore(self) -> list[int]:
        """Claim and rebuild the open tables of this process's shards (:meth:`Recovery.restore`);
        returns the ids of tables found broken."""
        return await self.recovery.restore()

    async def renew_claims(self) -> list[int]:
        """Renew this process's claims; returns the tables lost (:meth:`Recovery.renew_claims`)."""
        return await self.recovery.renew_claims()

    async def tend_claims(self) -> list[int]:
        """Renew the claims and take over the tables whose holder died; returns those taken."""
        return await self.recovery.tend_claims()

    async def lose(self, table_id: int) -> None:
        """Stop serving a table another process now holds (nothing is written to it)."""
        await self.recovery.lose(table_id)

    async def settle(self, live: LiveTable) -> None:
        """Wait until the table's automatic play is done for now (:meth:`GameFlow.settle`)."""
        await self.flow.settle(live)

    def quiet(self, live: LiveTable) -> bool:
        """Whether the table waits on people only (:meth:`GameFlow.quiet`)."""
        return self.flow.quiet(live)

    # ----------------------------------------------------------------- lobby
    async def open_table(
        self,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        overrides: dict[str, Any],
    ) -> LiveTable:
        """A new table in the channel with the server's defaults and ``overrides`` (checked
        against what a person may choose: :meth:`TableOptions.check_choices`). Without a
        server and channel (None, None), a table of the person's own, outside Discord (the
        browser's: ``gouji web``), with the default options and ``overrides``: one at a
        time each (the store's one active table a place holds: its place is theirs,
        :func:`own_place`)."""
        if (guild_id is None) != (channel_id is None):
            raise ValueError("a table has both a server and a channel, or neither")
        if guild_id is None or channel_id is None:
            guild_id, channel_id = own_place(user_id)
        else:
            self.check_open(channel_id)
        TableOptions.check_choices(overrides)
        try:
            settings = await self.store.get_settings(guild_id)
            if settings.channels and channel_id not in settings.channels:
                raise UserError("channel_not_allowed", channels=list(settings.channels))
            options = TableOptions.from_json({**settings.table_defaults, **overrides})
            table = await self.store.create_table(guild_id, channel_id, user_id, options.to_json())
        except ChannelTakenError:  # another process serves it, or this one lost it
            raise UserError("table_exists") from None
        except OUTAGES as exc:
            log.warning("opening a table in channel %s failed: %s", channel_id, exc)
            raise UserError("db_down") from None
        seats = [Seat(table.id, s, None, None, False, 0, False) for s in range(6)]
        live = LiveTable(table=table, seats=seats, options=options)
        self.tables.register(live)
        async with self.recovery.serving(live):
            live.seats[0] = await self.store.set_seat(table.id, 0, user_id=user_id)
        self.presenter.table_changed(live)
        return live

    def check_open(self, channel_id: int | None) -> None:
        """Raise the ``UserError`` of :meth:`open_table` that needs no database, if any."""
        if self.tables.table_at(channel_id) is not None:
            raise UserError("table_exists")

    async def join(
        self, live: LiveTable, user_id: int, seat: int | None = None
    ) -> tuple[LiveTable, int, bool]:
        """Sit down (in ``seat`` or the next free one). Returns (table, seat, later): an AI
        seat during a game is taken over when that game ends (``later``)."""
        async with self.recovery.serving(live):
            seat = self.check_join(live, user_id, seat)
            target = live.seats[seat]
            self.tables.touch(live)
            if live.playing and target.ai_kind is not None:
                live.pending_joins[seat] = user_id
                return live, seat, True
            live.seats[seat] = await self.store.set_seat(live.id, seat, user_id=user_id)
            self.presenter.table_changed(live)
            return live, seat, False

    def check_join(self, live: LiveTable, user_id: int, seat: int | None = None) -> int:
        """The seat :meth:`join` would give, or the ``UserError`` it would raise now."""
        check_seat(seat)
        if live.seat_of(user_id) is not None:
            raise UserError("already_seated", seat=live.seat_of(user_id))
        if seat is None:
            free = live.empty_seats() or [s.seat for s in live.seats if s.user_id is None]
            free = [s for s in free if s not in live.pending_joins]
            if not free:
                raise UserError("table_full")
            seat = free[0]
        if live.seats[seat].user_id is not None or seat in live.pending_joins:
            raise UserError("seat_taken", seat=seat, who=Who(seat))
        return seat

    async def leave(self, live: LiveTable, user_id: int) -> tuple[LiveTable, int, bool]:
        """Leave the table. During a game that is the engine's ``leave`` (−10) and the AI
        plays the seat. Returns (table, seat, during_game)."""
        async with self.recovery.serving(live):
            seat = self.tables.seat_for(live, user_id)
            self.tables.touch(live)
            if not live.playing:
                live.seats[seat] = await self.store.set_seat(live.id, seat)
                self.presenter.table_changed(live)
                return live, seat, False
            kind = live.ai_kind(seat)
            game = live.game
            if game is not None and game.phase not in (Phase.FINISHED, Phase.VOID):
                await self.flow.apply_locked(live, Action(seat, Verb.LEAVE))
                live.leavers[seat] = user_id
                live.seats[seat] = await self.store.set_seat(
                    live.id, seat, user_id=user_id, ai_kind=kind, standin=True
                )
                self.presenter.announce(live, "left_game", user=Who(seat), seat=seat)
            else:  # between deals (tribute returns): the AI simply takes the seat
                live.seats[seat] = await self.store.set_seat(live.id, seat, ai_kind=kind)
            await self.flow.after_change_locked(live)
            return live, seat, True

    async def add_ai(
        self, live: LiveTable, user_id: int, seat: int | None = None, kind: str = "hint"
    ) -> tuple[LiveTable, list[int]]:
        """Fill ``seat`` (or every empty seat) with an AI player of ``kind``: a difficulty
        (简单/普通/困难, easy/normal/hard) or its kind, stored as the kind."""
        async with self.recovery.serving(live):
            kind, seats = self.check_add_ai(live, user_id, seat, kind)
            for s in seats:
                live.seats[s] = await self.store.set_seat(live.id, s, ai_kind=kind)
            self.tables.touch(live)
            self.presenter.table_changed(live)
            return live, seats

    def check_add_ai(
        self, live: LiveTable, user_id: int, seat: int | None = None, kind: str = "hint"
    ) -> tuple[str, list[int]]:
        """The AI kind and the seats :meth:`add_ai` would fill, or its ``UserError``."""
        named = table_ai_kind(kind)
        check_seat(seat)
        self._check_member_or_creator(live, user_id)
        if live.playing:
            raise UserError("series_running")
        seats = live.empty_seats() if seat is None else [seat]
        if not seats:
            raise UserError("no_empty_seat")
        for s in seats:
            if not live.seats[s].is_empty:
                raise UserError("seat_taken", seat=s, who=Who(s))
        return named, seats

    async def remove_ai(
        self, live: LiveTable, user_id: int, seat: int | None = None
    ) -> tuple[LiveTable, list[int]]:
        """Free ``seat`` (or every seat) held by an AI player."""
        async with self.recovery.serving(live):
            seats = self.check_remove_ai(live, user_id, seat)
            for s in seats:
                live.seats[s] = await self.store.set_seat(live.id, s)
            self.presenter.table_changed(live)
            return live, seats

    def check_remove_ai(self, live: LiveTable, user_id: int, seat: int | None = None) -> list[int]:
        """The seats :meth:`remove_ai` would free, or its ``UserError``."""
        check_seat(seat)
        self._check_member_or_creator(live, user_id)
        if live.playing:
            raise UserError("series_running")
        ai = [s.seat for s in live.seats if s.user_id is None and s.ai_kind is not None]
        seats = ai if seat is None else [seat]
        for s in seats:
            if s not in ai:
                raise UserError("seat_not_ai", seat=s)
        return seats

    def _check_member_or_creator(self, live: LiveTable, user_id: int) -> None:
        if user_id != live.table.creator_id and live.seat_of(user_id) is None:
            raise UserError("not_seated")

    def check_start(self, live: LiveTable, user_id: int, *, again: bool = False) -> None:
        """Raise the ``UserError`` that :meth:`start` would raise now, if any."""
        if live.stalled_since is not None:
            raise UserError("db_waiting")
        if again:
            self.tables.seat_for(live, user_id)
            if live.series is None:
                raise UserError("no_series_before")
        elif user_id != live.table.creator_id:
            raise UserError("only_creator", creator=Mention(live.table.creator_id))
        if live.playing:
            raise UserError("series_running")
        missing = len(live.empty_seats())
        if missing:
            raise UserError("need_six", missing=missing)

    async def start(self, live: LiveTable, user_id: int, *, again: bool = False) -> LiveTable:
        """Start a series (the creator; with ``again`` any seated player, after a series)."""
        async with self.recovery.serving(live):
            self.check_start(live, user_id, again=again)
            row = await self.store.start_series(live.id, live.options.rules.changed())
            live.table = replace(live.table, status="playing")
            live.series_closed = False
            live.series = Series(
                live.options.rules, tribute=live.options.series, games=live.options.games
            )
            live.series_id = row.id
            live.games_finished = 0
            self.tables.touch(live)
            await self.flow.deal_locked(live)
            await self.flow.after_change_locked(live)
            return live

    async def end(self, live: LiveTable, user_id: int, may_manage: bool) -> LiveTable:
        """End the table (its creator, or someone who may manage the channel)."""
        self.check_end(live, user_id, may_manage)
        async with self.recovery.serving(live):
            await self._close_locked(live, "ended")
        return live

    def check_end(self, live: LiveTable, user_id: int, may_manage: bool) -> LiveTable:
        """The table :meth:`end` would end, or the ``UserError`` it would raise now."""
        if user_id != live.table.creator_id and not may_manage:
            raise UserError("end_denied", creator=Mention(live.table.creator_id))
        return live

    async def _close_locked(self, live: LiveTable, key: str) -> None:
        await self.store.end_table(live.id)
        await self.flow.set_deadline_locked(live, None, frozenset())
        await self.store.release_claims(self.recovery.owner, [live.id])
        self.tables.forget(live)
        self.presenter.closed(live, key)

    async def back(self, live: LiveTable, user_id: int) -> tuple[LiveTable, int]:
        """Take the seat back from the AI (托管)."""
        async with self.recovery.serving(live):
            seat = self.check_back(live, user_id)
            await self.store.set_standin(live.id, seat, False, live.ai_kind(seat))
            await self.store.reset_timeouts(live.id, seat)
            live.seats[seat] = (await self.store.get_seats(live.id))[seat]
            self.tables.touch(live)
            live.waiting = live.waiting - {seat}
            await self.flow.after_change_locked(live)
            return live, seat

    async def go_on(self, live: LiveTable, user_id: int) -> None:
        """继续: the user has seen the finished game's result (the next deal waits for every
        person looking at the table, :meth:`look`, for a short while at most)."""
        async with self.recovery.serving(live):
            seat = self.tables.seat_for(live, user_id)
            self.tables.touch(live)
            await self.flow.go_on_locked(live, seat)

    def look(self, live: LiveTable, user_id: int | None, looking: bool) -> None:
        """A page of ``user_id`` opened on the table (``looking``) or closed: while one is
        open, a finished game's result waits for them (:meth:`go_on`) before the next deal.
        A spectator (None) or someone not seated: nothing."""
        _count_pages(live.lookers, live, user_id, looking)

    def show(self, live: LiveTable, user_id: int | None, shown: bool) -> None:
        """A page of ``user_id`` on the table became shown (``shown``) or hidden, or a shown
        one closed: while one is shown, the seat's questions are seen there, and the other
        front ends bring it up to date without notifying (:meth:`on_page`). Each page says
        so once per change; a spectator (None) or someone not seated: nothing."""
        _count_pages(live.shown_pages, live, user_id, shown)

    def on_page(self, live: LiveTable, seat: int) -> bool:
        """Whether the seat's player has the table open and shown on a page now."""
        return live.shown_pages.get(seat, 0) > 0

    def check_back(self, live: LiveTable, user_id: int) -> int:
        """The seat :meth:`back` would give back, or the ``UserError`` it would raise now."""
        seat = self.tables.seat_for(live, user_id)
        if not live.seats[seat].standin:
            raise UserError("not_standin")
        return seat

    async def set_dm_refused(self, live: LiveTable, seat: int) -> bool:
        """Remember that the seat's player refuses DMs; True the first time."""
        if live.seats[seat].dm_refused:
            return False
        await self.store.set_dm_refused(live.id, seat, True)
        live.seats[seat] = (await self.store.get_seats(live.id))[seat]
        return True

    # ----------------------------------------------------------------- playing
    def idle_refusal(self, live: LiveTable) -> UserError:
        """What a seated player is told who asks to play (or for their hand) while no game
        is on: the series is over (``/gouji again``), seats are still empty, or the table
        waits for its creator's ``/gouji start``."""
        if live.series is not None and live.series.finished:
            return UserError("series_over" if live.options.series else "game_over")
        missing = len(live.empty_seats())
        if missing:
            return UserError("need_six", missing=missing)
        return UserError("not_started", creator=Mention(live.table.creator_id))

    def _check_turn(self, live: LiveTable, seat: int) -> None:
        if not live.playing:
            raise self.idle_refusal(live)
        waiting = live.running.to_act
        if seat in waiting:
            return
        if len(waiting) == 1:
            raise UserError("not_your_turn", seat=waiting[0], who=Who(waiting[0]))
        raise UserError("not_your_turn_many", who=[Who(s) for s in waiting])

    def _build_action(self, live: LiveTable, seat: int, word: str, cards: str | None) -> Action:
        if word not in VERBS:
            raise UserError("wrong_phase", what=echo(word))
        verb = Verb(word)
        if not verb.takes_cards:
            return Action(seat, verb)
        typed = str(cards or "").strip()
        if len(typed) > LONGEST_CARDS:  # no hand is that long: not read, and quoted cut
            raise UserError("bad_cards", typed=echo(typed))
        try:
            parsed = parse_cards(typed)
        except CardError:
            raise UserError("bad_cards", typed=echo(typed)) from None
        if not parsed:
            raise UserError("bad_cards", typed=echo(typed))
        held = self.views.hand_cards(live, seat)
        have, want = counts_of(parse_cards(held)), counts_of(parsed)
        if any(w > h for w, h in zip(want, have, strict=True)):
            raise UserError("not_held", cards=echo(format_cards(parsed)))
        if verb == Verb.RETURN:
            return Action(seat, Verb.RETURN, format_cards(parsed))
        try:
            play = classify(parsed)
        except HandError:
            raise UserError("not_a_hand", cards=echo(format_cards(parsed))) from None
        return Action(seat, verb, play)

    async def act(
        self,
        live: LiveTable,
        user_id: int,
        verb: str,
        cards: str | None = None,
        *,
        token: str | None = None,
    ) -> Action:
        """The user's seat does ``verb`` (with ``cards``); with ``token`` (a DM button) only
        while that question is open. Raises ``UserError`` or the engine's
        ``IllegalActionError``; nothing changed then. Logged when it returns."""
        async with self.recovery.serving(live):
            seat = self.tables.seat_for(live, user_id)
            self._check_turn(live, seat)
            if token is not None and token != question_token(live):
                raise UserError("stale_prompt")
            action = self._build_action(live, seat, verb, cards)
            await self.flow.apply_locked(live, action)
            self.tables.touch(live)
            if live.seats[seat].timeouts:
                await self.store.reset_timeouts(live.id, seat)
                live.seats[seat] = (await self.store.get_seats(live.id))[seat]
            await self.flow.after_change_locked(live)
            return action

    async def act_hint(self, live: LiveTable, user_id: int, *, token: str | None = None) -> Action:
        """Play what the hint suggests (the DM button "play the hint")."""
        suggestion = self.hint(live, user_id)
        cards = str(suggestion.cards) if suggestion.cards is not None else None
        return await self.act(live, user_id, suggestion.verb, cards, token=token)

    def hint(self, live: LiveTable, user_id: int) -> Action:
        """The hint (提示) for the user's seat now."""
        if live.stalled_since is not None:
            raise UserError("db_waiting")
        seat = self.tables.seat_for(live, user_id)
        self._check_turn(live, seat)
        game = live.current.game
        if game is None:
            return Action(seat, Verb.RETURN, live.running.default_return(seat))
        return suggest(game.observe(seat))

    def choices(self, live: LiveTable, user_id: int, typed: str = "") -> list[Play]:
        """The plays (or burns) the user may make now, most useful first, filtered by what
        is typed (the cards typed must all be in the play); at most 25."""
        seat = live.seat_of(user_id)
        if seat is None or seat in live.leavers or live.stalled_since is not None:
            return []
        plays = self.views.ranked_plays(live, seat)
        try:
            want = counts_of(parse_cards(typed)) if typed.strip() else None
        except CardError:
            return []
        out = []
        for play in plays:
            if want is None or all(w <= h for w, h in zip(want, play.counts(), strict=True)):
                out.append(play)
            if len(out) == 25:
                break
        return out

    # ----------------------------------------------------------------- listening
    def listen(self, listener: Presenter) -> None:
        """Tell ``listener`` every event of every table from now on, after those listening
        already (the Discord presenter, a browser's sockets): see :mod:`bot.service.presenter`."""
        self.presenter.add(listener)

    def unlisten(self, listener: Presenter) -> None:
        """Stop telling ``listener``."""
        self.presenter.remove(listener)

    # ----------------------------------------------------------------- a front end's writes
    async def set_table_message(self, live: LiveTable, message_id: int) -> None:
        """Remember the message that shows the table now (Discord posts it anew when other
        messages bury it)."""
        async with live.lock:
            await self.store.set_table_message(live.id, message_id)
            live.table = await self.store.get_table(live.id)

    async def hand_over(
        self, live: LiveTable, user_id: int, kind: str | None = None
    ) -> tuple[LiveTable, int]:
        """托管 on request: the AI (of ``kind``, else the seat's own) plays the user's seat
        until they take it back with ``back``. Returns (table, seat)."""
        chosen = table_ai_kind(kind) if kind is not None else None
        async with live.lock:
            seat = self.tables.seat_for(live, user_id)
            await self.store.set_standin(live.id, seat, True, chosen or live.ai_kind(seat))
            live.seats[seat] = (await self.store.get_seats(live.id))[seat]
            self.tables.touch(live)
            await self.flow.after_change_locked(live)
            return live, seat

    # ----------------------------------------------------------------- idle tables
    async def end_idle(self) -> list[int]:
        """End every table nobody touched for ``idle_seconds``; returns their ids (a table
        waiting for its database waits for it first)."""
        now = self.clock.now()
        ended = []
        for live in self.tables:
            if now - live.last_activity >= self.idle_seconds and live.stalled_since is None:
                try:
                    async with self.recovery.serving(live):
                        await self._close_locked(live, "ended_idle")
                except UserError:
                    continue
                ended.append(live.id)
        return ended

    async def close(self, *, release: bool = True) -> None:
        """Stop every table's timers and automatic play (the bot is shutting down) and,
        with ``release``, give up this process's claims so that the next one takes the
        tables at once (without: as after a crash, they wait for the lease to lapse)."""
        for live in self.tables:
            live.tasks.clear()
        await self.supervisor.cancel_all()
        if release:
            try:
                released = await self.store.release_claims(self.recovery.owner)
                log.info("released %d table claims of %s", released, self.recovery.owner)
            except OUTAGES:
                log.exception("releasing the table claims of %s failed", self.recovery.owner)
            self.store.act_as(None)  # the store no longer writes for this process


def _count_pages(pages: dict[int, int], live: LiveTable, user_id: int | None, more: bool) -> None:
    """One page more (``more``) or fewer in ``pages`` (each seat's count) for ``user_id``'s
    seat; a spectator (None) or someone not seated: nothing."""
    seat = live.seat_of(user_id) if user_id is not None else None
    if seat is None:
        return
    count = pages.get(seat, 0) + (1 if more else -1)
    if count > 0:
        pages[seat] = count
    else:
        pages.pop(seat, None)
