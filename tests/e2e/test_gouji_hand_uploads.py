"""Issue 25, "a hand picture reused while the hand has not changed": over a series, a player
is uploaded a hand picture only when their hand changed (and the first time) — on the DM
controller, re-sent with each question, and on the ephemeral ``/gouji hand`` controller of a
player without DMs, edited through its interaction token — and the picture they see is always
their current hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from bot.discord_bot.client import GoujiBot
from bot.pictures import png as pictures
from bot.service.presenter import Listener
from bot.text.catalog import lang_of
from tests.fakediscord import BotRunner, FakeDiscord, MessageRecord
from tests.fakediscord.model import AttachmentRecord

from .gouji_helpers import acted, bot_factory, next_person

NO = ("nodeclare", "norevolt", "nokeephead", "noburn", "playhint")


@dataclass
class Hands(Listener):
    """Each seat's hands as they came (a new entry each time the cards differ)."""

    service: Any
    seats: tuple[int, ...]
    seen: dict[int, list[str]] = field(default_factory=dict)

    def _sample(self, live: Any) -> None:
        for seat in self.seats:
            cards = self.service.hand_cards(live, seat)
            hands = self.seen.setdefault(seat, [])
            if cards and (not hands or hands[-1] != cards):
                hands.append(cards)

    def table_changed(self, live: Any) -> None:
        self._sample(live)

    def hand_changed(self, live: Any, seat: int) -> None:
        self._sample(live)

    def prompt(self, live: Any, seat: int, kind: str) -> None:
        self._sample(live)


def _asking(msg: MessageRecord | None, table_id: int, token: str) -> bool:
    ids = [c.get("custom_id", "") for c in (msg.buttons() + msg.selects() if msg else [])]
    return any(i.startswith((f"g:{table_id}:{token}:", f"gs:{table_id}:{token}:")) for i in ids)


async def _answer(user: Any, msg: MessageRecord, table_id: int, token: str) -> None:
    """A "no", the hint played, or the return menu's first cards."""
    for menu in msg.selects():
        if menu["custom_id"].startswith(f"gs:{table_id}:{token}:") and menu["custom_id"].endswith(
            ":return"
        ):
            values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
            await acted(await user.select(msg, menu["custom_id"], values))
            return
    for button in msg.buttons():
        cid = button.get("custom_id", "")
        if cid.startswith(f"g:{table_id}:{token}:") and cid.rsplit(":", 1)[1] in NO:
            await acted(await user.click(msg, cid))
            return
    raise AssertionError(f"no answer on the controller: {msg.buttons()} {msg.selects()}")


def _seen_picture(user: Any, hand: MessageRecord | None) -> AttachmentRecord | None:
    """The hand picture the player sees: the newest in their DMs, or on their controller."""
    if hand is not None:
        return next((a for a in hand.attachments if a.filename == "hand.png"), None)
    for msg in reversed(user.dms()):
        for a in msg.attachments:
            if a.filename == "hand.png":
                return cast(AttachmentRecord, a)
    return None


async def test_a_hand_picture_is_uploaded_only_when_the_hand_changed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    uploads: dict[int, int] = {}  # channel id -> hand pictures uploaded there
    store = fake.new_attachment

    def counting(channel_id: int, upload: Any, description: str | None) -> AttachmentRecord:
        if upload.filename == "hand.png":
            uploads[channel_id] = uploads.get(channel_id, 0) + 1
        return store(channel_id, upload, description)

    fake.new_attachment = counting  # type: ignore[method-assign]
    alice, bo = fake.member("alice"), fake.member("bo")
    bo.refuse_dms()
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        service = bot.service
        assert service is not None
        await (await alice.slash("gouji", "new", turn_time=300, burn_time=120)).original()
        await (await bo.slash("gouji", "join")).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        live = service.table_in(fake.channel("gouji").id)
        hands = Hands(service, (0, 1))
        service.listen(hands)
        await (await alice.slash("gouji", "start")).original()  # a five-game series
        users = {service.seat_for(live, u.id): u for u in (alice, bo)}
        followed: MessageRecord | None = None  # bo's /gouji hand answer, which follows him
        questions = {0: 0, 1: 0}
        while (seat := await next_person(fake, bot, live)) is not None:
            questions[seat] += 1
            user, token = users[seat], service.question_token(live)
            if user is bo:
                if followed is None:
                    followed = await (await bo.slash("gouji", "hand")).original()
                shown_id = followed.id

                def follows(h: int = shown_id, t: str = token) -> bool:
                    return _asking(fake.messages[h], live.id, t)

                await fake.wait_for(follows, 10, "the controller following bo")
                msg = fake.messages[shown_id]
            else:

                def asks(u: Any = user, t: str = token) -> bool:
                    return _asking(u.latest_dm(), live.id, t)

                await fake.wait_for(asks, 10, "the DM controller")
                msg = cast(MessageRecord, user.latest_dm())
            # the picture they see is their hand now
            seen = _seen_picture(user, msg if user is bo else None)
            assert seen is not None, f"{user.name} sees no hand picture"
            cards = service.hand_cards(live, seat)
            assert seen.data == pictures.hand_png(cards, lang_of(user.locale)), user.name
            await _answer(user, msg, live.id, token)
        await bot.presenter.drain()

    dm = fake.dm_channels[alice.id].id
    guild = fake.channel("gouji").id
    got = {"alice": uploads.get(dm, 0), "bo": uploads.get(guild, 0)}
    changes = {"alice": len(hands.seen[0]), "bo": len(hands.seen[1])}
    print("questions", questions, "uploads", got, "hands", changes)
    assert questions[0] > 10 and questions[1] > 10
    assert got["alice"] <= changes["alice"], (got, changes)
    assert got["bo"] <= changes["bo"], (got, changes)
