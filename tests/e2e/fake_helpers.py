"""Helpers for the tests of the fake Discord itself: a plain client and raw REST calls."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord


def plain_client() -> discord.Client:
    """A discord.py client with unprivileged intents that starts fast."""
    intents = discord.Intents.default()
    intents.members = intents.presences = intents.message_content = False
    return discord.Client(intents=intents, guild_ready_timeout=0.05)


async def call(
    http: aiohttp.ClientSession, method: str, path: str, **kwargs: Any
) -> tuple[int, Any]:
    """One REST call; the status and the JSON body (None if the answer is not JSON)."""
    async with http.request(method, path.lstrip("/"), **kwargs) as resp:
        body = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, body
