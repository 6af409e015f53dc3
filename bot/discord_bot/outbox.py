"""Each table's outbox: its lanes of Discord jobs — the channel's, and one per seat's
controller — each run one after another by a worker task, so that the service never waits
on Discord, messages keep their order (a question's notification before any redraw), and
no lane waits for another's rate limit; and what its messages show — one :class:`Seat` per seat,
the mentions still open. :class:`Outboxes` is the presenter's base: the outboxes, the
channels, the service, the notices and mentions every part of the presenter uses.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_bot.pacing import GLOBAL_LIMIT
from bot.discord_bot.people import People
from bot.pictures.drawing import Drawer
from bot.service.live import LiveTable
from bot.service.tables import TableService
from bot.text.catalog import text

log = logging.getLogger("gouji.bot")
NO_PINGS = discord.AllowedMentions.none()
CHANNELS = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.StageChannel)
Channel = discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel
LOG_LINES = 6  # events shown in the table message
GONE_KEPT = 64  # ids of deleted controllers remembered per table (a press on one is late)
# seconds a press's interaction token is used to edit or delete the controller it was made on
# or send a new one as its follow-up (Discord keeps it 15 minutes; its routes are outside the
# bot's global request limit)
TOKEN_LIFE = 14 * 60.0


Job = Callable[[], Awaitable[None]]
Token = tuple[discord.Interaction, float]  # an answered press, and when
Picture = tuple[str, str | None]  # a hand picture: the cards, and those highlighted (a hint)
NOTIFY, SHOW = 0, 1  # job priorities: a question's notification goes before any redraw


@dataclass(eq=False)
class Seat:
    """One seat's hand controller as the outbox knows it: the message, what it shows, the
    update under way and the tokens that can edit it. Its transitions are its methods."""

    message: discord.Message | None = None  # its DM controller
    deal: int | None = None  # the deal the controller is about
    picture: Picture | None = None  # what its picture shows
    owed: Picture | None = None  # the picture it went without (not drawn in time)
    shown: tuple[str, tuple[str, ...]] | None = None  # its content and controls
    pending: bool | None = None  # an update is queued: True a re-send (it notifies)
    claimed: bool = False  # an interaction is updating the controller
    token: Token | None = None  # the last press on the DM controller
    followed: tuple[int, Token] | None = None  # the controller sent as a press's follow-up
    # without DMs: the last /gouji hand answer (or press on it), edited while its token lives
    hand: Token | None = None
    note: str = ""  # a line for the controller (the clock played, the warning)
    notified: str | None = None  # the question whose controller was sent (it notified)
    unsent: bool = False  # a re-send failed past its tries: the next update sends it anew
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
            self.picture, self.owed = picture, None

    def pressed(self, interaction: discord.Interaction) -> None:
        """A press on the DM controller was answered: its token edits that message. Its
        life is counted from the press, not from the answer (slow on a busy bot)."""
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        self.token = (interaction, time.monotonic() - max(0.0, age))

    def forget(self, token: Token) -> None:
        """Drop the press token ``token``: Discord no longer takes it."""
        if self.token is token:
            self.token = None
        if self.followed is not None and self.followed[1] is token:
            self.followed = None

    def live_token(self, user_id: int | None) -> Token | None:
        """The last press's token while it works, if ``user_id`` made it (the seat may have
        changed hands since): it can send a follow-up in their DM."""
        token = _alive(self.token)
        return token if token is not None and token[0].user.id == user_id else None

    def token_for(self, msg: discord.Message) -> Token | None:
        """The token that edits or deletes controller ``msg`` while it works: the last
        press's, if made on it, or the press's it was sent as a follow-up of."""
        token = _alive(self.token)
        pressed = token[0].message if token is not None else None
        if token is not None and pressed is not None and pressed.id == msg.id:
            return token
        if self.followed is not None and self.followed[0] == msg.id:
            return _alive(self.followed[1])
        return None

    def hand_token(self) -> discord.Interaction | None:
        """The interaction whose ephemeral answer is this seat's controller, while valid."""
        hand = _alive(self.hand)
        return hand[0] if hand is not None else None


def _alive(token: Token | None) -> Token | None:
    """``token`` while the bot still uses it (:data:`TOKEN_LIFE`), else None."""
    if token is None or time.monotonic() - token[1] > TOKEN_LIFE:
        return None
    return token


@dataclass(eq=False)
class Ping:
    """A channel mention for a question, deleted once everyone it names has answered."""

    message: discord.Message
    seats: set[int]


CHANNEL_LANE = -1  # the lane of the table's channel; a seat's lane is the seat's number


@dataclass(eq=False)
class Lane:
    """One line of a table's Discord jobs, run in order (notifications first) by its own
    worker: the table's channel, or one seat's controller. Lanes do not wait for each other:
    discord.py sleeps inside the request that used a bucket's last room until the bucket's
    window ends (up to 5 s for a channel's edits), and a table redraw waiting so must not
    hold up a question's notification in someone's DMs."""

    queue: asyncio.PriorityQueue[tuple[int, int, Job]] = field(
        default_factory=asyncio.PriorityQueue
    )
    worker: asyncio.Task[None] | None = None


class Outbox:
    """One table's lanes of Discord jobs (:class:`Lane`), its redraw timer, what its
    messages show and one :class:`Seat` per seat."""

    def __init__(self) -> None:
        self.lanes: dict[int, Lane] = {}
        self.jobs = itertools.count()  # the order of jobs of the same priority
        self.redraw: asyncio.TimerHandle | None = None  # the debounced table redraw
        self.refresh_pending = False
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.below = 0  # channel messages below the table message
        self.seats: dict[int, Seat] = {}
        self.pings: list[Ping] = []  # mentions of open questions
        self.gone: deque[int] = deque(maxlen=GONE_KEPT)  # controllers replaced and deleted
        self.card: list[str] | None = None  # the lines of a result card not yet posted
        # what the table message shows: its id, its content and its picture's bytes
        self.table_shown: tuple[int, str, bytes] | None = None

    def seat(self, seat: int) -> Seat:
        state = self.seats.get(seat)
        if state is None:
            state = self.seats[seat] = Seat()
        return state

    def lane(self, lane: int) -> Lane:
        """The lane numbered ``lane`` (:data:`CHANNEL_LANE`, or a seat), made when first used."""
        line = self.lanes.get(lane)
        if line is None:
            line = self.lanes[lane] = Lane()
        return line

    def put(self, job: Job, priority: int = SHOW, lane: int = CHANNEL_LANE) -> Lane:
        """Queue ``job`` in ``lane`` (the channel's, or a seat's); returns the lane."""
        line = self.lane(lane)
        line.queue.put_nowait((priority, next(self.jobs), job))
        return line

    def workers(self) -> list[asyncio.Task[None]]:
        """The lanes' workers."""
        return [lane.worker for lane in self.lanes.values() if lane.worker is not None]


class Outboxes:
    """The presenter's base: one :class:`Outbox` per table and its worker, the channels, the
    service; ``client`` sends, ``people`` names, ``draw`` draws."""

    def __init__(
        self,
        client: discord.Client,
        people: People,
        draw: Drawer,
        refresh_interval: float = 1.0,
        picture_wait: float | None = None,
        dm_presses: bool = True,
        launch: bool = False,
        busy: Callable[[], bool] = lambda: False,
        request_limit: int = GLOBAL_LIMIT,
    ) -> None:
        self.client = client
        self.busy = busy  # the bot's requests near Discord's limit (:meth:`Pace.busy`)
        self.request_limit = request_limit  # bot-token requests a second the pace allows
        self.dm_presses = dm_presses  # presses on DM controllers reach this process
        self.launch = launch  # the "Open the table" button (the Discord Activity configured)
        self.people = people
        self.draw = draw
        self._service: TableService | None = None
        self.refresh_interval = refresh_interval
        self.picture_wait = picture_wait  # at most this long a DM waits for its hand picture
        self.owed_drawings: set[asyncio.Future[Any]] = set()  # pictures a DM went without
        self.outboxes: dict[int, Outbox] = {}

    # ----------------------------------------------------------------- the outbox
    def _box(self, live: LiveTable) -> Outbox:
        """The table's outbox, its channel lane's worker running: that worker lets the
        outbox go once the table has ended, even if nothing is ever queued in it."""
        box = self.outboxes.get(live.id)
        if box is None:
            box = self.outboxes[live.id] = Outbox()
        self._staff(live, box, box.lane(CHANNEL_LANE))
        return box

    def _staff(self, live: LiveTable, box: Outbox, lane: Lane) -> None:
        """Start ``lane``'s worker unless it runs."""
        if lane.worker is None or lane.worker.done():
            lane.worker = self.service.supervisor.start(
                live.id, "outbox", lambda: self._work(live, box, lane)
            )

    def _enqueue(
        self, live: LiveTable, job: Job, priority: int = SHOW, lane: int = CHANNEL_LANE
    ) -> None:
        """Queue ``job`` in the table's ``lane`` (the channel's, or a seat's controller)."""
        box = self._box(live)
        self._staff(live, box, box.put(job, priority, lane))

    async def _work(self, live: LiveTable, box: Outbox, lane: Lane) -> None:
        """Run a lane's jobs, notifications first, else in order; once the table has ended
        and its lanes' last jobs ran, the outbox goes away with it."""
        try:
            while self.service.tables.is_open(live) or not lane.queue.empty():
                _, _, job = await lane.queue.get()
                try:
                    await job()
                except Exception:  # one failed message must not stop the table's others
                    log.exception("table %s: a Discord job failed", live.id)
                finally:
                    lane.queue.task_done()
        finally:
            me = asyncio.current_task()
            others = [w for w in box.workers() if w is not me and not w.done()]
            if not others and self.outboxes.get(live.id) is box:
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
            lanes = [lane for box in self.outboxes.values() for lane in box.lanes.values()]
            for lane in lanes:
                await lane.queue.join()
            if not any(b.refresh_pending for b in self.outboxes.values()):
                # a table picture drawn off its queue, a hand picture a controller awaits
                if not self.draw.drawing_latest and not self.owed_drawings:
                    return
            await asyncio.sleep(self.refresh_interval / 4 or 0.01)

    async def close(self) -> None:
        for box in self.outboxes.values():
            if box.redraw is not None:
                box.redraw.cancel()
            for worker in box.workers():
                worker.cancel()

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the presenter has no table service yet")
        return self._service

    def attach(self, service: TableService) -> None:
        """The service whose events this presenter shows (built after the presenter)."""
        self._service = service

    async def _say(self, live: LiveTable, key: str, params: dict[str, Any]) -> None:
        info = self.service.tables.info(live)
        channel = self._channel(info.channel_id)
        if channel is not None:
            content = self.people.render(info, self.people.channel_lang(info), key, params)
            await channel.send(content[:2000], allowed_mentions=NO_PINGS)

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
        shown = self.service.tables.info(live).message_id
        if shown is not None and msg.id > shown and box.below > 0:
            box.below -= 1

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        box = self.outboxes.pop(table_id, None)  # what was queued for a broken table is moot
        for worker in box.workers() if box is not None else ():
            worker.cancel()
        self.service.supervisor.start(table_id, "broken notice", lambda: self._broken(channel_id))

    async def _broken(self, channel_id: int) -> None:
        """The channel's notice says only that the table stopped: the reason (which may
        quote a hand) is in the bot's log, never in public."""
        await self.client.wait_until_ready()
        channel = self._channel(channel_id)
        if channel is not None:
            lang = self.people.guild_lang(channel.guild.id)
            await channel.send(text(lang, "table_broken"), allowed_mentions=NO_PINGS)

    def _controller(self, live: LiveTable, seat: int, *, resend: bool) -> None:
        """Queue one update of the seat's controller (:mod:`bot.discord_bot.controllers`)."""
        raise NotImplementedError
