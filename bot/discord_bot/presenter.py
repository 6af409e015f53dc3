"""The table service's events, shown on Discord.

Every event becomes a job in its table's outbox, run one after another by a worker task, so
the service never waits on Discord and messages keep their order. The channel holds one table
message (the picture, a short log of the last events, the turn clock), redrawn at most once per
``refresh_interval`` and re-posted when more than ``REPOST_BELOW`` messages pile up below it;
standalone messages only for what is kept (a game's result, the series' end, notices). Each
player has one DM hand controller per game (:func:`bot.discord_bot.components.controller`),
edited in place and re-sent (the old one deleted) when they are asked something, so that each
turn notifies once. Pictures are drawn off the event loop (:mod:`bot.pictures.drawing`).
"""

from __future__ import annotations

import asyncio
import functools
import io
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_bot.components import controller
from bot.discord_bot.launch import launch_button
from bot.discord_bot.people import People
from bot.pictures import png as pictures
from bot.pictures.drawing import Drawer
from bot.pictures.views import named, named_series
from bot.service.live import LiveTable
from bot.service.tables import TableService
from bot.service.views import PublicView
from bot.text.catalog import text
from bot.text.params import Mention, Who, list_text
from render.models import SeriesView

log = logging.getLogger("gouji.bot")
NO_PINGS = discord.AllowedMentions.none()
CHANNELS = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.StageChannel)
Channel = discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel
PING_USERS = discord.AllowedMentions(users=True, everyone=False, roles=False)
# announcements kept as their own channel messages; every other one goes to the table log
STANDALONE = frozenset({"use_hand", "ended", "ended_idle"})
CARDS = frozenset({"ev_game_over", "ev_series_over"})  # a card: text and the scoreboard
# lines that join the card announced just before them (else the table log)
CARD_LINES = frozenset(
    {
        "ev_result_opened",
        "ev_result_burns",
        "ev_result_stifled",
        "ev_tribute_owed",
        "ev_sweep",
        "ev_titles",
        "ev_again",
        "ev_again_single",
    }
)
LOG_LINES = 6  # events shown in the table message
REPOST_BELOW = 3  # more messages than this below the table message: post it again
GONE_KEPT = 64  # ids of deleted controllers remembered per table (a press on one is late)
# seconds a press's interaction token is used to edit or delete the controller it was made on
# (Discord keeps it 15 minutes; its routes are outside the bot's global request limit)
TOKEN_LIFE = 14 * 60.0


Job = Callable[[], Awaitable[None]]
Picture = tuple[str, str | None]  # a hand picture: the cards, and those highlighted (a hint)
NOTIFY, SHOW = 0, 1  # job priorities: a question's notification goes before any redraw


@dataclass(eq=False)
class Seat:
    """One seat's hand controller as the outbox knows it: the message, what it shows, the
    update under way and the tokens that can edit it. Its transitions are its methods."""

    message: discord.Message | None = None  # its DM controller
    deal: int | None = None  # the deal the controller is about
    picture: Picture | None = None  # what its picture shows
    shown: tuple[str, tuple[str, ...]] | None = None  # its content and controls
    pending: bool | None = None  # an update is queued: True a re-send (it notifies)
    claimed: bool = False  # an interaction is updating the controller
    token: tuple[discord.Interaction, float] | None = None  # last press on the DM controller
    # without DMs: the last /gouji hand answer (or press on it), edited while its token lives
    hand: tuple[discord.Interaction, float] | None = None
    note: str = ""  # a line for the controller (the clock played, the warning)
    notified: str | None = None  # the question whose controller was sent (it notified)
    standin: str = ""  # "the AI plays on for you": shown while the AI keeps the seat
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # a press's edit vs a delete

    def want(self, resend: bool) -> bool:
        """An update is wanted (a re-send wins): whether a job must be queued for it."""
        queued = self.pending is not None
        self.pending = bool(self.pending) or resend
        return not queued

    def take(self) -> bool | None:
        """The queued update (True: re-send), now being done; None if a press showed it."""
        resend, self.pending = self.pending, None
        return resend

    def showed(
        self,
        msg: discord.Message,
        deal: int,
        picture: Picture | None,
        content: str,
        controls: tuple[str, ...],
    ) -> None:
        """``msg`` is the seat's controller and shows this (``picture``: None if unchanged)."""
        self.message, self.deal, self.shown = msg, deal, (content, controls)
        if picture is not None:
            self.picture = picture

    def pressed(self, interaction: discord.Interaction) -> None:
        """A press on the DM controller was answered: its token edits that message."""
        self.token = (interaction, time.monotonic())

    def token_for(self, msg: discord.Message) -> discord.Interaction | None:
        """The last press on controller ``msg`` if its token still works."""
        if self.token is None:
            return None
        interaction, at = self.token
        pressed = interaction.message
        if pressed is None or pressed.id != msg.id or time.monotonic() - at > TOKEN_LIFE:
            return None
        return interaction

    def hand_token(self) -> discord.Interaction | None:
        """The interaction whose ephemeral answer is this seat's controller, while valid."""
        if self.hand is None or time.monotonic() - self.hand[1] > TOKEN_LIFE:
            return None
        return self.hand[0]


@dataclass(eq=False)
class Ping:
    """A channel mention for a question, deleted once everyone it names has answered."""

    message: discord.Message
    seats: set[int]


class Outbox:
    """One table's queue of Discord jobs (notifications first), its redraw timer, what its
    messages show and one :class:`Seat` per seat."""

    def __init__(self) -> None:
        self.queue: asyncio.PriorityQueue[tuple[int, int, Job]] = asyncio.PriorityQueue()
        self.jobs = itertools.count()  # the order of jobs of the same priority
        self.worker: asyncio.Task[None] | None = None
        self.redraw: asyncio.TimerHandle | None = None  # the debounced table redraw
        self.refresh_pending = False
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.below = 0  # channel messages below the table message
        self.seats: dict[int, Seat] = {}
        self.pings: list[Ping] = []  # mentions of open questions
        self.gone: deque[int] = deque(maxlen=GONE_KEPT)  # controllers replaced and deleted
        self.card: list[str] | None = None  # the lines of a result card not yet posted

    def seat(self, seat: int) -> Seat:
        state = self.seats.get(seat)
        if state is None:
            state = self.seats[seat] = Seat()
        return state

    def put(self, job: Job, priority: int = SHOW) -> None:
        self.queue.put_nowait((priority, next(self.jobs), job))


class DiscordPresenter:
    """:class:`~bot.service.presenter.Presenter` on Discord: ``client`` sends, ``people``
    names, ``draw`` draws; :meth:`attach` gives it the service whose events it shows."""

    def __init__(
        self,
        client: discord.Client,
        people: People,
        draw: Drawer,
        refresh_interval: float = 1.0,
        dm_presses: bool = True,
        launch: bool = False,
    ) -> None:
        self.client = client
        self.dm_presses = dm_presses  # presses on DM controllers reach this process
        self.launch = launch  # the "Open the table" button (the Discord Activity configured)
        self.people = people
        self.draw = draw
        self._service: TableService | None = None
        self.refresh_interval = refresh_interval
        self.outboxes: dict[int, Outbox] = {}

    # ----------------------------------------------------------------- the outbox
    def _box(self, live: LiveTable) -> Outbox:
        box = self.outboxes.get(live.id)
        if box is None:
            box = self.outboxes[live.id] = Outbox()
        if box.worker is None or box.worker.done():
            box.worker = self.service.supervisor.start(
                live.id, "outbox", lambda: self._work(live, box)
            )
        return box

    def _enqueue(self, live: LiveTable, job: Job, priority: int = SHOW) -> None:
        self._box(live).put(job, priority)

    async def _work(self, live: LiveTable, box: Outbox) -> None:
        """Run the table's jobs, notifications first, else in order; once the table has
        ended and its last job ran, the outbox goes away with it."""
        try:
            while self.service.is_open(live) or not box.queue.empty():
                _, _, job = await box.queue.get()
                try:
                    await job()
                except Exception:  # one failed message must not stop the table's others
                    log.exception("table %s: a Discord job failed", live.id)
                finally:
                    box.queue.task_done()
        finally:
            if self.outboxes.get(live.id) is box:
                del self.outboxes[live.id]
            if box.redraw is not None:
                box.redraw.cancel()

    def _channel(self, channel_id: int) -> Channel | None:
        """A channel the bot can post in (a table's), or None if it is gone."""
        channel = self.client.get_channel(channel_id)
        return channel if isinstance(channel, CHANNELS) else None

    async def drain(self) -> None:
        """Wait until every queued job has run, a pending redraw too (tests, shutdown)."""
        while True:
            boxes = list(self.outboxes.values())
            for box in boxes:
                await box.queue.join()
            if not any(b.refresh_pending for b in self.outboxes.values()):
                return
            await asyncio.sleep(self.refresh_interval / 4 or 0.01)

    async def close(self) -> None:
        for box in self.outboxes.values():
            if box.redraw is not None:
                box.redraw.cancel()
            if box.worker is not None:
                box.worker.cancel()

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the presenter has no table service yet")
        return self._service

    def attach(self, service: TableService) -> None:
        """The service whose events this presenter shows (built after the presenter)."""
        self._service = service

    # ----------------------------------------------------------------- the table message
    def table_changed(self, live: LiveTable) -> None:
        """Redraw the table message once ``refresh_interval`` has passed (its own timer:
        what is queued meanwhile, a question's notification first of all, does not wait)."""
        box = self._box(live)
        if box.refresh_pending:
            return
        box.refresh_pending = True

        def due() -> None:
            box.redraw = None
            if self.outboxes.get(live.id) is box:
                box.put(lambda: self._refresh(live, box))
            else:
                box.refresh_pending = False

        box.redraw = asyncio.get_running_loop().call_later(self.refresh_interval, due)

    def channel_message(self, channel_id: int, message_id: int) -> None:
        """A message appeared in a channel (the gateway said so): one more below the table
        message of that channel's table; too many, and the table message is posted again."""
        live = self.service.table_at(channel_id) if self._service else None
        shown = self.service.info(live).message_id if live is not None else None
        if live is None or shown is None or message_id <= shown:
            return
        box = self._box(live)
        box.below += 1
        if box.below > REPOST_BELOW:
            self.table_changed(live)

    async def _refresh(self, live: LiveTable, box: Outbox) -> None:
        box.refresh_pending = False
        info = self.service.info(live)
        channel = self._channel(info.channel_id)
        if channel is None:
            return
        lang = self.people.channel_lang(info)
        await self.people.learn_names(info.users())
        view = await self.service.public_view(live)  # a consistent state to draw
        names = self.people.names(view.info, lang)
        picture = named(view.table, names, table_caption(view, lang), view.deadline)
        content = self._table_text(view, box, names, lang)
        png = await self.draw.background(pictures.view_png, picture, lang)
        file = discord.File(io.BytesIO(png), filename="table.png")
        message_id = view.info.message_id
        opens: dict[str, Any] = {"view": launch_button(None, lang)} if self.launch else {}
        if message_id is not None and (box.below <= REPOST_BELOW or not self.service.is_open(live)):
            try:
                msg = channel.get_partial_message(message_id)
                await msg.edit(
                    content=content, attachments=[file], allowed_mentions=NO_PINGS, **opens
                )
                return
            except discord.NotFound:
                pass
        if not self.service.is_open(live):
            return  # nothing new is posted for a table that has ended
        msg = await channel.send(content, file=file, allowed_mentions=NO_PINGS, **opens)
        box.below = 0
        await self.service.set_table_message(live, msg.id)
        if message_id is not None:  # the buried one goes: one table message per channel
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.HTTPException:
                pass

    def _table_text(self, view: PublicView, box: Outbox, names: list[str], lang: str) -> str:
        """The table message: who sits where, the last events, whose turn and its clock."""
        seats = " · ".join(f"{s}: {n}" for s, n in enumerate(names))
        lines = [f"**够级 Gouji** — {seats}", *box.log]
        waiting = view.to_act if view.playing else ()
        if waiting:
            who = [self.people.fmt(view.info, lang, Who(s)) for s in waiting]
            line = text(lang, "ctl_wait", who=list_text(who, lang))
            if view.deadline is not None:
                line += " · " + text(lang, "ctl_clock", when=f"<t:{int(view.deadline)}:R>")
            lines.append(line)
        return "\n".join(lines)[:2000]

    # ----------------------------------------------------------------- the channel
    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        if key in STANDALONE:
            self._enqueue(live, lambda: self._say(live, key, params))
            return
        box = self._box(live)
        info = self.service.info(live)
        lang = self.people.channel_lang(info)
        line = self.people.render(info, lang, key, params)
        if key in CARDS:  # its picture shows the table as the game ended, before a new deal
            card = box.card = [line]
            scoreboard = self.service.public_view_locked(live).scoreboard  # in the callback
            if scoreboard is None:
                raise RuntimeError(f"table {live.id}: a result card without a series")
            view = named_series(scoreboard, self.people.names(info, lang))
            self._enqueue(live, lambda: self._post_card(live, box, card, view))
            return
        if key in CARD_LINES and box.card is not None:
            box.card.append(line)
            return
        box.log.append(line)
        if key == "ev_clock_played":
            self._clock_played(live, params)
        self.table_changed(live)

    def _clock_played(self, live: LiveTable, params: dict[str, Any]) -> None:
        """Tell the seat the clock played for what was played, in its controller."""
        who = params.get("user")
        info = self.service.info(live)
        user = info.seats[who.seat].user_id if isinstance(who, Who) else None
        if not isinstance(who, Who) or user is None:
            return
        lang = self.people.user_lang(user, info.guild_id)
        what = self.people.fmt(info, lang, params.get("what", ""))
        state = self._box(live).seat(who.seat)
        state.note = text(lang, "ctl_clock_played", what=what)
        if info.seats[who.seat].standin:  # the second in a row: the AI keeps the seat
            state.standin = text(lang, "ctl_standin")
        self._controller(live, who.seat, resend=False)

    async def _post_card(
        self, live: LiveTable, box: Outbox, card: list[str], view: SeriesView
    ) -> None:
        """A game's result (or the series' end): its lines and the scoreboard picture (places,
        points, 开点, 烧成, 被闷, the tribute owed next game)."""
        if box.card is card:
            box.card = None
        info = self.service.info(live)
        channel = self._channel(info.channel_id)
        if channel is None:
            return
        lang = self.people.channel_lang(info)
        png = await self.draw.background(pictures.series_view_png, view, lang)
        file = discord.File(io.BytesIO(png), filename="result.png")
        await channel.send("\n".join(card)[:2000], file=file, allowed_mentions=NO_PINGS)

    async def _say(self, live: LiveTable, key: str, params: dict[str, Any]) -> None:
        info = self.service.info(live)
        channel = self._channel(info.channel_id)
        if channel is not None:
            content = self.people.render(info, self.people.channel_lang(info), key, params)
            await channel.send(content[:2000], allowed_mentions=NO_PINGS)

    # ----------------------------------------------------------------- notifications
    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        """The seats were asked something new. The DM controller re-sent is a DM player's
        notification; a player without DMs (or at a table with the mention option) gets
        one channel mention, decided when it is sent (a DM refusal found by then counts)."""
        if seats:
            question = self.service.question_token(live)  # in the callback: the lock is held
            self._enqueue(live, lambda: self._mention(live, list(seats), key, question), NOTIFY)

    async def _mention(self, live: LiveTable, seats: list[int], key: str, question: str) -> None:
        """Mention the seats still asked ``question``: those without DMs worded for
        ``/gouji hand``, the others (the mention option) as ``key`` says. The mention is
        deleted once answered."""
        if not self.service.is_open(live) or self.service.question_token(live) != question:
            return  # answered meanwhile (and maybe asked something new: its own mention)
        info = self.service.info(live)
        asked = [s for s in seats if s in live.waiting]
        hand = [s for s in asked if info.seats[s].dm_refused]
        dm = [s for s in asked if not info.seats[s].dm_refused and info.options.mention]
        for group, wording in ((hand, "your_turn_hand"), (dm, key)):
            await self._send_ping(live, group, wording)

    async def _send_ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        info = self.service.info(live)
        users = [u for u in (info.seats[s].user_id for s in seats) if u is not None]
        channel = self._channel(info.channel_id)
        if not users or channel is None or not self.service.is_open(live):
            return
        mentions = " ".join(f"<@{u}>" for u in users)
        content = text(self.people.channel_lang(info), key, user=mentions, users=mentions)
        msg = await channel.send(content, allowed_mentions=PING_USERS)
        box = self._box(live)
        box.pings.append(Ping(msg, set(seats)))
        if not self.service.is_open(live) or not (set(seats) & set(live.waiting)):
            self._settle_pings(live, box, seats)  # answered (or ended) while it was sent

    def _settle_pings(self, live: LiveTable, box: Outbox, seats: list[int] | None) -> None:
        """The seats answered (None: the table ended): a mention naming only answered seats
        is deleted (its notification was had), so that they never pile up in the channel."""
        done = []
        for ping in box.pings:
            ping.seats -= set(ping.seats if seats is None else seats)
            if not ping.seats:
                done.append(ping)
        for ping in done:
            box.pings.remove(ping)
            self._enqueue(live, functools.partial(self._unping, live, box, ping.message))

    async def _unping(self, live: LiveTable, box: Outbox, msg: discord.Message) -> None:
        try:
            await msg.delete()
        except discord.HTTPException:
            return
        shown = self.service.info(live).message_id
        if shown is not None and msg.id > shown and box.below > 0:
            box.below -= 1

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        """The clock runs out soon. An edit makes no sound, so the warning notifies: a DM
        player's controller is sent again with it (the old one deleted, so one controller
        stays); a player without DMs is mentioned again."""
        box = self._box(live)
        info = self.service.info(live)
        for seat in seats:
            user = info.seats[seat].user_id
            if user is None:
                continue
            lang = self.people.user_lang(user, info.guild_id)
            state = box.seat(seat)
            state.note, state.notified = text(lang, "ctl_warning", seconds=seconds), None
            self._controller(live, seat, resend=True)
        self.ping(live, seats, "warning_mention")

    # ----------------------------------------------------------------- controllers
    def hand_changed(self, live: LiveTable, seat: int) -> None:
        self._controller(live, seat, resend=False)

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        self._controller(live, seat, resend=True)

    def answered(self, live: LiveTable, seat: int) -> None:
        self._settle_pings(live, self._box(live), [seat])
        self._controller(live, seat, resend=False)

    def follow(self, live: LiveTable, seat: int, interaction: discord.Interaction) -> None:
        """``interaction`` answered with the seat's controller (``/gouji hand``, or a press
        on it): for a player without DMs, its answer is edited with each new question."""
        state = self._box(live).seat(seat)
        state.hand = (interaction, time.monotonic())
        state.shown = state.picture = None  # the next update shows everything anew

    def _controller(self, live: LiveTable, seat: int, *, resend: bool) -> None:
        """Queue one update of the seat's controller (updates coalesce; a re-send wins)."""
        if self.service.info(live).seats[seat].user_id is None:
            return
        if self._box(live).seat(seat).want(resend):
            box = self._box(live)
            self._enqueue(live, lambda: self._update_controller(live, box, seat), NOTIFY)

    async def _update_controller(self, live: LiveTable, box: Outbox, seat: int) -> None:
        state = box.seat(seat)
        sitting = self.service.info(live).seats[seat]
        if state.pending is None or sitting.user_id is None or not self.service.is_open(live):
            state.take()
            return  # a press showed the new state meanwhile, or the table ended
        if sitting.dm_refused:
            await self._follow_hand(live, seat, state)
            return
        if state.claimed and not state.pending:
            state.take()
            return  # a press is answering with this controller's new state
        shown = await self._render(live, seat, state)
        if shown is None:
            return
        new_game = state.deal != shown.deal
        resend = shown.resend
        if not resend and not new_game and state.shown == (shown.content, shown.controls):
            return
        old = state.message
        fresh = resend or new_game or old is None or state.picture != shown.picture
        file = await self._hand_file(shown, fresh)
        if old is not None and not resend and not new_game:
            edit: dict[str, Any] = {"content": shown.content, "view": shown.view}
            if file is not None:
                edit["attachments"] = [file]
            try:
                await self._edit(state, old, **edit)
                state.showed(old, shown.deal, shown.picture if file else None, *shown.key)
                return
            except discord.NotFound:
                pass
        await self._send_controller(live, box, seat, shown, file)

    async def _render(self, live: LiveTable, seat: int, state: Seat) -> Shown | None:
        """The seat's controller now, or None outside a game; the seat's queued update is
        taken with the view (a question asked meanwhile is in both). A question asked and
        answered before this ran (typed, or the clock) is not notified: the controller is
        only edited. A re-send shows the seat's note once; an edit keeps it."""
        info = self.service.info(live)
        user_id = info.seats[seat].user_id
        mine = await self.service.private_view(live, seat) if user_id is not None else None
        resend = bool(state.take())
        if user_id is None or mine is None or mine.public.number is None:
            return None
        lang = self.people.user_lang(user_id, info.guild_id)
        public = mine.public
        question = mine.question.token if mine.question is not None else None
        # a question notifies once: its controller may have gone out with a new deal's hand
        resend = resend and public.playing and seat in public.to_act
        resend = resend and (question is None or question != state.notified)
        note = state.note
        if resend:
            state.note = ""
        if not info.seats[seat].standin:
            state.standin = ""  # taken back (/gouji back): the line goes
        note = "\n".join(n for n in (note, state.standin) if n)
        where = self.people.where(info, lang)
        presses = self.dm_presses or info.seats[seat].dm_refused
        content, view = controller(
            self.people, mine, lang, where, note, presses=presses, launch=self.launch
        )
        return Shown(content, view, _ids(view), mine.hand, public.deal, lang, resend, question)

    async def _hand_file(self, shown: Shown, fresh: bool) -> discord.File | None:
        """The hand picture to attach, if the controller needs one (``fresh``: it does)."""
        if not shown.cards or not fresh:
            return None
        png = await self.draw.background(pictures.hand_png, shown.cards, shown.lang)
        return discord.File(io.BytesIO(png), "hand.png")

    async def _send_controller(
        self, live: LiveTable, box: Outbox, seat: int, shown: Shown, file: discord.File | None
    ) -> None:
        """Send the controller anew (it notifies); the old one goes, or, last game's, loses
        its spent controls."""
        state = box.seat(seat)
        if state.pending:
            return  # asked something new meanwhile: the queued re-send notifies once
        old, new_game = state.message, state.deal != shown.deal
        kwargs: dict[str, Any] = {"view": shown.view} if shown.view is not None else {}
        if file is not None:
            kwargs["file"] = file
        sent = await self._dm(live, seat, shown.content, **kwargs)
        if sent is None:
            return
        state.showed(sent, shown.deal, shown.picture if file else None, *shown.key)
        state.notified = shown.question
        try:
            if old is not None and not new_game:  # one controller per game: the old one goes
                async with state.lock:  # not while a press's answer edits it
                    box.gone.append(old.id)
                    await self._delete(state, old)
            elif old is not None and _ids_of(old):
                await self._edit(state, old, view=None)
        except discord.HTTPException:
            pass
        state.token = None  # it was about the old message

    async def _follow_hand(self, live: LiveTable, seat: int, state: Seat) -> None:
        """A player without DMs: their last ``/gouji hand`` answer shows the new state, edited
        through its interaction token while it lives (an edit: the mention notifies)."""
        interaction = state.hand_token()
        if interaction is None:
            state.take()
            return
        shown = await self._render(live, seat, state)
        if shown is None or state.shown == shown.key:
            return
        edit: dict[str, Any] = {"content": shown.content, "view": shown.view}
        file = await self._hand_file(shown, state.picture != shown.picture)
        if file is not None:
            edit["attachments"] = [file]
        async with state.lock:  # after a press's answer editing it
            try:
                await interaction.edit_original_response(**edit)
            except discord.HTTPException:  # the token ran out, or the message is gone
                state.hand = None
                return
        state.shown = shown.key
        if file is not None:
            state.picture = shown.picture

    def closed(self, live: LiveTable, key: str) -> None:
        """The table ended: the channel is told, no mention is left, and every controller
        loses its controls and clock."""
        box = self._box(live)
        self._settle_pings(live, box, None)
        self._enqueue(live, lambda: self._say(live, key, {}))
        for seat in list(box.seats):
            self._enqueue(live, functools.partial(self._retire, live, box, seat))

    async def _retire(self, live: LiveTable, box: Outbox, seat: int) -> None:
        """An ended table's controller: its title and "the table has ended", no controls."""
        state = box.seat(seat)
        state.pending = None
        user_id = self.service.info(live).seats[seat].user_id
        if state.shown is None or user_id is None:
            return
        lang = self.people.user_lang(user_id, self.service.info(live).guild_id)
        title = state.shown[0].split("\n", 1)[0]
        edit: dict[str, Any] = {
            "content": f"{title}\n{text(lang, 'ctl_table_ended')}",
            "view": None,
        }
        try:
            hand = state.hand_token()
            if hand is not None:
                await hand.edit_original_response(**edit)
            if state.message is not None:
                async with state.lock:
                    await self._edit(state, state.message, **edit)
        except discord.HTTPException:
            pass

    async def _edit(self, state: Seat, msg: discord.Message, **edit: Any) -> None:
        """Edit a controller: through its last press's token when it still works (an
        interaction route, outside the bot's request limit), else with the bot's token."""
        interaction = state.token_for(msg)
        if interaction is not None:
            try:
                await interaction.edit_original_response(**edit)
                return
            except discord.NotFound:  # the token ran out (or the message is gone)
                state.token = None
        await msg.edit(**edit)

    async def _delete(self, state: Seat, msg: discord.Message) -> None:
        """Delete a controller, through its last press's token when it still works."""
        interaction = state.token_for(msg)
        if interaction is not None:
            try:
                await interaction.delete_original_response()
                return
            except discord.NotFound:
                state.token = None
        await msg.delete()

    # ----------------------------------------------------------------- presses
    def claim(self, live: LiveTable, seat: int) -> None:
        """A press on the seat's controller is being answered: it shows the new state."""
        self._box(live).seat(seat).claimed = True

    def release(self, live: LiveTable, seat: int) -> None:
        """The press was refused: the controller is the presenter's again."""
        self._box(live).seat(seat).claimed = False

    async def answer_press(
        self,
        interaction: discord.Interaction,
        live: LiveTable,
        seat: int,
        lang: str,
        note: str,
        highlight: str | None = None,
    ) -> None:
        """Answer a press (deferred as an update) by editing the controller it was made on —
        an interaction edit, which Discord does not count against the bot's request limit —
        and release the seat's claim."""
        box = self._box(live)
        state = box.seat(seat)
        try:
            mine = await self.service.private_view(live, seat)
            where = self.people.where(mine.public.info, lang)
            content, view = controller(self.people, mine, lang, where, note, launch=self.launch)
            cards, deal = mine.hand, mine.public.deal
            message = interaction.message
            current = state.message
            ephemeral = message is not None and message.flags.ephemeral
            own = (
                message is not None
                and message.guild is None
                and not ephemeral
                and (current is None or current.id == message.id)
            )
            edit: dict[str, Any] = {"content": content, "view": view}
            picture = (cards, highlight)
            if cards and (not (own or ephemeral) or state.picture != picture):
                png = await self.draw(pictures.hand_png, cards, lang, highlight)
                edit["attachments"] = [discord.File(io.BytesIO(png), "hand.png")]
            async with state.lock:
                if message is not None and message.id in box.gone:
                    # re-sent meanwhile (the seat was asked something new): the note goes there
                    state.note = note
                    self._controller(live, seat, resend=False)
                    return
                try:
                    await interaction.edit_original_response(**edit)
                except discord.NotFound:
                    return
                except discord.HTTPException:  # the action is done: say so without the picture
                    log.exception("table %s: updating a controller failed", live.id)
                    await interaction.followup.send(note, ephemeral=True)
                    return
            shown = (content, _ids(view))
            pictured = picture if "attachments" in edit else None
            if ephemeral and self.service.info(live).seats[seat].dm_refused:
                state.hand = (interaction, time.monotonic())  # it follows their questions
                state.shown = shown
                state.picture = pictured or state.picture
                self._controller(live, seat, resend=False)  # asked again meanwhile?
            # the outbox may have sent a newer controller meanwhile: that one stays the seat's
            elif own and message is not None and state.message is current:
                state.pressed(interaction)
                state.note = ""
                if state.pending is False:  # an edit queued before: shown now
                    state.pending = None
                state.showed(message, deal, pictured, *shown)
        finally:
            state.claimed = False

    async def _dm(
        self, live: LiveTable, seat: int, content: str, **kwargs: Any
    ) -> discord.Message | None:
        """DM the seat's player (the DM channel is cached: no user lookup); a refusal
        (50007) is told once in the channel and remembered, and the bot stops trying."""
        sitting = self.service.info(live).seats[seat]
        user_id = sitting.user_id
        if user_id is None or sitting.dm_refused:
            return None
        try:
            channel = await self.people.dm_channel(user_id)
            return await channel.send(content, allowed_mentions=NO_PINGS, **kwargs)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            if await self.service.set_dm_refused(live, seat):
                await self._say(live, "use_hand", {"user": Mention(user_id)})
            return None

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        box = self.outboxes.pop(table_id, None)  # what was queued for a broken table is moot
        if box is not None and box.worker is not None:
            box.worker.cancel()
        self.service.supervisor.start(table_id, "broken notice", lambda: self._broken(channel_id))

    async def _broken(self, channel_id: int) -> None:
        """The channel's notice says only that the table stopped: the reason (which may
        quote a hand) is in the bot's log, never in public."""
        await self.client.wait_until_ready()
        channel = self._channel(channel_id)
        if channel is not None:
            lang = self.people.guild_lang(channel.guild.id)
            await channel.send(text(lang, "table_broken"), allowed_mentions=NO_PINGS)


@dataclass(frozen=True, slots=True)
class Shown:
    """A controller as it is to be shown: its content, controls and picture's hand."""

    content: str
    view: discord.ui.View | None
    controls: tuple[str, ...]
    cards: str
    deal: int
    lang: str
    resend: bool  # it is to notify (the seat is asked something it has not answered)
    question: str | None  # the token of the question it asks

    @property
    def picture(self) -> Picture:
        """What its hand picture shows (the outbox highlights nothing)."""
        return self.cards, None

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """What the controller shows, to compare with what it showed."""
        return self.content, self.controls


def _ids(view: discord.ui.View | None) -> tuple[str, ...]:
    """The custom ids of a view's items: what its controls are."""
    if view is None:
        return ()
    return tuple(str(getattr(item, "custom_id", "")) for item in view.children)


def _ids_of(message: discord.Message) -> bool:
    """Whether a sent message still carries components."""
    return bool(getattr(message, "components", None))


def table_caption(view: PublicView, lang: str) -> str:
    """The table picture's caption: the game of the series and the house rules."""
    if view.number is None:
        return ""
    rules = view.info.options.rules.changed()
    return pictures.table_caption(lang, view.number, view.games_total, rules)


__all__ = ["DiscordPresenter"]
