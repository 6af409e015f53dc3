"""The seats' hand controllers on Discord. Each player has one DM controller per game
(:func:`bot.discord_bot.components.controller`), edited in place and re-sent (the old one
deleted) when they are asked something, so that each turn notifies once; a player without DMs
has their last ``/gouji hand`` answer edited instead, through its interaction token. A press
on a controller is answered by editing the controller it was made on.

Near Discord's global limit of 50 requests a second (:meth:`~bot.discord_bot.pacing.Pace.busy`),
which one new DM per question fills at a few hundred tables, a controller is re-sent outside
it: as a follow-up of the player's last press in the DM while its token lives (14 minutes),
a new message there, which notifies as a DM does; it is then edited and deleted through that
token too. Otherwise, and past the token's life, the bot's own token posts, edits and
deletes the controllers; a question's DM whose question was answered while it waited for
the limit (typed, or on the web table) is not sent, nor the old controller deleted for it.

A hand picture is uploaded only when the picture a message shows is not its hand's: an edit
carries no attachments then (Discord keeps the message's own), and what a press's answer or
the outbox showed is noted under the seat's lock, so that the other, racing it, does not
upload the same picture again. A re-sent controller (a new DM: it notifies) carries it anew.
A DM controller waits at most ``picture_wait`` (``GOUJI_PICTURE_WAIT``) for its picture: a
busy drawing process does not hold up the question; an edit adds the picture once drawn.

A controller's post or edit that fails on Discord's side or on the way (a 5xx: discord.py
retries 500, 502 and 504 itself, never 503; a timeout, a broken connection) is tried again
(:func:`retried`) while it is still wanted. A re-send that failed past its tries is noted on
the seat (``Seat.unsent``): the seat's next update sends it anew, and while the seat is asked
one comes :data:`REPAIR_AFTER` seconds later, so that nobody is left without a way to answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import discord

from bot.discord_bot.components import controller
from bot.discord_bot.outbox import (
    NO_PINGS,
    NOTIFY,
    SHOW,
    Outbox,
    Outboxes,
    Picture,
    Seat,
    Token,
    log,
)
from bot.discord_bot.pacing import Unwanted, only_if
from bot.pictures import png as pictures
from bot.service.live import LiveTable
from bot.service.supervise import MOST, backoff
from bot.text.catalog import text
from bot.text.params import Mention


class Controllers(Outboxes):
    """The seats' controllers: updated by the outbox, or by the press answered on them."""

    # ----------------------------------------------------------------- controllers
    def hand_changed(self, live: LiveTable, seat: int) -> None:
        self._controller(live, seat, resend=False)

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        self._controller(live, seat, resend=True)

    def answered(self, live: LiveTable, seat: int) -> None:
        self._settle_pings(live, self._box(live), [seat])
        self._controller(live, seat, resend=False)

    def follow(
        self, live: LiveTable, seat: int, interaction: discord.Interaction, cards: str
    ) -> None:
        """``interaction`` answered with the seat's controller (``/gouji hand``) and the
        picture of ``cards``: for a player without DMs, its answer is edited with each new
        question, with a new picture only once the hand changed."""
        state = self._box(live).seat(seat)
        state.hand = (interaction, time.monotonic())
        state.shown = None  # the next update shows its text anew
        state.picture = (cards, None)

    def open_dms(self, live: LiveTable) -> None:
        """Open the DM channels of the table's players not reached yet, each in its seat's
        lane ahead of its first controller (:meth:`People.open_dm`): at the deal, their
        DMs go at once."""
        for seat, sitting in enumerate(self.service.tables.info(live).seats):
            user_id = sitting.user_id
            if user_id is None or sitting.dm_refused or not self.people.open_ahead(user_id):
                continue
            self._box(live).seat(seat)  # its lane's worker ends with the table (closed)
            self._enqueue(live, functools.partial(self.people.open_dm, user_id), SHOW, seat)

    def _controller(self, live: LiveTable, seat: int, *, resend: bool) -> None:
        """Queue one update of the seat's controller (updates coalesce; a re-send wins)."""
        if self.service.tables.info(live).seats[seat].user_id is None:
            return
        if self._box(live).seat(seat).want(resend):
            box = self._box(live)
            self._enqueue(live, lambda: self._update_controller(live, box, seat), NOTIFY, seat)

    async def _update_controller(self, live: LiveTable, box: Outbox, seat: int) -> None:
        state = box.seat(seat)
        sitting = self.service.tables.info(live).seats[seat]
        if (
            state.pending is None
            or sitting.user_id is None
            or not self.service.tables.is_open(live)
        ):
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
        owed = state.owed is not None and state.owed != state.picture
        if not resend and not new_game and state.shown == shown.key and not owed:
            return
        old = state.message
        fresh = resend or new_game or old is None or state.picture != shown.picture
        file = await self._hand_file_soon(live, seat, state, shown, fresh)
        if old is not None and not resend and not new_game:
            edit: dict[str, Any] = {"content": shown.content, "view": shown.view}
            async with state.lock:  # a press's answer may have shown this picture meanwhile
                if _showing(state, old, shown.picture):
                    file = None
            data = _bytes(file)

            async def edit_it() -> None:
                again = edit if data is None else {**edit, "attachments": [_png(data)]}
                await self._edit(state, old, **again)

            try:
                await retried(edit_it, functools.partial(self._wanted, live, state, seat, shown))
                state.showed(old, shown.deal, shown.picture if file else None, *shown.key)
                return
            except discord.NotFound:
                pass
            except Unwanted:
                return  # answered, or a re-send queued: the seat's next update shows it
        await self._send_controller(live, box, seat, shown, file)

    async def _render(self, live: LiveTable, seat: int, state: Seat) -> Shown | None:
        """The seat's controller now, or None outside a game; the seat's queued update is
        taken with the view (a question asked meanwhile is in both). A question asked and
        answered before this ran (typed, or the clock) is not notified: the controller is
        only edited. A re-send shows the seat's note once; an edit keeps it."""
        seated = self.service.tables.info(live).seats[seat].user_id is not None
        mine = await self.service.views.private_view(live, seat) if seated else None
        resend, state.unsent = bool(state.take()) or state.unsent, False
        if mine is None or mine.public.number is None:
            return None
        public = mine.public
        # the seats as the view has them (under the lock), not as they were before the wait:
        # a /gouji back meanwhile has taken the seat back from the AI
        info = public.info
        user_id = info.seats[seat].user_id
        if user_id is None:
            return None
        lang = self.people.user_lang(user_id, info.guild_id)
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
        return _png(await self.draw.background(pictures.hand_png, shown.cards, shown.lang))

    async def _hand_file_soon(
        self, live: LiveTable, seat: int, state: Seat, shown: Shown, fresh: bool
    ) -> discord.File | None:
        """The hand picture as :meth:`_hand_file` gives it, waited for at most
        ``picture_wait``: past it (a new deal at many tables fills the drawing process) the
        controller goes without it, the picture is noted as owed, and once it is drawn an
        update of the controller edits it in (from the cache)."""
        if self.picture_wait is None:
            return await self._hand_file(shown, fresh)
        drawing = asyncio.ensure_future(self._hand_file(shown, fresh))
        await asyncio.wait({drawing}, timeout=self.picture_wait)
        if drawing.done():
            return drawing.result()
        state.owed = shown.picture
        self.owed_drawings.add(drawing)
        drawing.add_done_callback(functools.partial(self._owed_drawn, live, seat))
        return None

    def _owed_drawn(
        self, live: LiveTable, seat: int, drawing: asyncio.Future[discord.File | None]
    ) -> None:
        """A hand picture a controller went without is drawn: the controller shows it."""
        self.owed_drawings.discard(drawing)
        if drawing.cancelled():
            return
        if drawing.exception() is not None:
            log.error("table %s: a hand picture failed", live.id, exc_info=drawing.exception())
            return
        self._update_open(live, seat)

    def _update_open(self, live: LiveTable, seat: int) -> None:
        """Update the seat's controller, unless its table has ended meanwhile."""
        if self.service.tables.is_open(live):
            self._controller(live, seat, resend=False)

    async def _send_controller(
        self, live: LiveTable, box: Outbox, seat: int, shown: Shown, file: discord.File | None
    ) -> None:
        """Send the controller anew (it notifies, unless the seat's page is shown: then the
        question is seen there, :meth:`TableService.on_page`); the old one goes, or, last
        game's, loses its spent controls."""
        state = box.seat(seat)
        if state.pending:
            return  # asked something new meanwhile: the queued re-send notifies once
        old, new_game = state.message, state.deal != shown.deal
        user_id = self.service.tables.info(live).seats[seat].user_id
        wanted = functools.partial(self._wanted, live, state, seat, shown)
        data = _bytes(file)

        async def post() -> tuple[discord.Message | None, Token | None]:
            # the seat's page shown: the question is seen there, this one notifies nobody
            kwargs = {**_message(shown, data), "silent": self.service.on_page(live, seat)}
            # near Discord's global limit (busy), outside it: a follow-up of the last press
            sender = state.live_token(user_id) if self.busy() else None
            if sender is not None:
                sent = await self._follow_up(state, sender, shown.content, kwargs)
                if sent is not None:
                    return sent, sender
            return await self._dm(live, seat, shown.content, wanted, **kwargs), None

        try:
            sent, sender = await retried(post, wanted)
        except Unwanted:  # answered while the DM waited for the bot's request limit
            return
        except Exception as exc:
            if not transient(exc):
                raise
            self._unsent(live, state, seat, shown, exc)
            return
        if sent is None:
            return
        state.showed(sent, shown.deal, shown.picture if file else None, *shown.key)
        state.notified = shown.question
        try:
            if old is not None and not new_game:  # one controller per game: the old one goes
                async with state.lock:  # a press's answer editing it finishes first,
                    box.gone.append(old.id)  # and a later one sees it gone
                # not under the lock: a delete the bot's request limit holds back (the last
                # in its queue) must not hold up a press's answer on the new controller
                await self._delete(state, old)
            elif old is not None and _ids_of(old):
                await self._edit(state, old, view=None)
        except discord.HTTPException:
            pass
        # (after the delete: the old controller may be a follow-up, edited by its own token)
        state.followed = (sent.id, sender) if sender is not None else None

    def _wanted(self, live: LiveTable, state: Seat, seat: int, shown: Shown) -> bool:
        """Whether controller ``shown`` is still worth sending or showing: no re-send of the
        seat is queued after it, and the seat has not answered the question it asks (if
        any) meanwhile."""
        question = shown.question
        if state.pending or not self.service.tables.is_open(live):
            return False
        return question is None or self.service.views.still_asked(live, seat, question)

    def _unsent(
        self, live: LiveTable, state: Seat, seat: int, shown: Shown, exc: Exception
    ) -> None:
        """Controller ``shown`` failed to go past its tries (``exc``): the seat's next update
        sends it anew, and if it asks a question one comes :data:`REPAIR_AFTER` seconds from
        now (the seat may have nothing else coming before its clock runs out)."""
        state.unsent = True
        log.warning("table %s: seat %s's controller did not go (%r)", live.id, seat, exc)
        if shown.question is not None:
            self.service.supervisor.start(live.id, "repair", lambda: self._repair(live, seat))

    async def _repair(self, live: LiveTable, seat: int) -> None:
        """Update the seat's controller :data:`REPAIR_AFTER` seconds from now."""
        await asyncio.sleep(REPAIR_AFTER)
        self._update_open(live, seat)

    async def _follow_up(
        self, state: Seat, sender: Token, content: str, kwargs: dict[str, Any]
    ) -> discord.Message | None:
        """Send the controller as a follow-up of the player's last press in the DM: a new
        message there, which notifies like a DM, through the press's token — an interaction
        route, outside the bot's global request limit, which one new DM per question fills
        at a few hundred tables. None if Discord no longer takes the token."""
        with _unless_refused(state, sender):
            return await sender[0].followup.send(
                content, wait=True, allowed_mentions=NO_PINGS, **kwargs
            )
        return None

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
        async with state.lock:  # after a press's answer editing it (it may show the picture)
            if state.picture == shown.picture:
                file = None
            if file is not None:
                edit["attachments"] = [file]
            try:
                await interaction.edit_original_response(**edit)
            except discord.HTTPException:  # the token ran out, or the message is gone
                state.hand = None
                return
            state.shown = shown.key  # noted under the lock: a press's answer looks
            if file is not None:
                state.picture = shown.picture

    def closed(self, live: LiveTable, key: str) -> None:
        """The table ended: the channel is told, no mention is left, and every controller
        loses its controls and clock."""
        box = self._box(live)
        self._settle_pings(live, box, None)
        self._enqueue(live, lambda: self._say(live, key, {}))
        for seat in list(box.seats):
            self._enqueue(live, functools.partial(self._retire, live, box, seat), lane=seat)

    async def _retire(self, live: LiveTable, box: Outbox, seat: int) -> None:
        """An ended table's controller: its title and "the table has ended", no controls."""
        state = box.seat(seat)
        state.pending = None
        user_id = self.service.tables.info(live).seats[seat].user_id
        if state.shown is None or user_id is None:
            return
        lang = self.people.user_lang(user_id, self.service.tables.info(live).guild_id)
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
        token = state.token_for(msg)
        if token is not None:
            interaction = token[0]
            with _unless_refused(state, token):
                if _pressed_on(interaction, msg):
                    await interaction.edit_original_response(**edit)
                else:
                    await interaction.followup.edit_message(msg.id, **edit)
                return
        await _by_bot(msg).edit(**edit)

    async def _delete(self, state: Seat, msg: discord.Message) -> None:
        """Delete a controller, through its last press's token when it still works."""
        token = state.token_for(msg)
        if token is not None:
            interaction = token[0]
            with _unless_refused(state, token):
                if _pressed_on(interaction, msg):
                    await interaction.delete_original_response()
                else:
                    await interaction.followup.delete_message(msg.id)
                return
        await _by_bot(msg).delete()

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
            mine = await self.service.views.private_view(live, seat)
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
                edit["attachments"] = [_png(png)]
            async with state.lock:
                mine_now = message if own else None
                if "attachments" in edit and _already_showing(state, mine_now, ephemeral, picture):
                    del edit["attachments"]  # the outbox showed this picture meanwhile
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
                # noted under the lock: the outbox, racing this answer, looks after taking it
                shown = (content, _ids(view))
                pictured = picture if "attachments" in edit else None
                if ephemeral and self.service.tables.info(live).seats[seat].dm_refused:
                    state.hand = (interaction, time.monotonic())  # it follows their questions
                    state.shown = shown
                    state.picture = pictured or state.picture
                    self._controller(live, seat, resend=False)  # asked again meanwhile?
                # the outbox may have sent a newer controller meanwhile: that one stays
                elif own and message is not None and state.message is current:
                    state.pressed(interaction)
                    state.note = ""
                    if state.pending is False:  # an edit queued before: shown now
                        state.pending = None
                    state.showed(message, deal, pictured, *shown)
        finally:
            state.claimed = False

    async def _dm(
        self,
        live: LiveTable,
        seat: int,
        content: str,
        wanted: Callable[[], bool],
        **kwargs: Any,
    ) -> discord.Message | None:
        """DM the seat's player (the DM channel is cached: no user lookup); a refusal
        (50007) is told once in the channel and remembered, and the bot stops trying. The DM
        is sent only if ``wanted()`` still holds when the bot's request limit lets it go
        (else :class:`~bot.discord_bot.pacing.Unwanted`)."""
        sitting = self.service.tables.info(live).seats[seat]
        user_id = sitting.user_id
        if user_id is None or sitting.dm_refused:
            return None
        try:
            channel = await self.people.dm_channel(user_id)
            with only_if(wanted):
                return await channel.send(content, allowed_mentions=NO_PINGS, **kwargs)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            if await self.service.set_dm_refused(live, seat):
                await self._say(live, "use_hand", {"user": Mention(user_id)})
            return None


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


#: How Discord refuses an interaction's token: ran out (401 "Invalid Webhook Token", or 404),
#: or the user can no longer be written to (403); the bot's own token is tried then
TOKEN_REFUSED = (401, 403, 404)


@contextlib.contextmanager
def _unless_refused(state: Seat, token: Token) -> Iterator[None]:
    """Run a call through ``token``; if Discord refuses the token (:data:`TOKEN_REFUSED`) it
    is forgotten and the block is left, for the bot's own token to do it instead."""
    try:
        yield
    except discord.HTTPException as exc:
        if exc.status not in TOKEN_REFUSED:
            raise
        state.forget(token)


def _message(shown: Shown, data: bytes | None) -> dict[str, Any]:
    """The view and picture (``data``) of a controller sent anew, as ``send``'s keywords."""
    kwargs: dict[str, Any] = {"view": shown.view} if shown.view is not None else {}
    if data is not None:
        kwargs["file"] = _png(data)
    return kwargs


def _png(data: bytes) -> discord.File:
    """A hand picture to attach."""
    return discord.File(io.BytesIO(data), "hand.png")


def _bytes(file: discord.File | None) -> bytes | None:
    """The picture of ``file``, to attach anew to each try: a file discord.py has sent
    is read to its end."""
    return None if file is None else file.fp.getvalue()  # type: ignore[attr-defined]


#: How many times a controller's post or edit is tried in all: waits of
#: :func:`~bot.service.supervise.backoff` between them, 0.25, 0.5 and 1 s
TRIES = 4
#: Seconds after a re-send that failed past its tries before the seat's controller is
#: updated again (it then goes anew), while the seat is asked: the backoff's longest wait
REPAIR_AFTER = MOST

T = TypeVar("T")


def transient(exc: BaseException) -> bool:
    """Whether a request that failed with ``exc`` may go through if made again: Discord's
    5xx (discord.py retries 500, 502 and 504 itself, never 503), a 429 discord.py gave up
    waiting out, a timeout or a broken connection; not another 4xx (403: DMs closed)."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, (TimeoutError, aiohttp.ClientError, OSError))


async def retried(
    attempt: Callable[[], Awaitable[T]],
    wanted: Callable[[], bool],
    tries: int = TRIES,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
) -> T:
    """``attempt()``, made again after a :func:`transient` failure, ``tries`` times at
    most, with the waits of :func:`~bot.service.supervise.backoff` between them; the
    last failure is raised. It is made again only while ``wanted()`` holds, else
    :class:`~bot.discord_bot.pacing.Unwanted` (answered meanwhile: nothing to send)."""
    waits = backoff()
    for _ in range(tries - 1):
        try:
            return await attempt()
        except Exception as exc:
            if not transient(exc):
                raise
            log.info("a controller's request failed (%r): trying again", exc)
        await sleep(next(waits))
        if not wanted():
            raise Unwanted("a controller no longer wanted")
    return await attempt()


def _pressed_on(interaction: discord.Interaction, msg: discord.Message) -> bool:
    """Whether ``msg`` is the message ``interaction`` was made on (else its follow-up)."""
    return interaction.message is not None and interaction.message.id == msg.id


def _by_bot(msg: discord.Message) -> discord.Message | discord.PartialMessage:
    """``msg`` to edit or delete with the bot's token: a follow-up would go through its
    interaction's token, which has run out by then."""
    if isinstance(msg, discord.WebhookMessage):
        return msg.channel.get_partial_message(msg.id)  # type: ignore[union-attr]
    return msg


def _ids(view: discord.ui.View | None) -> tuple[str, ...]:
    """The custom ids of a view's items: what its controls are."""
    if view is None:
        return ()
    return tuple(str(getattr(item, "custom_id", "")) for item in view.children)


def _showing(state: Seat, msg: discord.Message, picture: Picture) -> bool:
    """Whether the seat's DM controller is still ``msg`` and shows ``picture`` (a press's
    answer is a new message object: compared by id)."""
    now = state.message
    return now is not None and now.id == msg.id and state.picture == picture


def _already_showing(
    state: Seat, message: discord.Message | None, ephemeral: bool, picture: Picture
) -> bool:
    """Whether the message a press was made on shows ``picture`` already, as the seat's
    state notes it: its DM controller (``message``, None if the press was not made on it),
    or an ephemeral ``/gouji hand`` controller."""
    if message is not None:
        return _showing(state, message, picture)
    return ephemeral and state.picture == picture


def _ids_of(message: discord.Message) -> bool:
    """Whether a sent message still carries components."""
    return bool(getattr(message, "components", None))
