"""`gouji bot` as a process, configured only by its environment, against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.gouji_helpers import gouji_process
from tests.fakediscord import FakeDiscord


async def test_gouji_bot_runs_from_the_environment_and_answers(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with gouji_process(fake, tmp_path / "gouji.db"):
        (gouji,) = fake.commands.commands_in(fake.guild_id)
        assert gouji["name"] == "gouji" and gouji["name_localizations"]["zh-CN"] == "够级"
        reply = await (await fake.member("bo").slash("gouji", "rules")).original()
        assert reply.ephemeral and "够级" in reply.content
        reply = await (await fake.member("alice").slash("gouji", "new")).original()
        assert not reply.ephemeral and "/gouji join" in reply.content
        assert (tmp_path / "gouji.db").exists()
