"""The bot against the fake Discord with the web table and the Discord Activity configured:
shared by the tests of the Activity's sign-in and of its launch button."""

from __future__ import annotations

import json
import random
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.service.config import BotConfig
from bot.web.activity import ActivityKeys
from bot.web.app import BesideBot
from tests.e2e.gouji_helpers import FastGoujiBot
from tests.fakediscord import BotRunner, FakeDiscord, running_fake


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """The fake Discord, the bot and its web server's address, a table in #gouji where
    alice and bo sit, and an activity instance there that alice started."""

    fake: FakeDiscord
    bot: Any
    url: str
    http: aiohttp.ClientSession
    instance_id: str

    async def post(self, path: str, body: Any, **kwargs: Any) -> tuple[int, Any]:
        async with self.http.post(self.url + path, json=body, **kwargs) as answer:
            return answer.status, await answer.json()

    async def token_of(self, name: str) -> str:
        """``name`` consents in Discord; the Activity trades the code for a token."""
        code = self.fake.activities.authorize(self.fake.member(name).id)
        status, body = await self.post("/.proxy/api/token", {"code": code})
        assert status == 200, body
        return str(body["access_token"])

    async def hello(self, ticket: str) -> dict[str, Any]:
        """The first frame of a socket opened with ``ticket`` (through the proxy path)."""
        async with self.http.ws_connect(f"{self.url}/.proxy/ws?t={ticket}") as ws:
            return dict(json.loads((await ws.receive()).data))


@asynccontextmanager
async def served(
    tmp_path: Path, *, secret: str | None = None, activity: bool = True, launched: bool = True
) -> AsyncIterator[Served]:
    """The bot with the Activity's keys (``secret``: another client secret; ``activity``
    False: not configured); alice opened a table in #gouji, bo sat down, and (``launched``)
    alice started the Activity there."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    async with running_fake() as fake:
        config = BotConfig(
            token=fake.token,
            db_path=str(tmp_path / "gouji.db"),
            guild_id=fake.guild_id,
            ai_delay=0.0,
            refresh_interval=0.05,
            warn_before=0.0,
            web_url=url,
            activity=activity,
        )
        keys = ActivityKeys(
            fake.application_id,
            secret or fake.activities.client_secret,
            fake.token,
            fake.api_base,
        )

        def make() -> FastGoujiBot:
            web = BesideBot(url, "127.0.0.1", port, activity=keys if activity else None)
            return FastGoujiBot(config, rng=random.Random(5), guild_ready_timeout=0.05, web=web)

        async with BotRunner(fake, make) as runner, aiohttp.ClientSession() as http:
            alice, bo = fake.member("alice"), fake.member("bo")
            await (await alice.slash("gouji", "new", series=False)).original()
            await (await bo.slash("gouji", "join")).original()
            instance_id = ""
            if launched:
                instance_id = fake.activities.launch(fake.channel("gouji").id, alice.id).instance_id
            yield Served(fake, runner.client, url, http, instance_id)
        assert not fake.internal_errors, fake.internal_errors
