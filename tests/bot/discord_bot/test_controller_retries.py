"""The retry policy of a controller's post or edit (issue 50): what is tried again, how many
times, with which waits, and not once nobody wants it any more."""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.discord_bot.controllers import TRIES, retried, transient
from bot.discord_bot.pacing import Unwanted
from bot.service.supervise import FIRST, JITTER


def _http(cls: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return cls(SimpleNamespace(status=status, reason="reason"), "message")


@pytest.mark.parametrize(
    ("exc", "again"),
    [
        (_http(discord.DiscordServerError, 503), True),
        (_http(discord.HTTPException, 500), True),
        (_http(discord.HTTPException, 429), True),
        (TimeoutError(), True),
        (aiohttp.ServerDisconnectedError(), True),
        (ConnectionResetError(), True),
        (_http(discord.Forbidden, 403), False),  # DMs closed: the channel is told instead
        (_http(discord.NotFound, 404), False),
        (_http(discord.HTTPException, 400), False),
        (ValueError("a bug"), False),
    ],
)
def test_only_what_may_go_through_next_time_is_tried_again(exc: Exception, again: bool) -> None:
    assert transient(exc) is again


class Attempts:
    """An attempt that fails with each of ``failures`` in turn, then answers "sent"."""

    def __init__(self, *failures: Exception) -> None:
        self.failures = list(failures)
        self.made = 0

    async def __call__(self) -> str:
        self.made += 1
        if self.failures:
            raise self.failures.pop(0)
        return "sent"


async def _retried(attempt: Attempts, wanted: bool = True) -> tuple[str, list[float]]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    return await retried(attempt, lambda: wanted, sleep=sleep), waits


async def test_a_503_is_tried_again_after_a_short_backoff() -> None:
    attempt = Attempts(_http(discord.DiscordServerError, 503), TimeoutError())
    sent, waits = await _retried(attempt)
    assert (sent, attempt.made, len(waits)) == ("sent", 3, 2)
    for n, wait in enumerate(waits):  # supervise.backoff: 0.25 s doubling, with jitter
        assert abs(wait - FIRST * 2**n) <= FIRST * 2**n * JITTER


async def test_past_its_tries_the_last_failure_is_raised() -> None:
    attempt = Attempts(*[_http(discord.DiscordServerError, 503) for _ in range(TRIES)])
    with pytest.raises(discord.DiscordServerError):
        await _retried(attempt)
    assert attempt.made == TRIES


async def test_a_refusal_is_not_tried_again() -> None:
    attempt = Attempts(_http(discord.Forbidden, 403))
    with pytest.raises(discord.Forbidden):
        await _retried(attempt)
    assert attempt.made == 1


async def test_a_controller_no_longer_wanted_is_not_tried_again() -> None:
    """Answered meanwhile (or a newer controller queued): nothing is sent again."""
    attempt = Attempts(_http(discord.DiscordServerError, 503))
    with pytest.raises(Unwanted):
        await _retried(attempt, wanted=False)
    assert attempt.made == 1
