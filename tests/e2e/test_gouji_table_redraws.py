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
from bot.pictures import views
from tests.fakediscord import BotRunner, FakeDiscord
from tests.fakediscord.model import AttachmentRecord

from .gouji_helpers import bot_factory, next_person


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
    alice = fake.member("alice")
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = cast(GoujiBot, runner.client)
        service = bot.service
        await (await alice.slash("gouji", "new", series=False, turn_time=300)).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        live = service.table_in(fake.channel("gouji").id)
        assert await next_person(fake, bot, live) is not None
        await bot.presenter.drain()
        table_id = service.info(live).message_id
        assert table_id is not None
        table = fake.messages[table_id]

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
