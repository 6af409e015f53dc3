"""The channel side of a table on Discord: the one table message (the picture, a short log
of the last events, the turn clock), redrawn at most once per ``refresh_interval`` and
re-posted when more than ``REPOST_BELOW`` messages pile up below it; standalone messages only
for what is kept (a game's result, the series' end, notices); mentions for the questions of
players without DMs (or with the mention option), deleted once answered.
"""

from __future__ import annotations

import asyncio
import io
import math
from typing import Any

import discord

from bot.discord_bot.launch import launch_button
from bot.discord_bot.outbox import NO_PINGS, NOTIFY, Outbox, Outboxes, Ping
from bot.discord_bot.table_button import table_picture
from bot.pictures import png as pictures
from bot.pictures.views import named_series
from bot.service.live import LiveTable
from bot.service.views import PublicView
from bot.text.catalog import text
from bot.text.params import Who, list_text
from render.models import SeriesView

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
REPOST_BELOW = 3  # more messages than this below the table message: post it again
BUSY_WAITS = 4  # intervals more a redraw may wait near Discord's limit: 10 s in all at 2 s each
REDRAW_SHARE = 1 / 3  # of the pace, at most, for the redraws that waited all they may


def busy_waits(tables: int, limit: int, interval: float) -> int:
    """How many intervals more a table redraw may wait near Discord's limit (``limit``
    requests a second): :data:`BUSY_WAITS`, or more with many ``tables``, so that if every
    table's redraw waited them all and then went, the redraws would take no more than
    :data:`REDRAW_SHARE` of the pace and leave the rest to the questions' DMs. At 500 tables
    each redrawing every 10 s, they alone would take more than the 45 a second the pace
    allows, and the DMs waited seconds behind them.

    >>> busy_waits(50, 45, 2.0), busy_waits(500, 45, 2.0), busy_waits(500, 22, 2.0)
    (4, 16, 34)
    """
    if interval <= 0:
        return BUSY_WAITS  # no interval (a test's): nothing to spread
    intervals = math.ceil(tables / (REDRAW_SHARE * limit * interval))  # between two redraws
    return max(BUSY_WAITS, intervals - 1)


class TableMessage(Outboxes):
    """The table's channel: its table message, announcements, result cards and mentions."""

    # ----------------------------------------------------------------- the table message
    def table_changed(self, live: LiveTable) -> None:
        """Redraw the table message once ``refresh_interval`` has passed (its own timer:
        what is queued meanwhile, a question's notification first of all, does not wait).
        While the bot's requests are near Discord's limit (``busy``) the redraw waits
        another interval, up to :func:`busy_waits` times: the questions go first."""
        box = self._box(live)
        if box.refresh_pending:
            return
        box.refresh_pending = True
        waits = busy_waits(len(self.outboxes), self.request_limit, self.refresh_interval)
        self._redraw_after(live, box, waits)

    def _redraw_after(self, live: LiveTable, box: Outbox, waits: int) -> None:
        """Queue the table's redraw after ``refresh_interval`` (``waits``: more it may
        wait while busy)."""

        def due() -> None:
            box.redraw = None
            if self.outboxes.get(live.id) is not box:
                box.refresh_pending = False
            elif waits > 0 and self.service.tables.is_open(live) and self.busy():
                self._redraw_after(live, box, waits - 1)
            else:
                self._enqueue(live, lambda: self._refresh(live, box))

        box.redraw = asyncio.get_running_loop().call_later(self.refresh_interval, due)

    def redraw_at_once(self, live: LiveTable) -> None:
        """A redraw still waiting out its interval goes now (the table ended: its message
        shows how, with no clock), after what is already queued."""
        box = self.outboxes.get(live.id)
        if box is not None and box.redraw is not None:
            box.redraw.cancel()
            box.redraw = None
            self._enqueue(live, lambda: self._refresh(live, box))

    def channel_message(self, channel_id: int, message_id: int) -> None:
        """A message appeared in a channel (the gateway said so): one more below the table
        message of that channel's table; too many, and the table message is posted again."""
        live = self.service.tables.table_at(channel_id) if self._service else None
        shown = self.service.tables.info(live).message_id if live is not None else None
        if live is None or shown is None or message_id <= shown:
            return
        box = self._box(live)
        box.below += 1
        if box.below > REPOST_BELOW:
            self.table_changed(live)

    async def _refresh(self, live: LiveTable, box: Outbox) -> None:
        box.refresh_pending = False
        info = self.service.tables.info(live)
        channel = self._channel(info.channel_id)
        if channel is None:
            return
        lang = self.people.channel_lang(info)
        await self.people.learn_names(info.users())
        view = await self.service.views.public_view(live)  # a consistent state to draw
        names = self.people.names(view.info, lang)
        picture = table_picture(self.people, view, lang)
        content = self._table_text(view, box, names, lang)
        png = await self.draw.latest(
            live.id, pictures.view_png, picture, lang,
            then=lambda: self._redrawn(live), wait=not self.service.tables.is_open(live),
        )  # fmt: skip
        if png is None:
            return  # the workers are busy: drawn off this queue, then shown (``then``)
        file = discord.File(io.BytesIO(png), filename="table.png")
        message_id = view.info.message_id
        opens: dict[str, Any] = {"view": launch_button(None, lang)} if self.launch else {}
        if message_id is not None and (
            box.below <= REPOST_BELOW or not self.service.tables.is_open(live)
        ):
            shown = box.table_shown
            same_picture = shown is not None and shown[0] == message_id and shown[2] == png
            if same_picture and shown is not None and shown[1] == content:
                return  # nothing anyone sees would change: no request
            # the picture unchanged: the edit keeps the message's own (no upload)
            edit: dict[str, Any] = {} if same_picture else {"attachments": [file]}
            try:
                msg = channel.get_partial_message(message_id)
                await msg.edit(content=content, allowed_mentions=NO_PINGS, **edit, **opens)
                box.table_shown = (message_id, content, png)
                return
            except discord.NotFound:
                pass
        if not self.service.tables.is_open(live):
            return  # nothing new is posted for a table that has ended
        msg = await channel.send(content, file=file, allowed_mentions=NO_PINGS, **opens)
        box.table_shown = (msg.id, content, png)
        box.below = 0
        await self.service.set_table_message(live, msg.id)
        if message_id is not None:  # the buried one goes: one table message per channel
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.HTTPException:
                pass

    def _redrawn(self, live: LiveTable) -> None:
        if self.service.tables.is_open(live):
            self.table_changed(live)

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
        info = self.service.tables.info(live)
        lang = self.people.channel_lang(info)
        line = self.people.render(info, lang, key, params)
        if key in CARDS:  # its picture shows the table as the game ended, before a new deal
            card = box.card = [line]
            scoreboard = self.service.views.public_view_locked(live).scoreboard  # in the callback
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

    def series_over(self, live: LiveTable) -> None:
        """How to go on, on Discord: the line under the result card."""
        series = self.service.tables.info(live).options.series
        self.announce(live, "ev_again" if series else "ev_again_single")

    def _clock_played(self, live: LiveTable, params: dict[str, Any]) -> None:
        """Tell the seat the clock played for what was played, in its controller."""
        who = params.get("user")
        info = self.service.tables.info(live)
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
        info = self.service.tables.info(live)
        channel = self._channel(info.channel_id)
        if channel is None:
            return
        lang = self.people.channel_lang(info)
        png = await self.draw.background(pictures.series_view_png, view, lang)
        file = discord.File(io.BytesIO(png), filename="result.png")
        await channel.send("\n".join(card)[:2000], file=file, allowed_mentions=NO_PINGS)

    # ----------------------------------------------------------------- notifications
    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        """The seats were asked something new. The DM controller re-sent is a DM player's
        notification; a player without DMs (or at a table with the mention option) gets
        one channel mention, decided when it is sent (a DM refusal found by then counts)."""
        if seats:
            question = self.service.views.question_token(live)  # in the callback: the lock is held
            self._enqueue(live, lambda: self._mention(live, list(seats), key, question), NOTIFY)

    async def _mention(self, live: LiveTable, seats: list[int], key: str, question: str) -> None:
        """Mention the seats still asked ``question``: those without DMs worded for
        ``/gouji hand``, the others (the mention option) as ``key`` says. The mention is
        deleted once answered. The seats' queued controller updates run first: a DM refused
        there (the person's first question) is what makes their mention."""
        box = self._box(live)
        await asyncio.gather(*(box.lane(seat).queue.join() for seat in seats))
        if (
            not self.service.tables.is_open(live)
            or self.service.views.question_token(live) != question
        ):
            return  # answered meanwhile (and maybe asked something new: its own mention)
        info = self.service.tables.info(live)
        waited_on = self.service.tables.waited_on(live)  # a page shown: seen there, no mention
        asked = [s for s in seats if s in waited_on and not self.service.on_page(live, s)]
        hand = [s for s in asked if info.seats[s].dm_refused]
        dm = [s for s in asked if not info.seats[s].dm_refused and info.options.mention]
        for group, wording in ((hand, "your_turn_hand"), (dm, key)):
            await self._send_ping(live, group, wording)

    async def _send_ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        info = self.service.tables.info(live)
        users = [u for u in (info.seats[s].user_id for s in seats) if u is not None]
        channel = self._channel(info.channel_id)
        if not users or channel is None or not self.service.tables.is_open(live):
            return
        mentions = " ".join(f"<@{u}>" for u in users)
        content = text(self.people.channel_lang(info), key, user=mentions, users=mentions)
        msg = await channel.send(content, allowed_mentions=PING_USERS)
        box = self._box(live)
        box.pings.append(Ping(msg, set(seats)))
        if not self.service.tables.is_open(live) or not (
            set(seats) & self.service.tables.waited_on(live)
        ):
            self._settle_pings(live, box, seats)  # answered (or ended) while it was sent
