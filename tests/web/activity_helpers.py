"""The bot against the fake Discord with the web table and the Discord Activity configured:
shared by the tests of the Activity's sign-in and of its launch button."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.web.activity import ActivityKeys
from tests.fakediscord import FakeDiscord, running_fake
from tests.web.helpers import bot_beside_web


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
    async with running_fake() as fake:
        keys = ActivityKeys(
            fake.application_id,
            secret or fake.activities.client_secret,
            fake.token,
            fake.api_base,
        )
        async with (
            bot_beside_web(
                fake, tmp_path / "gouji.db", keys=keys if activity else None, activity=activity
            ) as (bot, url),
            aiohttp.ClientSession() as http,
        ):
            alice, bo = fake.member("alice"), fake.member("bo")
            await (await alice.slash("gouji", "new", series=False)).original()
            await (await bo.slash("gouji", "join")).original()
            instance_id = ""
            if launched:
                instance_id = fake.activities.launch(fake.channel("gouji").id, alice.id).instance_id
            yield Served(fake, bot, url, http, instance_id)
        assert not fake.internal_errors, fake.internal_errors
