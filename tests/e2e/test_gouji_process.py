"""`gouji bot` as a process, configured only by its environment, against the fake Discord."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from bot.discord_bot.endpoints import API_ENV, GATEWAY_ENV
from tests.fakediscord import FakeDiscord


async def test_gouji_bot_runs_from_the_environment_and_answers(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        API_ENV: fake.api_base,
        GATEWAY_ENV: fake.gateway_url,
        "DISCORD_TOKEN": fake.token,
        "GOUJI_DB": str(tmp_path / "gouji.db"),
        "GOUJI_GUILD": str(fake.guild_id),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "bot",
        env=env,
        cwd=Path(__file__).parents[2],
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_for(
            lambda: (
                (fake.commands.commands_in(fake.guild_id) and fake.gateway.sessions)
                or proc.returncode is not None
            ),
            30,
            "the bot to sync its commands and connect",
            poll=0.1,
        )
        assert proc.returncode is None
        (gouji,) = fake.commands.commands_in(fake.guild_id)
        assert gouji["name"] == "gouji" and gouji["name_localizations"]["zh-CN"] == "够级"
        reply = await (await fake.member("bo").slash("gouji", "rules")).original()
        assert reply.ephemeral and "够级" in reply.content
        reply = await (await fake.member("alice").slash("gouji", "new")).original()
        assert not reply.ephemeral and "/gouji join" in reply.content
        assert (tmp_path / "gouji.db").exists()
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    assert b"Traceback" not in err, err.decode()[-2000:]
