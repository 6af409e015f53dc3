"""Fixtures for end-to-end tests: a running fake Discord with discord.py pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from tests.e2e.fake_helpers import TIME_SCALE, plain_client
from tests.fakediscord import BotRunner, FakeDiscord, running_fake


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord; discord.py's endpoints point at it for the test, then are restored.
    Its rate-limit windows are Discord's scaled by ``TIME_SCALE``.

    A request the fake itself failed on fails the test (its traceback is shown).
    """
    async with running_fake(time_scale=TIME_SCALE) as server:
        yield server
    assert not server.internal_errors, "\n".join(server.internal_errors)


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A plain discord.py client connected to the fake."""
    async with BotRunner(fake, plain_client) as runner:
        yield runner.client


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A raw HTTP session to the fake's API with the bot's token."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(fake.api_base + "/", headers=headers) as session:
        yield session
