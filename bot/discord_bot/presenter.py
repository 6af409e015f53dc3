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
import io
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
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


class Outbox:
    """One table's queue of Discord jobs, its coalescing flags and what its messages show."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.refresh_pending = False
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.below = 0  # channel messages below the table message
        self.controllers: dict[int, discord.Message] = {}  # seat -> its DM controller
        self.deals: dict[int, int] = {}  # seat -> the deal its controller is about
        self.pictures: dict[int, str] = {}  # seat -> the hand its controller's picture shows
        self.shown: dict[int, tuple[str, tuple[str, ...]]] = {}  # seat -> content, controls
        self.pending: dict[int, bool] = {}  # seat -> a controller job is queued (re-send?)
        self.claimed: set[int] = set()  # seats whose controller an interaction is updating
        # seat -> the last press on its controller and when: its token edits that message
        self.tokens: dict[int, tuple[discord.Interaction, float]] = {}
        self.notes: dict[int, str] = {}  # seat -> a line for its controller (the clock played)
        # seat -> one at a time: a press's answer editing a controller, the outbox deleting it
        self.changing: dict[int, asyncio.Lock] = {}
        self.gone: deque[int] = deque(maxlen=GONE_KEPT)  # controllers replaced and deleted
        self.card: list[str] | None = None  # the lines of a result card not yet posted


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

    def _enqueue(self, live: LiveTable, job: Callable[[], Awaitable[None]]) -> None:
        self._box(live).queue.put_nowait(job)

    async def _work(self, live: LiveTable, box: Outbox) -> None:
        """Run the table's jobs in order; once the table has ended and its last job ran, the
        outbox goes away with it."""
        try:
            while self.service.is_open(live) or not box.queue.empty():
                job = await box.queue.get()
                try:
                    await job()
                except Exception:  # one failed message must not stop the table's others
                    log.exception("table %s: a Discord job failed", live.id)
                finally:
                    box.queue.task_done()
        finally:
            if self.outboxes.get(live.id) is box:
                del self.outboxes[live.id]

    def _channel(self, channel_id: int) -> Channel | None:
        """A channel the bot can post in (a table's), or None if it is gone."""
        channel = self.client.get_channel(channel_id)
        return channel if isinstance(channel, CHANNELS) else None

    async def drain(self) -> None:
        """Wait until every queued job has run (tests, shutdown)."""
        for box in list(self.outboxes.values()):
            await box.queue.join()

    async def close(self) -> None:
        for box in self.outboxes.values():
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
        box = self._box(live)
        if box.refresh_pending:
            return
        box.refresh_pending = True
        self._enqueue(live, lambda: self._refresh(live, box))

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
        if self.refresh_interval:
            await asyncio.sleep(self.refresh_interval)
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
        if message_id is not None and box.below <= REPOST_BELOW:
            try:
                msg = channel.get_partial_message(message_id)
                await msg.edit(
                    content=content, attachments=[file], allowed_mentions=NO_PINGS, **opens
                )
                return
            except discord.NotFound:
                pass
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
        note = text(lang, "ctl_clock_played", what=what)
        if info.seats[who.seat].standin:  # the second in a row: the AI keeps the seat
            note += "\n" + text(lang, "ctl_standin")
        self._box(live).notes[who.seat] = note
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

    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        """The turn's notification is the DM controller; a table with the mention option (or
        a player without DMs) gets one channel mention instead, which is kept."""
        info = self.service.info(live)
        users = [
            user
            for user, refused in ((info.seats[s].user_id, info.seats[s].dm_refused) for s in seats)
            if user is not None and (info.options.mention or refused)
        ]
        if users:
            self._enqueue(live, lambda: self._mention(live, users, key))

    async def _mention(self, live: LiveTable, users: list[int], key: str) -> None:
        info = self.service.info(live)
        channel = self._channel(info.channel_id)
        if channel is None:
            return
        mentions = " ".join(f"<@{u}>" for u in users)
        content = text(self.people.channel_lang(info), key, user=mentions, users=mentions)
        await channel.send(content, allowed_mentions=PING_USERS)

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        box = self._box(live)
        info = self.service.info(live)
        for seat in seats:
            user = info.seats[seat].user_id
            if user is None:
                continue
            lang = self.people.user_lang(user, info.guild_id)
            box.notes[seat] = text(lang, "ctl_warning", seconds=seconds)
            self._controller(live, seat, resend=False)
        self.ping(live, seats, "warning_mention")

    # ----------------------------------------------------------------- DM controllers
    def hand_changed(self, live: LiveTable, seat: int) -> None:
        self._controller(live, seat, resend=False)

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        self._controller(live, seat, resend=True)

    def answered(self, live: LiveTable, seat: int) -> None:
        self._controller(live, seat, resend=False)

    def _controller(self, live: LiveTable, seat: int, *, resend: bool) -> None:
        """Queue one update of the seat's controller (updates coalesce; a re-send wins)."""
        sitting = self.service.info(live).seats[seat]
        if sitting.user_id is None or sitting.dm_refused:
            return
        box = self._box(live)
        queued = seat in box.pending
        box.pending[seat] = box.pending.get(seat, False) or resend
        if not queued:
            self._enqueue(live, lambda: self._update_controller(live, box, seat))

    async def _update_controller(self, live: LiveTable, box: Outbox, seat: int) -> None:
        if seat not in box.pending:
            return  # a press showed the controller's new state meanwhile
        resend = box.pending.pop(seat)
        info = self.service.info(live)
        user_id = info.seats[seat].user_id
        if user_id is None or info.seats[seat].dm_refused:
            return
        if seat in box.claimed and not resend:
            return  # a press is answering with this controller's new state
        lang = self.people.user_lang(user_id, info.guild_id)
        where = self.people.where(info, lang)
        mine = await self.service.private_view(live, seat)
        public = mine.public
        if public.number is None:
            return
        # asked and answered before this job ran (typed in the channel, or the clock):
        # no new notification for a turn that is over, the controller is only edited
        resend = resend and public.playing and seat in public.to_act
        note = box.notes.pop(seat, "") if resend else box.notes.get(seat, "")
        content, view = controller(
            self.people, mine, lang, where, note, presses=self.dm_presses, launch=self.launch
        )
        cards, deal = mine.hand, public.deal
        controls = _ids(view)
        old = box.controllers.get(seat)
        new_game = box.deals.get(seat) != deal
        if not resend and not new_game and box.shown.get(seat) == (content, controls):
            return
        file = None
        picture = f"{cards}|None"
        if cards and (resend or new_game or box.pictures.get(seat) != picture or old is None):
            png = await self.draw.background(pictures.hand_png, cards, lang)
            file = discord.File(io.BytesIO(png), "hand.png")
        if old is not None and not resend and not new_game:
            edit: dict[str, Any] = {"content": content, "view": view}
            if file is not None:
                edit["attachments"] = [file]
            try:
                await self._edit(box, seat, old, **edit)
                self._shown(box, seat, old, deal, picture if file else None, content, controls)
                return
            except discord.NotFound:
                pass
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        if file is not None:
            kwargs["file"] = file
        sent = await self._dm(live, seat, content, **kwargs)
        if sent is None:
            return
        self._shown(box, seat, sent, deal, picture if file else None, content, controls)
        try:
            if old is not None and not new_game:  # one controller per game: the old one goes
                async with _changing(box, seat):  # not while a press's answer edits it
                    box.gone.append(old.id)
                    await self._delete(box, seat, old)
            elif old is not None and _ids_of(old):  # last game's: its controls are spent
                await self._edit(box, seat, old, view=None)
        except discord.HTTPException:
            pass
        box.tokens.pop(seat, None)  # they were about the old message

    def _token(self, box: Outbox, seat: int, msg: discord.Message) -> discord.Interaction | None:
        """The last press on the seat's controller ``msg`` if its token still works."""
        held = box.tokens.get(seat)
        if held is None:
            return None
        interaction, at = held
        pressed = interaction.message
        if pressed is None or pressed.id != msg.id or time.monotonic() - at > TOKEN_LIFE:
            return None
        return interaction

    async def _edit(self, box: Outbox, seat: int, msg: discord.Message, **edit: Any) -> None:
        """Edit a controller: through its last press's token when it still works (an
        interaction route, outside the bot's request limit), else with the bot's token."""
        interaction = self._token(box, seat, msg)
        if interaction is not None:
            try:
                await interaction.edit_original_response(**edit)
                return
            except discord.NotFound:  # the token ran out (or the message is gone)
                box.tokens.pop(seat, None)
        await msg.edit(**edit)

    async def _delete(self, box: Outbox, seat: int, msg: discord.Message) -> None:
        """Delete a controller, through its last press's token when it still works."""
        interaction = self._token(box, seat, msg)
        if interaction is not None:
            try:
                await interaction.delete_original_response()
                return
            except discord.NotFound:
                box.tokens.pop(seat, None)
        await msg.delete()

    def _shown(
        self,
        box: Outbox,
        seat: int,
        msg: discord.Message,
        deal: int,
        cards: str | None,
        content: str,
        controls: tuple[str, ...],
    ) -> None:
        box.controllers[seat] = msg
        box.deals[seat] = deal
        box.shown[seat] = (content, controls)
        if cards is not None:
            box.pictures[seat] = cards

    # ----------------------------------------------------------------- presses
    def claim(self, live: LiveTable, seat: int) -> None:
        """A press on the seat's controller is being answered: it shows the new state."""
        self._box(live).claimed.add(seat)

    def release(self, live: LiveTable, seat: int) -> None:
        """The press was refused: the controller is the presenter's again."""
        self._box(live).claimed.discard(seat)

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
        try:
            mine = await self.service.private_view(live, seat)
            where = self.people.where(mine.public.info, lang)
            content, view = controller(self.people, mine, lang, where, note, launch=self.launch)
            cards, deal = mine.hand, mine.public.deal
            message = interaction.message
            current = box.controllers.get(seat)
            own = (
                message is not None
                and message.guild is None
                and not message.flags.ephemeral
                and (seat not in box.controllers or box.controllers[seat].id == message.id)
            )
            edit: dict[str, Any] = {"content": content, "view": view}
            picture = f"{cards}|{highlight}"
            if cards and (not own or box.pictures.get(seat) != picture):
                png = await self.draw(pictures.hand_png, cards, lang, highlight)
                edit["attachments"] = [discord.File(io.BytesIO(png), "hand.png")]
            async with _changing(box, seat):
                if message is not None and message.id in box.gone:
                    # re-sent meanwhile (the seat was asked something new): the note goes there
                    box.notes[seat] = note
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
            # the outbox may have sent a newer controller meanwhile: that one stays the seat's
            if own and message is not None and box.controllers.get(seat) is current:
                box.tokens[seat] = (interaction, time.monotonic())
                box.notes.pop(seat, None)
                if box.pending.get(seat) is False:  # an edit queued before: shown now
                    del box.pending[seat]
                self._shown(
                    box,
                    seat,
                    message,
                    deal,
                    picture if "attachments" in edit else None,
                    content,
                    _ids(view),
                )
        finally:
            box.claimed.discard(seat)

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

    def closed(self, live: LiveTable, key: str) -> None:
        self._enqueue(live, lambda: self._say(live, key, {}))

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


def _changing(box: Outbox, seat: int) -> asyncio.Lock:
    """The lock that keeps a press's answer and the outbox from changing the seat's
    controller at once (an edit of a message being deleted fails)."""
    lock = box.changing.get(seat)
    if lock is None:
        lock = box.changing[seat] = asyncio.Lock()
    return lock


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
    rules = view.info.options.engine_options().changed()
    return pictures.table_caption(lang, view.number, view.games_total, rules)


__all__ = ["DiscordPresenter"]
