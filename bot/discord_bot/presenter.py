"""The table service's events, shown on Discord.

Every event becomes a job in its table's outbox, run one after another by a worker task, so
the service never waits on Discord and messages keep their order. The table message is
redrawn at most once per ``refresh_interval`` (redraws coalesce), hands are DM'd as the
latest picture per seat (coalesced too), pictures are drawn off the event loop
(:mod:`bot.pictures.drawing`, as background work: replies someone waits for go first).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord_bot.components import prompt_view
from bot.discord_bot.people import People
from bot.pictures import png as pictures
from bot.pictures.drawing import Drawer
from bot.service.live import LiveTable
from bot.service.presenter import BURN, RETURN, TURN, Mention, Who
from bot.service.tables import TableService
from bot.text.catalog import text

log = logging.getLogger("gouji.bot")
NO_PINGS = discord.AllowedMentions.none()
CHANNELS = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.StageChannel)
Channel = discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel


class Outbox:
    """One table's queue of Discord jobs and its coalescing flags."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.refresh_pending = False
        self.hands_pending: set[int] = set()
        self.turn_message: discord.Message | None = None
        self.prompts: dict[int, discord.Message] = {}  # seat -> its latest DM question
        self.prompt_serial: dict[int, int] = {}  # seat -> number of its latest question


class DiscordPresenter:
    """:class:`~bot.service.presenter.Presenter` on Discord: ``client`` sends, ``people``
    names, ``draw`` draws; :meth:`attach` gives it the service whose events it shows."""

    def __init__(
        self,
        client: discord.Client,
        people: People,
        draw: Drawer,
        refresh_interval: float = 1.0,
    ) -> None:
        self.client = client
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
            box.worker = self.service.supervisor.start(live.id, "outbox", self._work(live, box))
        return box

    def _enqueue(self, live: LiveTable, job: Callable[[], Awaitable[None]]) -> None:
        self._box(live).queue.put_nowait(job)

    async def _work(self, live: LiveTable, box: Outbox) -> None:
        """Run the table's jobs in order; once the table has ended and its last job ran, the
        outbox goes away with it."""
        try:
            while not (live.ended and box.queue.empty()):
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

    def _channel(self, channel_id: int) -> Channel | None:
        """A channel the bot can post in (a table's), or None if it is gone."""
        channel = self.client.get_channel(channel_id)
        return channel if isinstance(channel, CHANNELS) else None

    def attach(self, service: TableService) -> None:
        """The service whose events this presenter shows (built after the presenter)."""
        self._service = service

    # ----------------------------------------------------------------- events
    def table_changed(self, live: LiveTable) -> None:
        box = self._box(live)
        if box.refresh_pending:
            return
        box.refresh_pending = True
        self._enqueue(live, lambda: self._refresh(live, box))

    async def _refresh(self, live: LiveTable, box: Outbox) -> None:
        if self.refresh_interval:
            await asyncio.sleep(self.refresh_interval)
        box.refresh_pending = False
        channel = self._channel(live.table.channel_id)
        if channel is None:
            return
        lang = self.people.channel_lang(live)
        await self.people.learn_names([s.user_id for s in live.seats if s.user_id is not None])
        async with live.lock:  # a consistent state to draw
            names = self.people.names(live, lang)
            view = pictures.table_view(live, names, lang)
        png = await self.draw.background(pictures.view_png, view, lang)
        seats = " · ".join(f"{s}: {n}" for s, n in enumerate(names))
        file = discord.File(io.BytesIO(png), filename="table.png")
        content = f"**够级 Gouji** — {seats}"
        message_id = live.table.message_id
        if message_id is not None:
            try:
                msg = channel.get_partial_message(message_id)
                await msg.edit(content=content, attachments=[file], allowed_mentions=NO_PINGS)
                return
            except discord.NotFound:
                pass
        msg = await channel.send(content, file=file, allowed_mentions=NO_PINGS)
        await self.service.store.set_table_message(live.id, msg.id)
        live.table = await self.service.store.get_table(live.id)

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        self._enqueue(live, lambda: self._say(live, key, params))

    async def _say(self, live: LiveTable, key: str, params: dict[str, Any]) -> None:
        channel = self._channel(live.table.channel_id)
        if channel is not None:
            content = self.people.render(live, self.people.channel_lang(live), key, params)
            await channel.send(content, allowed_mentions=NO_PINGS)

    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        users = [u for u in (live.seats[s].user_id for s in seats) if u is not None]
        if users:
            self._enqueue(live, lambda: self._ping(live, users, key))

    async def _ping(self, live: LiveTable, users: list[int], key: str) -> None:
        channel = self._channel(live.table.channel_id)
        if channel is None:
            return
        box = self._box(live)
        mentions = " ".join(f"<@{u}>" for u in users)
        content = text(self.people.channel_lang(live), key, user=mentions, users=mentions)
        old, box.turn_message = box.turn_message, None
        box.turn_message = await channel.send(
            content,
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
        )
        if old is not None:  # one turn notice in the channel at a time
            try:
                await old.delete()
            except discord.HTTPException:
                pass

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        self.announce(live, "warning", user=[Who(s) for s in seats], seconds=seconds)

    def hand_changed(self, live: LiveTable, seat: int) -> None:
        box = self._box(live)
        if seat in box.hands_pending or live.seats[seat].dm_refused:
            return
        box.hands_pending.add(seat)
        self._enqueue(live, lambda: self._send_hand(live, box, seat))

    async def _send_hand(self, live: LiveTable, box: Outbox, seat: int) -> None:
        box.hands_pending.discard(seat)
        user_id = live.seats[seat].user_id
        if user_id is None or live.seats[seat].dm_refused:
            return
        lang = self.people.user_lang(user_id, live.table.guild_id)
        cards = self.service.hand_cards(live, seat)
        if not cards:
            return
        png = await self.draw.background(pictures.hand_png, cards, lang)
        content = text(lang, "dm_hand", where=self.people.where(live, lang))
        await self._dm(live, seat, content, file=discord.File(io.BytesIO(png), "hand.png"))

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        if live.seats[seat].dm_refused:
            return
        box = self._box(live)
        serial = box.prompt_serial[seat] = box.prompt_serial.get(seat, 0) + 1
        self._enqueue(live, lambda: self._prompt(live, seat, kind, serial))

    async def _prompt(self, live: LiveTable, seat: int, kind: str, serial: int) -> None:
        user_id = live.seats[seat].user_id
        if user_id is None or self._box(live).prompt_serial.get(seat) != serial:
            return  # a later question for this seat is queued: only that one is sent
        lang = self.people.user_lang(user_id, live.table.guild_id)
        where = self.people.where(live, lang)
        async with live.lock:
            if not live.playing or seat not in live.running.to_act:
                return  # answered already (or by the clock)
            if self.service._prompt_kind(live) != kind:
                return  # a later question; it has its own prompt
            view, content = prompt_view(self.people, self.service, live, seat, kind, lang, where)
        box = self._box(live)
        await self._close_prompt(box, seat)  # one open question per seat
        sent = await self._dm(live, seat, content, view=view)
        if sent is not None:
            box.prompts[seat] = sent

    def answered(self, live: LiveTable, seat: int) -> None:
        box = self._box(live)
        box.prompt_serial[seat] = box.prompt_serial.get(seat, 0) + 1  # a queued one is moot
        self._enqueue(live, lambda: self._close_prompt(box, seat))

    async def _close_prompt(self, box: Outbox, seat: int) -> None:
        """Take the buttons off the seat's last DM question."""
        old = box.prompts.pop(seat, None)
        if old is not None:
            try:
                await old.edit(view=None)
            except discord.HTTPException:
                pass

    async def _dm(
        self, live: LiveTable, seat: int, content: str, **kwargs: Any
    ) -> discord.Message | None:
        """DM the seat's player; a refusal (50007) is told once in the channel and
        remembered, and the bot stops trying."""
        user_id = live.seats[seat].user_id
        if user_id is None or live.seats[seat].dm_refused:
            return None
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            return await user.send(content, **kwargs)
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
        self.service.supervisor.start(table_id, "broken notice", self._broken(channel_id, reason))

    async def _broken(self, channel_id: int, reason: str) -> None:
        await self.client.wait_until_ready()
        channel = self._channel(channel_id)
        if channel is not None:
            lang = self.people.guild_lang(channel.guild.id)
            await channel.send(text(lang, "table_broken", reason=reason), allowed_mentions=NO_PINGS)


__all__ = ["BURN", "RETURN", "TURN", "DiscordPresenter"]
