"""Discord's own rate limits in the fake: the global limit, the per-channel message and delete
buckets, their headers, and the real discord.py client waiting them out.

Most tests hold the limiter's clock still (``fake.limits.clock``), so that a window never
ends half-way through a test however slow the machine is; they count, never time. The fake
runs at the end-to-end tests' time scale: a window Discord gives as ``d`` seconds lasts
``fake.limits.seconds(d)`` here, and is announced rounded up to the millisecond
(``announced(d)``).
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

import aiohttp
import discord
import pytest

from tests.e2e.fake_helpers import TIME_SCALE, call, plain_client
from tests.fakediscord import (
    BotRunner,
    FakeDiscord,
    MessageRecord,
    message_tally,
    request_tally,
    running_fake,
)
from tests.fakediscord.limits import DiscordLimits, ScaledFaultPlan

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"


class StillClock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(fake: FakeDiscord) -> StillClock:
    still = StillClock()
    fake.limits.clock = still
    return still


def announced(discord_seconds: float) -> float:
    """A wait of ``discord_seconds`` as the fake announces it (``Reset-After``,
    ``retry_after``) at ``TIME_SCALE``: rounded up to the millisecond, as Discord does."""
    return math.ceil(discord_seconds * TIME_SCALE * 1000) / 1000


def ping_command(fake: FakeDiscord) -> None:
    fake.commands.bulk_overwrite(None, [{"name": "ping", "description": "Ping", "type": 1}])


async def test_the_51st_bot_token_request_in_a_second_is_refused_with_a_global_429(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    statuses = [(await call(http, "GET", "/users/@me"))[0] for _ in range(50)]
    assert statuses == [200] * 50
    async with http.get("users/@me") as resp:
        body = await resp.json()
        assert resp.status == 429
        assert resp.headers["X-RateLimit-Global"] == "true"
        assert resp.headers["X-RateLimit-Scope"] == "global"
        assert "X-RateLimit-Remaining" not in resp.headers  # no bucket headers on a global 429
        assert resp.headers["Via"] and int(resp.headers["Retry-After"]) >= 1
    assert body["global"] is True and 0 < body["retry_after"] <= announced(1.0)
    assert set(body) == {"message", "retry_after", "global", "code"}
    clock.now += fake.limits.seconds(1.0)  # the next second
    assert (await call(http, "GET", "/users/@me"))[0] == 200
    tally = request_tally(fake)
    assert tally.bot["GET /users/@me"] == 52
    assert tally.throttled == {("GET /users/@me", "global"): 1}


async def test_interaction_callbacks_and_follow_ups_are_outside_the_global_limit(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    ping_command(fake)
    for _ in range(50):
        await call(http, "GET", "/users/@me")
    assert (await call(http, "GET", "/users/@me"))[0] == 429
    recs = [await fake.member("alice").slash("ping") for _ in range(60)]
    for n, rec in enumerate(recs):
        path = f"/interactions/{rec.id}/{rec.token}/callback"
        status, _ = await call(http, "POST", path, json={"type": 4, "data": {"content": f"{n}"}})
        assert status == 200
    follow = f"/webhooks/{fake.application_id}/{recs[0].token}"
    assert (await call(http, "POST", follow, json={"content": "more"}))[0] == 200
    assert (await call(http, "PATCH", follow + "/messages/@original", json={"content": "x"}))[
        0
    ] == 200
    tally = request_tally(fake)
    assert tally.throttled_by_scope() == {"global": 1}
    assert sum(tally.interaction.values()) == 62 and tally.bot_total == 51


async def test_a_channel_takes_five_new_messages_per_five_seconds(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    path = f"/channels/{fake.channel('gouji').id}/messages"
    remaining = []
    for n in range(5):
        async with http.post(path.lstrip("/"), json={"content": f"m{n}"}) as resp:
            assert resp.status == 200
            assert resp.headers["X-RateLimit-Limit"] == "5"
            assert float(resp.headers["X-RateLimit-Reset-After"]) == announced(5.0)
            assert resp.headers["X-RateLimit-Bucket"] and resp.headers["X-RateLimit-Reset"]
            remaining.append(int(resp.headers["X-RateLimit-Remaining"]))
    assert remaining == [4, 3, 2, 1, 0]
    async with http.post(path.lstrip("/"), json={"content": "m5"}) as resp:
        body = await resp.json()
        assert resp.status == 429 and resp.headers["X-RateLimit-Scope"] == "user"
        assert resp.headers["X-RateLimit-Remaining"] == "0"
    assert body["global"] is False and body["retry_after"] == announced(5.0)
    other = f"/channels/{fake.channel('general').id}/messages"  # its own bucket
    assert (await call(http, "POST", other, json={"content": "elsewhere"}))[0] == 200
    clock.now += fake.limits.seconds(5.0)
    assert (await call(http, "POST", path, json={"content": "m5"}))[0] == 200
    assert request_tally(fake).throttled == {(f"POST {MESSAGES}", "user"): 1}


async def test_a_dm_channel_has_the_same_message_limit(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    bo = fake.member("bo")
    _, dm = await call(http, "POST", "/users/@me/channels", json={"recipient_id": str(bo.id)})
    path = f"/channels/{dm['id']}/messages"
    statuses = [(await call(http, "POST", path, json={"content": f"{n}"}))[0] for n in range(6)]
    assert statuses == [200] * 5 + [429]
    (tally,) = message_tally(fake).values()
    assert tally.dm and tally.recipient_id == bo.id and tally.posted == 5
    assert len(bo.dms()) == 5


async def test_a_channel_takes_five_deletes_per_second(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    channel = fake.channel("gouji")
    msgs = [await bot_message(fake, channel.id, f"m{n}") for n in range(7)]
    statuses = []
    for msg in msgs[:6]:
        statuses.append(
            (await call(http, "DELETE", f"/channels/{channel.id}/messages/{msg.id}"))[0]
        )
    assert statuses == [204] * 5 + [429]
    clock.now += fake.limits.seconds(1.0)
    assert (await call(http, "DELETE", f"/channels/{channel.id}/messages/{msgs[5].id}"))[0] == 204
    assert request_tally(fake).throttled == {(f"DELETE {MESSAGE}", "user"): 1}
    tally = message_tally(fake)[channel.id]
    assert (tally.posted, tally.deleted, tally.lasting) == (7, 6, 1)


async def bot_message(fake: FakeDiscord, channel_id: int, content: str) -> MessageRecord:
    """A message by the bot, put straight into the fake (no request, no limit used)."""
    msg = MessageRecord(fake.ids.next(), channel_id, fake.guild_id, fake.bot_user.id, content)
    return await fake.add_message(msg)


async def test_every_answer_carries_the_bucket_headers(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    channel = fake.channel("general").id
    for path in ("/users/@me", f"/channels/{channel}", f"/channels/{channel}/messages/1"):
        async with http.get(path.lstrip("/")) as resp:
            assert resp.status in (200, 404)
            assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Bucket"} <= set(
                resp.headers
            )


async def test_discord_py_waits_out_a_global_429_and_succeeds(
    fake: FakeDiscord, client: discord.Client, clock: StillClock
) -> None:
    channel = client.get_channel(fake.channel("gouji").id)
    assert isinstance(channel, discord.TextChannel)
    fake.limits.global_bucket.windows[""] = (clock.now, 50)  # this second is used up
    sending = asyncio.create_task(channel.send("after the wait"))
    await fake.wait_for(lambda: request_tally(fake).throttled, 5, "a global 429")
    clock.now += fake.limits.seconds(1.0)  # the second is over when discord.py comes back
    sent = await asyncio.wait_for(sending, 10)
    assert fake.messages[sent.id].content == "after the wait"
    posts = [r.status for r in fake.requests if r.route == MESSAGES]
    assert posts[0] == 429 and posts[-1] == 200


async def test_discord_py_keeps_to_the_delete_bucket_by_its_headers() -> None:
    """At Discord's real windows (a one-second window): discord.py's bookkeeping of a bucket
    it sends to concurrently assumes a window much longer than a request's round trip, which
    a window scaled down to 31 ms on a busy machine is not."""
    async with running_fake() as fake, BotRunner(fake, plain_client) as runner:
        channel = runner.client.get_channel(fake.channel("gouji").id)
        assert isinstance(channel, discord.TextChannel)
        made = [await bot_message(fake, channel.id, f"m{n}") for n in range(8)]
        await asyncio.gather(*(channel.get_partial_message(m.id).delete() for m in made))
    assert all(m.deleted for m in made)
    deletes = [r.status for r in fake.requests if r.route == MESSAGE]
    assert deletes == [204] * 8  # discord.py waited for the window instead of meeting a 429


async def test_limits_can_be_turned_off() -> None:
    async with running_fake(rate_limits=False) as fake:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(fake.api_base + "/", headers=headers) as http:
            path = f"/channels/{fake.channel('gouji').id}/messages"
            statuses = [
                (await call(http, "POST", path, json={"content": f"{n}"}))[0] for n in range(60)
            ]
        assert statuses == [200] * 60 and request_tally(fake).throttled_total == 0


async def test_planned_faults_still_answer_first(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    path = f"/channels/{fake.channel('gouji').id}/messages"
    fault = fake.faults.rate_limit("POST", MESSAGES, times=1, retry_after=0.1)
    bucket = fake.faults.limit_route("POST", MESSAGES, limit=2, per=60)
    statuses = [(await call(http, "POST", path, json={"content": f"{n}"}))[0] for n in range(4)]
    assert statuses == [429, 200, 200, 429] and fault.hits == 1 and bucket.refused == 1
    scopes = [(r.fault, r.scope) for r in fake.requests if r.status == 429]
    assert scopes == [("429", "shared"), ("429", "user")]


# ----------------------------------------------------------------------------- the time scale
async def _burst(time_scale: float) -> list[tuple[int, dict[str, str], dict[str, Any]]]:
    """Six new messages in one channel, then 45 GETs, all in one still instant, against a fake
    at ``time_scale``: each answer's status, rate-limit headers and JSON body."""
    answers = []
    async with running_fake(time_scale=time_scale) as fake:
        fake.limits.clock = StillClock()
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(fake.api_base + "/", headers=headers) as http:
            path = f"channels/{fake.channel('gouji').id}/messages"
            calls = [("POST", path, {"content": "hi"})] * 6 + [("GET", "users/@me", None)] * 45
            for method, url, body in calls:
                async with http.request(method, url, json=body) as resp:
                    limits = {
                        k: v
                        for k, v in resp.headers.items()
                        if k.startswith("X-RateLimit") or k in ("Retry-After", "Via")
                    }
                    answers.append((resp.status, limits, await resp.json()))
    return answers


async def test_the_time_scale_keeps_discords_counts_buckets_and_answers_and_scales_the_waits() -> (
    None
):
    real, scaled = await _burst(1.0), await _burst(TIME_SCALE)
    # 5 messages a window; 50 requests a second, the refused message among them
    statuses = [200] * 5 + [429] + [200] * 44 + [429]
    assert [s for s, _, _ in real] == [s for s, _, _ in scaled] == statuses
    refused = [body for status, _, body in real if status == 429]
    assert refused[0]["retry_after"] == 5.0 and refused[1]["retry_after"] == 1.0, "Discord's"
    timed = ("X-RateLimit-Reset-After", "X-RateLimit-Reset", "Retry-After", "retry_after")
    for (status, h1, b1), (_, h2, b2) in zip(real, scaled, strict=True):
        assert h1.keys() == h2.keys() and b1.keys() == b2.keys(), "the same headers and body"
        assert {k: v for k, v in h1.items() if k not in timed} == {
            k: v for k, v in h2.items() if k not in timed
        }, "the same limits, remaining counts, buckets and scopes"
        if "X-RateLimit-Reset-After" in h1:
            real_wait = float(h1["X-RateLimit-Reset-After"])
            assert float(h2["X-RateLimit-Reset-After"]) == announced(real_wait)
        if status == 429:
            assert {k: v for k, v in b1.items() if k not in timed} == {
                k: v for k, v in b2.items() if k not in timed
            }, "the same 429 body"
            assert b2["retry_after"] == announced(b1["retry_after"])
            assert h2["Retry-After"] == str(math.ceil(b2["retry_after"])), "whole seconds"


async def test_planned_faults_take_discord_seconds_and_answer_them_scaled(
    fake: FakeDiscord, http: aiohttp.ClientSession, clock: StillClock
) -> None:
    path = f"/channels/{fake.channel('gouji').id}/messages"
    fake.faults.rate_limit("POST", MESSAGES, times=1, retry_after=4.0)
    bucket = fake.faults.limit_route("POST", MESSAGES, limit=1, per=60)
    status, body = await call(http, "POST", path, json={"content": "a"})
    assert status == 429 and body["retry_after"] == 4.0 * TIME_SCALE
    assert (await call(http, "POST", path, json={"content": "b"}))[0] == 200
    async with http.post(path.lstrip("/"), json={"content": "c"}) as resp:
        assert resp.status == 429 and bucket.refused == 1
        assert float(resp.headers["X-RateLimit-Reset-After"]) == announced(60.0)
    clock.now += fake.limits.seconds(60.0)
    assert (await call(http, "POST", path, json={"content": "c"}))[0] == 200


def test_a_time_scale_must_be_positive() -> None:
    with pytest.raises(ValueError, match="time_scale"):
        FakeDiscord(time_scale=0)


def test_a_raised_global_limit_lets_that_many_bot_token_requests_a_second() -> None:
    """Discord raises the global limit for a large bot: ``global_limit`` plays that bot."""
    limits = DiscordLimits(ScaledFaultPlan(), global_limit=3)
    scopes = [limits.admit("GET", "/users/@me", "/users/@me", "", now=0.0).scope for _ in range(4)]
    assert scopes == [None, None, None, "global"]
    assert limits.admit("GET", "/users/@me", "/users/@me", "", now=1.0).refusal is None
