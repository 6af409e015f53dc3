"""Helpers for the tests of the fake Discord itself: a plain client and raw REST calls."""

from __future__ import annotations

import os
from typing import Any

import aiohttp
import discord

# Real seconds per Discord second in the end-to-end tests: Discord's rate-limit windows (and
# so every Reset-After and retry_after the fake answers) last 1/32 of Discord's, the counts
# per window stay Discord's. A power of two, so that the scaled windows add up exactly.
# GOUJI_E2E_TIME_SCALE=1 runs them all at Discord's real windows (25 minutes of waiting);
# tests/e2e/test_gouji_real_rate_limits.py always keeps the real windows.
TIME_SCALE = float(os.environ.get("GOUJI_E2E_TIME_SCALE", 1 / 32))


def plain_client() -> discord.Client:
    """A discord.py client with unprivileged intents that starts fast."""
    intents = discord.Intents.default()
    intents.members = intents.presences = intents.message_content = False
    return discord.Client(intents=intents, guild_ready_timeout=0.05)


def text_channel(client: discord.Client, channel_id: int) -> discord.TextChannel:
    """The client's text channel ``channel_id`` (an AssertionError when it has no such one)."""
    channel = client.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel), channel
    return channel


async def call(
    http: aiohttp.ClientSession, method: str, path: str, **kwargs: Any
) -> tuple[int, Any]:
    """One REST call; the status and the JSON body (None if the answer is not JSON)."""
    async with http.request(method, path.lstrip("/"), **kwargs) as resp:
        body = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, body
