"""Two `gouji bot` processes, shards 0 and 1 of 2, sharing one PostgreSQL database and one
fake Discord with a server on each shard.

In each server a table is opened, filled with AI seats and started; its creator leaves, so
the AI plays the game out (a short AI delay keeps it to seconds). Mid-game the process of
shard 0 is killed with SIGKILL: every action it had committed stays in the log, the other
process plays on meanwhile, and the restarted process takes its table back (its claim, same
owner name) and plays it to the end. Each process serves only the table of its shard.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord_bot.endpoints import API_ENV, GATEWAY_ENV
from data.connect import connect
from tests.e2e.fake_helpers import TIME_SCALE
from tests.fakediscord import FakeDiscord, running_fake
from tests.pgserver import PgServer

ROOT = Path(__file__).parents[2]
CHANNELS = ("zero-tables", "one-tables")  # a server on shard 0, a server on shard 1


class Shard:
    """One `gouji bot` process running one shard of two."""

    def __init__(self, fake: FakeDiscord, url: str, shard: int, log: Path) -> None:
        self.env = {
            **os.environ,
            API_ENV: fake.api_base,
            GATEWAY_ENV: fake.gateway_url,
            "DISCORD_TOKEN": fake.token,
            "GOUJI_DATABASE_URL": url,
            "GOUJI_SHARD_COUNT": "2",
            "GOUJI_SHARDS": str(shard),
            "GOUJI_AI_DELAY": "0.02",
            "GOUJI_DRAW_PROCESSES": "0",
            # the killed process's table waits out its claim before the restarted one takes
            # it: 6 s instead of the default 30 (renewed every 2 s, still far above a stall)
            "GOUJI_CLAIM_LEASE": "6",
        }
        self.fake, self.shard, self.log = fake, shard, log
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        sessions = len(self.fake.gateway.sessions)
        with self.log.open("ab") as err:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.cli",
                "bot",
                env=self.env,
                cwd=ROOT,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=err,
            )
        proc = self.proc
        await self.fake.wait_for(
            lambda: (
                proc.returncode is not None
                or len(self.fake.gateway.sessions) > sessions
                and self.shard in self.fake.gateway.by_shard
                and self.fake.commands.commands_in(None)
            ),
            60,
            f"shard {self.shard} to connect",
            poll=0.1,
        )
        assert proc.returncode is None, self.log.read_text()[-3000:]

    async def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(sig)
            await asyncio.wait_for(self.proc.wait(), 30)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord with a server on each of two shards."""
    async with running_fake(recommended_shards=2, time_scale=TIME_SCALE) as server:
        for shard, channel in enumerate(CHANNELS):
            server.add_guild(f"Shard {shard}", [channel], shard=(shard, 2))
        yield server
    assert not server.internal_errors, "\n".join(server.internal_errors)


async def game_log(url: str, channel_id: int) -> tuple[str | None, list[str], str | None]:
    """The table's game in the shared database: its status, its actions, the table's owner."""
    db = await connect(url)
    try:
        async with db.guard():
            rows = await db.fetch(
                "SELECT g.id, g.status, t.owner FROM games g JOIN series s ON g.series_id = s.id "
                "JOIN tables t ON s.table_id = t.id WHERE t.channel_id = ? ORDER BY g.id",
                (channel_id,),
            )
            if not rows:
                return None, [], None
            game_id, status, owner = rows[-1]
            actions = await db.fetch(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
            )
    finally:
        await db.close()
    return status, [a[0] for a in actions], owner


async def wait_log(url: str, channel_id: int, ready, what: str, timeout: float = 90):
    """Poll the database until ``ready(status, actions, owner)``; that state."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        state = await game_log(url, channel_id)
        if ready(*state):
            return state
        if loop.time() > end:
            raise AssertionError(
                f"gave up waiting for {what}; last state {state[0]}, "
                f"{len(state[1])} actions, owner {state[2]}"
            )
        await asyncio.sleep(0.1)


async def test_two_shard_processes_play_and_one_survives_a_kill(
    fake: FakeDiscord, pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.new_schema_url("shards")
    shards = [Shard(fake, url, i, tmp_path / f"shard{i}.log") for i in (0, 1)]
    alice = fake.member("alice")
    channels = [fake.channel(name).id for name in CHANNELS]
    try:
        for shard in shards:
            await shard.start()
        for name in CHANNELS:
            reply = await (await alice.slash("gouji", "new", channel=name, series=False)).original()
            assert "/gouji join" in reply.content, reply.content
            await (await alice.slash("gouji", "ai", "add", channel=name)).original()
            await (await alice.slash("gouji", "start", channel=name)).original()
            await (await alice.slash("gouji", "leave", channel=name)).original()
        for number, channel in enumerate(channels):
            _, _, owner = await wait_log(url, channel, lambda s, a, o: len(a) >= 5, "play")
            # each table claimed by its shard's process, under a name of that process alone
            assert owner.startswith(f"shards {number} of 2 @ "), owner

        await shards[0].stop(signal.SIGKILL)
        _, committed, _ = await game_log(url, channels[0])
        _, other_before, _ = await game_log(url, channels[1])
        assert committed, "the game of shard 0 had begun"
        # the other process plays on while shard 0 is down
        await wait_log(
            url,
            channels[1],
            lambda s, a, o: s == "finished" or len(a) >= len(other_before) + 10,
            "shard 1 to play on",
        )
        assert (await game_log(url, channels[0]))[1] == committed  # nobody touched it

        await shards[0].start()
        for channel in channels:
            status, actions, _ = await wait_log(
                url, channel, lambda s, a, o: s == "finished", "the game to finish", 120
            )
        status, actions, _ = await game_log(url, channels[0])
        assert status == "finished" and actions[: len(committed)] == committed
        assert len(actions) > len(committed)  # the restarted process played it on
    finally:
        for shard in shards:
            await shard.stop()
    for shard in shards:
        log = shard.log.read_text()
        assert "Traceback" not in log, log[-3000:]
        assert f"released 1 table claims of shards {shard.shard} of 2" in log
    for channel in channels:  # a clean stop (SIGTERM) gave the claims up
        assert (await game_log(url, channel))[2] is None
