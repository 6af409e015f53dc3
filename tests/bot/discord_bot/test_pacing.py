"""The pace that keeps the bot's own requests under Discord's global limit."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_bot.pacing import Pace


class Still:
    """A clock that moves only when a request sleeps (by the time it sleeps)."""

    def __init__(self) -> None:
        self.t = 0.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds


async def test_the_pace_lets_at_most_its_limit_start_in_any_second() -> None:
    clock = Still()
    pace = Pace(limit=5, per=1.0, clock=clock.now, sleep=clock.sleep)
    starts = []
    for _ in range(12):
        await pace.wait()
        starts.append(clock.t)
    assert starts[:5] == [0.0] * 5, "the first five go at once"
    for i in range(5, 12):
        assert starts[i] - starts[i - 5] >= 1.0, "no second holds more than five"
    assert pace.waited == 2  # the sixth and the eleventh: a second on, five may go again


async def test_requests_that_wait_on_the_pace_start_in_the_order_they_came() -> None:
    clock = Still()
    pace = Pace(limit=2, per=1.0, clock=clock.now, sleep=clock.sleep)
    order: list[int] = []

    async def request(n: int) -> None:
        await pace.wait()
        order.append(n)

    await asyncio.gather(*(request(n) for n in range(6)))
    assert order == list(range(6))


def test_a_pace_needs_a_positive_limit() -> None:
    with pytest.raises(ValueError):
        Pace(limit=0)
