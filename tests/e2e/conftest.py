"""Fixtures for end-to-end tests: a running fake Discord with discord.py pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord import FakeDiscord, running_fake


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord; discord.py's endpoints point at it for the test, then are restored.

    A request the fake itself failed on fails the test (its traceback is shown).
    """
    async with running_fake() as server:
        yield server
    assert not server.internal_errors, "\n".join(server.internal_errors)
