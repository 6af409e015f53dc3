"""The table drawn for the viewer (issue 25): a seated player's controller — the DM one, or the
ephemeral answer of ``/gouji hand`` for a player without DMs — has a "牌桌 / Table" button
that answers, only to them, with the table drawn from their seat (at the bottom, marked
"you", 对家 marked, no one's cards); the channel's table message stays the public picture. The
picture is uploaded once per press, never once per turn for every seat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from bot.discord_bot.client import GoujiBot
from bot.pictures import png
from render import theme
from render.models import TableView
from render.table import PLATE_CENTRES, PLATE_H, PLATE_W
from tests.fakediscord import BotRunner, FakeDiscord
from tests.fakediscord.model import AttachmentRecord, MessageRecord

from .gouji_helpers import acted, bot_factory, next_person

ANSWERS = ("nodeclare", "norevolt", "nokeephead", "noburn", "pass", "yield")


def _table_button(msg: MessageRecord, table_id: int) -> str | None:
    for comp in msg.buttons():
        if comp.get("custom_id") == f"gt:{table_id}":
            return f"gt:{table_id}"
    return None


def _opposite_marked(picture: AttachmentRecord) -> int:
    """Pixels of the 对家 tag's colour along the top plate's upper edge (where it sits)."""
    cx, cy = PLATE_CENTRES[3]
    x0, y0 = cx - PLATE_W // 2, cy - PLATE_H // 2
    box = (x0, y0 - 16, x0 + PLATE_W // 2, y0 + 14)
    colour = theme.OPPOSITE
    region = picture.image().convert("RGB").crop(box)
    return sum(
        1
        for px in region.get_flattened_data()
        if all(abs(a - b) <= 12 for a, b in zip(px, colour, strict=True))
    )


def _asking(msg: MessageRecord | None, table_id: int, token: str) -> bool:
    """Whether ``msg`` is a controller asking question ``token``."""
    ids = [c.get("custom_id", "") for c in (msg.buttons() + msg.selects() if msg else [])]
    return any(i.startswith((f"g:{table_id}:{token}:", f"gs:{table_id}:{token}:")) for i in ids)


async def _answer(user: Any, msg: MessageRecord, table_id: int) -> None:
    """Answer the question ``msg`` asks with a "no" button, a pass, or the menu's first play."""
    for comp in msg.buttons():
        cid = comp.get("custom_id", "")
        if cid.startswith(f"g:{table_id}:") and cid.rsplit(":", 1)[1] in ANSWERS:
            await acted(await user.click(msg, cid))
            return
    for menu in msg.selects():
        cid = menu["custom_id"]
        if cid.startswith(f"gs:{table_id}:"):
            values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
            await acted(await user.select(msg, cid, values))
            return
    raise AssertionError(f"no answer on the controller: {msg.buttons()} {msg.selects()}")


async def test_a_seated_player_sees_the_table_from_their_own_seat(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[TableView] = []  # every table picture the bot draws, in order
    original = png.view_png

    def recording(view: TableView, lang: str) -> bytes:
        drawn.append(view)
        return original(view, lang)

    monkeypatch.setattr(png, "view_png", recording)
    uploads: list[tuple[int, str]] = []  # (channel, file name) of every file uploaded
    store = fake.new_attachment

    def counting(channel_id: int, upload: Any, description: str | None) -> AttachmentRecord:
        uploads.append((channel_id, upload.filename))
        return store(channel_id, upload, description)

    monkeypatch.setattr(fake, "new_attachment", counting)

    alice, bo, chen = fake.member("alice"), fake.member("bo"), fake.member("chen")
    bo.refuse_dms()
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        await (await alice.slash("gouji", "new", turn_time=300, burn_time=120)).original()
        await (await bo.slash("gouji", "join")).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        channel = fake.channel("gouji")
        service = bot.service
        assert service is not None
        live = service.tables.table_in(channel.id)
        users = {service.tables.seat_for(live, u.id): u for u in (alice, bo)}
        pressed: dict[str, int] = {}  # who pressed the Table button, and how often
        questions = 0
        while questions < 8 and (seat := await next_person(fake, bot, live)) is not None:
            questions += 1
            user = users[seat]
            token = service.views.question_token(live)
            msg: MessageRecord | None
            if user is bo:  # no DMs: the ephemeral controller of /gouji hand
                msg = await (await bo.slash("gouji", "hand")).original()
            else:

                def asked(u: Any = user, t: str = token) -> bool:
                    return _asking(u.latest_dm(), live.id, t)

                await fake.wait_for(asked, 10, "the controller")
                msg = user.latest_dm()
            assert msg is not None, f"no controller for {user.name}"
            button = _table_button(msg, live.id)
            assert button is not None, "the controller has a Table button"
            if pressed.get(user.name, 0) < 2:
                await bot.presenter.drain()  # the table message redrawn: only the press uploads
                before, drew = len(uploads), len(drawn)
                press = await user.click(msg, button)
                shown = await press.original()

                def pictured(m: MessageRecord = shown) -> bool:
                    return bool(m.attachments)

                await fake.wait_for(pictured, 10, "the picture")
                pressed[user.name] = pressed.get(user.name, 0) + 1
                # only they see it: an ephemeral answer, the picture its only upload
                assert shown.ephemeral and shown.visible_to == user.id
                assert [name for _, name in uploads[before:]] == ["table.png"]
                (view,) = [v for v in drawn[drew:] if v.viewer is not None]
                assert view.viewer == seat and view.bottom_seat == seat, "drawn from their seat"
                assert not view.hands, "no one's cards on it"
                names = [s.name for s in view.seats]
                assert names[seat] == user.name and all(names), "the players are named"
                (picture,) = shown.attachments
                sent = (original(view, "zh"), original(view, "en"))
                assert picture.data in sent, "that picture is the one sent"
                assert _opposite_marked(picture) > 40, "对家 is marked"
                msg = fake.messages[msg.id]
            await _answer(user, msg, live.id)
        await bot.presenter.drain()

        assert pressed == {"alice": 2, "bo": 2}, pressed
        # the channel's table message is the public picture, with no viewer's button
        public = [v for v in drawn if v.viewer is None]
        assert public, "the table message was drawn"
        table_messages = [
            m
            for m in fake.messages_in(channel.id)
            if m.attachments and m.attachments[0].filename == "table.png" and not m.ephemeral
        ]
        assert table_messages and not any(_table_button(m, live.id) for m in table_messages), (
            "spectators keep the public picture"
        )
        assert _opposite_marked(table_messages[-1].attachments[0]) == 0, "public: no 对家 tag"
        assert not chen.ephemerals() and not chen.dms(), "a spectator gets no private picture"
        # the viewer's picture is uploaded once per press, never with a turn's updates
        private = [v for v in drawn if v.viewer is not None]
        assert len(private) == sum(pressed.values())
        dm = alice.dm_channel()
        assert dm is not None
        in_dms = [m for m in fake.messages.values() if m.channel_id == dm.id and m.attachments]
        tables = [m for m in in_dms if m.attachments[0].filename == "table.png"]
        assert len(tables) == pressed["alice"], "no table picture in the DMs but the asked ones"
        assert all(m.interaction_id is not None for m in tables)
