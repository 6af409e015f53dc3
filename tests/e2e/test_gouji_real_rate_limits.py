"""The bot under Discord's real rate-limit windows: the one end-to-end file whose fake Discord
runs at Discord's own time (``time_scale=1.0``; every other e2e test runs at
``fake_helpers.TIME_SCALE``, where a window lasts a fraction of Discord's).

Four tables start at once in four channels and the AI plays them out: the table messages
are redrawn faster than Discord lets a channel edit, so discord.py waits out the real
five-second windows from the headers; the bot meets no 429 of any scope. And a burst of the
bot's own requests over twelve channels, beyond Discord's 50 a second, is held back by its
pace (``bot/discord_bot/pacing.py``, 45 a second) instead of meeting the global limit, and
so is what a stalled network delivers in a bunch.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord import BotRunner, FakeDiscord, request_tally, running_fake
from tests.fakediscord.limits import ROUTE_LIMITS

from .fake_helpers import text_channel
from .gouji_helpers import bot_factory

TABLES = 4  # few enough that a busy machine still redraws each faster than Discord allows
CHANNELS = [f"table-{i:02d}" for i in range(12)]  # the burst's; the first TABLES have tables
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord at Discord's real windows, a channel and a member per table."""
    members = [(f"host{i:02d}", "en-US") for i in range(TABLES)]
    async with running_fake(channels=CHANNELS, members=members, time_scale=1.0) as server:
        yield server
    assert not server.internal_errors, "\n".join(server.internal_errors)


def windows(times: list[float], per: float) -> list[int]:
    """The requests in each of a bucket's fixed windows, as the fake lays them: a window
    starts with the first request after the last one ended and lasts ``per`` seconds."""
    counts: list[int] = []
    end = float("-inf")
    for at in times:
        if at >= end:
            counts.append(0)
            end = at + per
        counts[-1] += 1
    return counts


async def test_tables_playing_at_once_stay_inside_discords_real_windows(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    factory = bot_factory(fake, tmp_path / "gouji.db", ai_delay=0.05)
    async with BotRunner(fake, factory) as runner:
        bot = runner.client

        async def open_table(host, channel: str) -> None:
            await (await host.slash("gouji", "new", channel=channel, series=False)).original()
            await (await host.slash("gouji", "ai", "add", channel=channel)).original()

        async def hand_to_the_ai(host, channel: str) -> None:
            await (await host.slash("gouji", "start", channel=channel)).original()
            await (await host.slash("gouji", "leave", channel=channel)).original()

        hosts = list(zip(fake.members, CHANNELS[:TABLES], strict=True))
        await asyncio.gather(*(open_table(h, c) for h, c in hosts))
        await asyncio.gather(*(hand_to_the_ai(h, c) for h, c in hosts))
        tables = [bot.service.tables.table_in(fake.channel(c).id) for c in CHANNELS[:TABLES]]
        await fake.wait_for(
            lambda: not any(t.playing for t in tables), 120, "every game over", poll=0.05
        )
        await bot.presenter.drain()
        finished = [await bot.store.get_series(t.series_row) for t in tables]
        assert [s.status for s in finished] == ["finished"] * TABLES

    tally = request_tally(fake)
    assert tally.throttled_total == 0, f"429s under Discord's real windows: {tally.throttled}"
    # the windows held the bot back: a channel's edits filled a five-second window, and the
    # next edit came only once the window was over (on the fake's clock, when each edit was
    # counted: a busy machine answers an edit with a picture later)
    limit, per = ROUTE_LIMITS[EDIT]
    by_channel: dict[str, list[float]] = {}
    for r in fake.requests:
        if (r.method, r.route) == EDIT and r.admitted is not None:
            by_channel.setdefault(r.path.split("/")[2], []).append(r.admitted)
    counts = {c: windows(times, per) for c, times in by_channel.items()}
    assert all(n <= limit for c in counts.values() for n in c), counts
    held = [c for c in counts.values() if limit in c[:-1]]
    assert held, f"no table was redrawn faster than Discord lets a channel edit: {counts}"


async def test_the_bots_pace_keeps_a_burst_under_discords_real_global_limit(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        channels = [text_channel(bot, fake.channel(c).id) for c in CHANNELS]
        since = fake.requests[-1].at
        # discord.py sends the first request to a bucket it does not know alone and holds the
        # others until it hears back; the pace, in front of discord.py, counts a request when
        # it starts, so held ones would go out bunched: the channels' buckets are learnt first
        await asyncio.gather(*(c.send("hello") for c in channels))
        # then four more messages in each of the twelve channels: inside every channel's
        # window, but with the first twelve 60 bot-token requests in a second, over 50
        burst = [c.send(f"{n}") for c in channels for n in range(4)]
        await asyncio.gather(*burst)
    tally = request_tally(fake, since)
    assert tally.throttled_total == 0, f"429s under Discord's real windows: {tally.throttled}"
    assert tally.bot["POST /channels/{channel_id}/messages"] == len(burst) + 12, "no retries"
    assert bot.pace.waited > 0, "the pace held the burst back"


async def test_requests_held_on_the_way_keep_their_slots_until_discord_answers(
    tmp_path: Path,
) -> None:
    """A network that stalls delivers what it held in a bunch: the 45 messages the pace let
    go reach Discord 1.2 s late. Had their slots lapsed a second after they started, the next
    45 would go at 1.0 s and meet them in Discord's second (90 there, over 50: global 429s,
    which discord.py retries together, a second burst). They keep their slots until answered.
    """
    channels = [f"burst-{i:02d}" for i in range(90)]  # a message each: no channel's own limit
    async with running_fake(channels=channels, time_scale=1.0) as fake:
        async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
            bot = runner.client
            targets = [text_channel(bot, fake.channel(c).id) for c in channels]
            await asyncio.sleep(1.1)  # the start's requests are out of Discord's window
            since = time.monotonic()
            route = "/channels/{channel_id}/messages"
            held = fake.faults.delay("POST", route, seconds=1.2, times=bot.pace.limit)
            first = [asyncio.create_task(c.send("held")) for c in targets[: bot.pace.limit]]
            await fake.wait_for(
                lambda: held.hits == bot.pace.limit, 5, "the first 45 held", poll=0.01
            )
            then = [c.send("then") for c in targets[bot.pace.limit :]]
            await asyncio.gather(*first, *then)
        tally = request_tally(fake, since)
        assert not fake.internal_errors, "\n".join(fake.internal_errors)
    assert tally.throttled_total == 0, f"429s: {tally.throttled}"
    assert tally.bot[f"POST {route}"] == len(channels), "no retries"
