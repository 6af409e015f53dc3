"""Issue 25, "a hand picture reused while the hand has not changed", through the real bot
against the fake Discord, counting the hand pictures uploaded and the requests made: an edit
of a controller whose hand is unchanged carries no file (Discord keeps the message's
attachment); the ``/gouji hand`` answer that follows a player without DMs keeps the picture
it was sent with; and when a press's answer and the outbox race to show the same new hand,
only one of them uploads it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from bot.discord_bot.client import GoujiBot
from bot.pictures import png as pictures
from bot.service.live import LiveTable
from bot.text.catalog import lang_of
from tests.fakediscord import BotRunner, FakeDiscord, MessageRecord, SimUser
from tests.fakediscord.model import AttachmentRecord, MessageVersion, walk_components

from .gouji_helpers import acted, bot_factory, next_person

NO = ("nodeclare", "norevolt", "nokeephead", "noburn")


class Uploads:
    """The hand pictures uploaded, by channel (the fake stores each upload as a new
    attachment: one kept by an edit is not counted again)."""

    def __init__(self, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_channel: dict[int, int] = {}
        store = fake.new_attachment

        def counting(channel_id: int, upload: Any, description: str | None) -> AttachmentRecord:
            if upload.filename == "hand.png":
                self.by_channel[channel_id] = self.by_channel.get(channel_id, 0) + 1
            return store(channel_id, upload, description)

        monkeypatch.setattr(fake, "new_attachment", counting)

    def of(self, channel_id: int) -> int:
        return self.by_channel.get(channel_id, 0)


class GatedDraw:
    """The bot's drawer, with one picture held back until ``until()`` holds: a press's
    answer's (``await draw(...)``) with ``press``, else the outbox's (``draw.background``).
    Armed by :meth:`arm`, once."""

    def __init__(self, draw: Any, fake: FakeDiscord) -> None:
        self.draw, self.fake = draw, fake
        self.armed: tuple[bool, Callable[[], bool]] | None = None
        self.held = 0  # pictures held back

    def arm(self, press: bool, until: Callable[[], bool]) -> None:
        self.armed = (press, until)

    async def _maybe_hold(self, press: bool) -> None:
        if self.armed is not None and self.armed[0] == press:
            _, until = self.armed
            self.armed = None
            self.held += 1
            await self.fake.wait_for(until, 10, "the other side of the race")

    async def __call__(self, fn: Callable[..., bytes], *args: Any) -> bytes:
        await self._maybe_hold(press=True)
        return cast(bytes, await self.draw(fn, *args))

    async def background(self, fn: Callable[..., bytes], *args: Any) -> bytes:
        await self._maybe_hold(press=False)
        return cast(bytes, await self.draw.background(fn, *args))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.draw, name)


def _cid(msg: MessageRecord, table_id: int, token: str, verbs: tuple[str, ...]) -> str | None:
    for button in msg.buttons():
        cid = str(button.get("custom_id", ""))
        if cid.startswith(f"g:{table_id}:{token}:") and cid.rsplit(":", 1)[1] in verbs:
            return cid
    return None


def _asks(msg: MessageRecord | None, table_id: int, token: str) -> bool:
    ids = [c.get("custom_id", "") for c in (msg.buttons() + msg.selects() if msg else [])]
    return any(i.startswith((f"g:{table_id}:{token}:", f"gs:{table_id}:{token}:")) for i in ids)


def _picture(msg: MessageRecord | MessageVersion) -> AttachmentRecord | None:
    return next((a for a in msg.attachments if a.filename == "hand.png"), None)


async def _alone_with_ai(fake: FakeDiscord, user: SimUser, bot: GoujiBot) -> LiveTable:
    """``user``'s single game with five AI seats, started (and the bot aware of closed
    DMs)."""
    await (await user.slash("gouji", "new", series=False, turn_time=300)).original()
    await (await user.slash("gouji", "ai", "add")).original()
    await (await user.slash("gouji", "start")).original()
    service = bot.service
    live = service.tables.table_in(fake.channel("gouji").id)
    seat = service.tables.seat_for(live, user.id)
    if user.user.refuses_dms:  # the bot learns it from its first DM (then it tells the channel)
        await fake.wait_for(
            lambda: service.tables.info(live).seats[seat].dm_refused, 10, "a refusal"
        )
    return live


async def _answer(user: SimUser, msg: MessageRecord, live: LiveTable, token: str) -> str:
    """Answer the question on controller ``msg`` without changing the hand where the rules
    let: "no" to a question, a pass, else the hint played; the verb used."""
    cid = _cid(msg, live.id, token, NO) or _cid(msg, live.id, token, ("pass",))
    cid = cid or _cid(msg, live.id, token, ("playhint",))
    if cid is None:
        for menu in msg.selects():  # the return menu: its first cards
            if menu["custom_id"].startswith(f"gs:{live.id}:{token}:"):
                values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
                await acted(await user.select(msg, menu["custom_id"], values))
                return "return"
        raise AssertionError(f"no answer on the controller: {msg.buttons()}")
    await acted(await user.click(msg, cid))
    return cid.rsplit(":", 1)[1]


async def test_a_controller_edited_while_the_hand_is_unchanged_carries_no_picture(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice answers her questions with typed commands, so the outbox edits her DM
    controller with the bot's token: an edit whose hand is unchanged (a pass, a "no")
    sends no file and the controller keeps the picture it has; one upload per hand."""
    uploads = Uploads(fake, monkeypatch)
    alice = fake.member("alice")
    # the AI seats think a moment: her typed pass is shown before her next question comes
    factory = bot_factory(fake, tmp_path / "gouji.db", ai_delay=0.1)
    async with BotRunner(fake, factory) as runner:
        bot = cast(GoujiBot, runner.client)
        service = bot.service
        live = await _alone_with_ai(fake, alice, bot)
        seat = service.tables.seat_for(live, alice.id)
        kept = 0  # edits of an unchanged hand that kept the controller's picture
        while kept < 2 and await next_person(fake, bot, live) is not None:
            token = service.views.question_token(live)
            await fake.wait_for(lambda t=token: _asks(alice.latest_dm(), live.id, t), 10, "a DM")
            msg = cast(MessageRecord, alice.latest_dm())
            if _cid(msg, live.id, token, ("pass",)) is None:
                await _answer(alice, msg, live, token)  # the hand may change: pressed
                continue
            await bot.presenter.drain()
            before, picture = uploads.of(msg.channel_id), _picture(msg)
            edits = len(fake.messages[msg.id].history)
            await (await alice.slash("gouji", "pass")).original()  # typed: the outbox edits
            await bot.presenter.drain()
            now = fake.messages[msg.id]
            if now.deleted or len(now.history) == edits:
                continue  # asked again at once (a new DM), or nothing to edit
            kept += 1
            assert uploads.of(msg.channel_id) == before, "no upload for an unchanged hand"
            assert picture is not None and _picture(now) == picture, "it keeps its picture"
            assert _picture(now).data == pictures.hand_png(  # type: ignore[union-attr]
                service.views.hand_cards(live, seat), lang_of(alice.locale)
            )
        assert kept == 2, "two typed passes edited the controller"
        # the fake keeps attachments as Discord does: an edit without them keeps them,
        # ``attachments=[]`` (discord.py) removes them
        msg = cast(MessageRecord, alice.latest_dm(with_attachment=True))
        partial = bot.get_partial_messageable(msg.channel_id).get_partial_message(msg.id)
        await partial.edit(content="kept")
        assert fake.messages[msg.id].attachments == msg.attachments
        await partial.edit(attachments=[])
        assert fake.messages[msg.id].attachments == []


async def test_gouji_hand_answer_keeps_its_picture_while_it_follows_the_player(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bo has no DMs: his ``/gouji hand`` answer follows his questions, edited through its
    interaction token. It is uploaded a hand picture only when his hand changed — not again
    for the hand the command showed — and the picture is always his hand now."""
    uploads = Uploads(fake, monkeypatch)
    bo = fake.member("bo")
    bo.refuse_dms()
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        service = bot.service
        live = await _alone_with_ai(fake, bo, bot)
        seat = service.tables.seat_for(live, bo.id)
        channel = fake.channel("gouji").id
        followed: MessageRecord | None = None
        hands: list[str] = []  # his hands as they came, each one once
        unchanged = 0  # questions answered without changing his hand
        while len(hands) < 6 and await next_person(fake, bot, live) is not None:
            token = service.views.question_token(live)
            if followed is None:
                followed = await (await bo.slash("gouji", "hand")).original()
            shown = followed.id

            def follows(h: int = shown, t: str = token) -> bool:
                return _asks(fake.messages[h], live.id, t)

            await fake.wait_for(follows, 10, "his controller following him")
            msg = fake.messages[shown]
            cards = service.views.hand_cards(live, seat)
            if not hands or hands[-1] != cards:
                hands.append(cards)
            else:
                unchanged += 1
            seen = _picture(msg)
            assert seen is not None and seen.data == pictures.hand_png(cards, lang_of(bo.locale))
            await _answer(bo, msg, live, token)
        await bot.presenter.drain()
        assert unchanged >= 2, "some questions came with his hand unchanged"
        assert uploads.of(channel) <= len(hands), (uploads.of(channel), len(hands))


async def _race(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, press_first: bool
) -> None:
    """Bo (no DMs) plays from his ``/gouji hand`` answer: the press's answer and the
    outbox's edit that follows him both show his new hand; one of them is held back until
    the other has shown it. One upload for the new hand, and it is the hand he has."""
    uploads = Uploads(fake, monkeypatch)
    bo = fake.member("bo")
    bo.refuse_dms()
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        service = bot.service
        gate = GatedDraw(bot.presenter.draw, fake)
        bot.presenter.draw = gate  # type: ignore[assignment]
        live = await _alone_with_ai(fake, bo, bot)
        seat = service.tables.seat_for(live, bo.id)
        channel = fake.channel("gouji").id
        followed = None
        while (await next_person(fake, bot, live)) is not None:
            token = service.views.question_token(live)
            if followed is None:
                followed = await (await bo.slash("gouji", "hand")).original()
            shown = followed.id

            def follows(h: int = shown, t: str = token) -> bool:
                return _asks(fake.messages[h], live.id, t)

            await fake.wait_for(follows, 10, "his controller following him")
            msg = fake.messages[shown]
            cid = _cid(msg, live.id, token, ("playhint",))
            if cid is None:
                await _answer(bo, msg, live, token)
                continue
            await bot.presenter.drain()
            before, old = uploads.of(channel), _picture(msg)
            edits = len(msg.history)

            def edited_by_press(h: int = shown) -> bool:
                return "✅" in fake.messages[h].content

            def pictured_by_outbox(h: int = shown, n: int = edits, p: Any = old) -> bool:
                now = fake.messages[h]
                return len(now.history) > n and _picture(now) != p

            gate.arm(
                press=not press_first, until=edited_by_press if press_first else pictured_by_outbox
            )
            sent = len(fake.requests)
            await acted(await bo.click(msg, cid))
            await bot.presenter.drain()
            break
        assert gate.held == 1, "the race was run"
        cards = service.views.hand_cards(live, seat)
        now = _picture(fake.messages[shown])
        assert now is not None and now.data == pictures.hand_png(cards, lang_of(bo.locale))
        assert uploads.of(channel) == before + 1, "one upload for the new hand"
        failed = [(r.method, r.route, r.status) for r in fake.requests[sent:] if r.status >= 400]
        assert not failed


async def test_a_press_answered_before_the_outbox_shows_the_new_hand_uploads_it_once(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _race(fake, tmp_path, monkeypatch, press_first=True)


async def test_the_outbox_showing_the_new_hand_before_a_press_is_answered_uploads_it_once(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _race(fake, tmp_path, monkeypatch, press_first=False)


def _controllers(fake: FakeDiscord, user: SimUser) -> list[MessageRecord]:
    """Every DM the bot sent ``user`` with controls, deleted ones too, oldest first."""
    channel = user.dm_channel()
    found = [m for m in fake.messages.values() if channel and m.channel_id == channel.id]
    return sorted((m for m in found if m.buttons() or m.history), key=lambda m: m.created_at)


async def _held_first_picture(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, end: bool
) -> None:
    """Alice's first controller with its hand picture held back in the drawing process (as
    a new deal at many tables does): with ``picture_wait`` 0 it goes at once, controls and
    no picture; once the picture is drawn, one edit adds it — no second DM, one upload — or,
    with ``end``, the table ended meanwhile and nothing but the spent controls follows."""
    uploads = Uploads(fake, monkeypatch)
    alice = fake.member("alice")
    # the AI seats wait long: nothing but the held picture changes her controller
    factory = bot_factory(fake, tmp_path / "gouji.db", picture_wait=0.0, ai_delay=60.0)
    async with BotRunner(fake, factory) as runner:
        bot = cast(GoujiBot, runner.client)
        gate = GatedDraw(bot.presenter.draw, fake)
        bot.presenter.draw = gate  # type: ignore[assignment]
        ended = False

        def sent_without_picture() -> bool:
            sent = _controllers(fake, alice)
            return bool(sent) and _picture(sent[0]) is None and (ended or not end)

        gate.arm(press=False, until=sent_without_picture)
        live = await _alone_with_ai(fake, alice, bot)
        await fake.wait_for(lambda: bool(_controllers(fake, alice)), 10, "her controller")
        if end:
            await (await alice.slash("gouji", "end")).original()
            ended = True
        await bot.presenter.drain()
        assert gate.held == 1, "the picture was held back"
        (first,) = _controllers(fake, alice)  # no second DM
        sent = first.history[0] if first.history else first.snapshot()
        assert _picture(sent) is None, "sent without waiting for its picture"
        assert any("custom_id" in c for c in walk_components(sent.components)), "with controls"
        pictured = [_picture(v) is not None for v in [*first.history, first.snapshot()]]
        if end:
            assert not any(pictured) and uploads.of(first.channel_id) == 0, "none after the end"
            assert not first.buttons(), "its controls spent"
            return
        seat = bot.service.tables.seat_for(live, alice.id)
        picture = _picture(first)
        assert picture is not None and picture.data == pictures.hand_png(
            bot.service.views.hand_cards(live, seat), lang_of(alice.locale)
        )
        # one edit added it and none took it away; the clock's line, set just after the deal,
        # may be edited in before or after it
        assert pictured == sorted(pictured) and pictured[-1], "one edit added it, and it stays"
        assert uploads.of(first.channel_id) == 1


async def test_a_dm_does_not_wait_for_a_slow_hand_picture_and_one_edit_adds_it(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _held_first_picture(fake, tmp_path, monkeypatch, end=False)


async def test_a_slow_hand_picture_is_not_added_once_the_table_has_ended(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _held_first_picture(fake, tmp_path, monkeypatch, end=True)
