"""Issue 25, requests per action: the table message is redrawn only when what it shows
changed — a redraw that would show the same text and picture sends nothing, one whose
picture is unchanged edits the text alone (no upload) — through the real bot against the
fake Discord, counting the requests on the table message and the pictures uploaded."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.discord_bot.client import GoujiBot
from bot.discord_bot.table_message import BUSY_WAITS
from bot.pictures import views
from bot.service.live import LiveTable
from tests.fakediscord import BotRunner, FakeDiscord
from tests.fakediscord.model import AttachmentRecord, MessageRecord

from .gouji_helpers import bot_factory, next_person


async def alice_alone_with_ai(fake: FakeDiscord, bot: GoujiBot) -> tuple[LiveTable, MessageRecord]:
    """A one-game table of alice and five AI seats, her turn asked, its table message shown."""
    alice = fake.member("alice")
    await (await alice.slash("gouji", "new", series=False, turn_time=300)).original()
    await (await alice.slash("gouji", "ai", "add")).original()
    await (await alice.slash("gouji", "start")).original()
    live = bot.service.tables.table_in(fake.channel("gouji").id)
    assert await next_person(fake, bot, live) is not None
    await bot.presenter.drain()
    table_id = bot.service.tables.info(live).message_id
    assert table_id is not None
    return live, fake.messages[table_id]


async def test_a_redraw_that_changes_nothing_seen_sends_nothing(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uploads: list[str] = []
    store = fake.new_attachment

    def counting(channel_id: int, upload: Any, description: str | None) -> AttachmentRecord:
        uploads.append(upload.filename)
        return store(channel_id, upload, description)

    monkeypatch.setattr(fake, "new_attachment", counting)
    # the picture shows the turn clock's seconds left when drawn: let them stand still
    frozen = time.time()
    monkeypatch.setattr(views, "time", SimpleNamespace(time=lambda: frozen))
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        live, table = await alice_alone_with_ai(fake, bot)
        table_id = table.id

        def on_table() -> list[tuple[str, str]]:
            return [(r.method, r.path) for r in fake.requests if f"/messages/{table_id}" in r.path]

        before, uploaded, edits = len(on_table()), len(uploads), len(table.history)
        for _ in range(2):  # the service's "the table changed", with nothing new to show
            bot.presenter.table_changed(live)
            await bot.presenter.drain()
        assert len(on_table()) == before, "no request for a redraw that changes nothing"
        assert len(uploads) == uploaded and len(table.history) == edits

        picture = table.attachments
        bot.presenter._box(live).log.append("a new line in the log")  # the text alone changes
        bot.presenter.table_changed(live)
        await bot.presenter.drain()
        assert len(on_table()) == before + 1, "one edit"
        assert "a new line in the log" in table.content
        assert table.attachments == picture and len(uploads) == uploaded, "its picture kept"


async def test_near_discords_limit_a_table_redraw_waits_a_few_intervals_then_goes(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the bot's requests are near Discord's global limit (its pace busy), a table
    redraw waits another interval, so that the questions' DMs go first: it goes at the first
    interval the pace has room, and after ``BUSY_WAITS`` more at the latest."""
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        presenter = bot.presenter
        live, table = await alice_alone_with_ai(fake, bot)
        box = presenter._box(live)
        asked, seen = list[bool](), list[tuple[int, bool]]()

        def busy_twice() -> bool:  # busy at the first two intervals, then room
            seen.append((len(table.history), box.refresh_pending))
            asked.append(len(asked) < 2)
            return asked[-1]

        monkeypatch.setattr(presenter, "busy", busy_twice)
        edits = len(table.history)
        box.log.append("a line while busy")
        presenter.table_changed(live)
        await presenter.drain()
        assert asked == [True, True, False]
        assert seen == [(edits, True)] * 3, "the redraw waited"
        assert len(table.history) == edits + 1 and "a line while busy" in table.content

        def always_busy() -> bool:
            asked.append(True)
            return True

        monkeypatch.setattr(presenter, "busy", always_busy)
        asked[:] = []
        box.log.append("a line while always busy")
        presenter.table_changed(live)
        await presenter.drain()
        assert asked == [True] * BUSY_WAITS, "then it goes: nothing waits for ever"
        assert len(table.history) == edits + 2 and "a line while always busy" in table.content


async def test_a_table_that_ends_while_its_redraw_waits_shows_how_it_ended(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """``/gouji end`` while the table message's redraw waits out its interval: the redraw
    goes at once, so that the message no longer says whose turn it is nor runs a clock."""
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        presenter = bot.presenter
        live, table = await alice_alone_with_ai(fake, bot)
        box = presenter._box(live)
        assert "<t:" in table.content, "a turn and its clock"
        presenter.refresh_interval = 30.0
        box.log.append("the last line before the end")
        presenter.table_changed(live)
        assert box.redraw is not None, "the redraw waits its 30 s"
        await (await fake.member("alice").slash("gouji", "end")).original()
        await presenter.drain()
        assert "the last line before the end" in table.content
        assert "<t:" not in table.content, "no clock on an ended table"
        assert live.id not in presenter.outboxes
