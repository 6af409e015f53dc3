"""The fake's REST answers in detail: Discord's error codes, lookups, history, guild commands."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.discord_bot.endpoints import API_ENV, GATEWAY_ENV
from tests.e2e.fake_helpers import call, plain_client
from tests.fakediscord import BotRunner, CommandUnavailable, FakeDiscord, running_fake


async def test_bad_token_is_unauthorized(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    status, body = await call(http, "GET", "/users/@me", headers={"Authorization": "Bot nope"})
    assert status == 401 and body["code"] == 0
    rejected = plain_client()
    try:
        with pytest.raises(discord.LoginFailure):
            await rejected.login("nope")
    finally:
        await rejected.close()


async def test_message_checks_match_discord(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = fake.channel("gouji").id
    path = f"/channels/{channel}/messages"
    assert (await call(http, "POST", path, json={}))[1]["code"] == 50006
    assert (await call(http, "POST", path, json={"content": "x" * 2001}))[1]["code"] == 50035
    row = {
        "type": 1,
        "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "same"}] * 2,
    }
    status, body = await call(http, "POST", path, json={"content": "hi", "components": [row]})
    assert status == 400 and "unique" in body["message"]
    assert (await call(http, "POST", "/channels/1/messages", json={"content": "x"}))[1][
        "code"
    ] == 10003
    assert fake.messages == {}


async def test_interaction_answered_twice_gets_40060(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.commands.bulk_overwrite(None, [{"name": "ping", "description": "Ping", "type": 1}])
    rec = await fake.member("alice").slash("ping")
    path = f"/interactions/{rec.id}/{rec.token}/callback"
    answer = {"type": 4, "data": {"content": "pong"}}
    status, body = await call(http, "POST", path, json=answer)
    assert status == 200 and body["resource"]["message"]["content"] == "pong"
    status, body = await call(http, "POST", path, json=answer)
    assert status == 400 and body["code"] == 40060
    status, body = await call(http, "POST", f"/interactions/{rec.id}/wrong/callback", json=answer)
    assert status == 404 and body["code"] == 10062
    assert len(rec.responses) == 1 and rec.latency is None  # no bot: never dispatched


async def test_webhook_needs_an_acknowledged_interaction(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.commands.bulk_overwrite(None, [{"name": "ping", "description": "Ping", "type": 1}])
    rec = await fake.member("bo").slash("ping")
    base = f"/webhooks/{fake.application_id}/{rec.token}"
    assert (await call(http, "POST", base, json={"content": "early"}))[1]["code"] == 10015
    await call(http, "POST", f"/interactions/{rec.id}/{rec.token}/callback", json={"type": 5})
    status, body = await call(http, "GET", base + "/messages/@original")
    assert status == 200 and body["flags"] & 128  # still "thinking"
    status, _ = await call(http, "PATCH", base + "/messages/@original", json={"content": "done"})
    assert status == 200 and (await rec.original()).content == "done"


async def test_guild_commands_are_not_offered_in_dms(fake: FakeDiscord) -> None:
    fake.commands.bulk_overwrite(fake.guild_id, [{"name": "seat", "description": "Sit", "type": 1}])
    rec = await fake.member("chen").slash("seat")
    assert rec.data["guild_id"] == str(fake.guild_id)
    with pytest.raises(CommandUnavailable):
        await fake.member("chen").slash("seat", channel="dm")


async def test_lookups_and_history_through_the_client(
    fake: FakeDiscord, client: discord.Client
) -> None:
    dana = fake.member("dana")
    user = await client.fetch_user(dana.id)
    assert user.name == "dana"
    guild = client.get_guild(fake.guild_id)
    assert guild is not None and (await guild.fetch_member(dana.id)).name == "dana"
    channel = guild.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    sent = [await channel.send(f"line {i}") for i in range(3)]
    history = [m.content async for m in channel.history(limit=2)]
    assert history == ["line 2", "line 1"]
    fetched = await channel.fetch_message(sent[0].id)
    assert fetched.content == "line 0"
    dm = await user.create_dm()
    assert dm.id == (await user.create_dm()).id == fake.dm_channel_for(dana.id).id
    assert fake.unknown_requests == []


def members_client() -> discord.Client:
    intents = discord.Intents.default()
    intents.members = True
    return discord.Client(intents=intents, guild_ready_timeout=0.05)


async def test_members_intent_must_be_allowed_and_then_chunks_the_guild() -> None:
    async with running_fake() as refusing:
        with pytest.raises(RuntimeError) as info:
            await BotRunner(refusing, members_client).start()
        assert isinstance(info.value.__cause__, discord.PrivilegedIntentsRequired)
    async with running_fake(privileged_intents=1 << 1) as allowing:
        async with BotRunner(allowing, members_client) as runner:
            guild = runner.client.get_guild(allowing.guild_id)
            assert guild is not None and len(guild.members) == 7  # from a member chunk
            assert allowing.gateway.connections[-1].opcodes.count(8) == 1
            members = await guild.query_members(query="f")
            assert [m.name for m in members] == ["fang"]


async def test_unreadable_requests_get_a_fast_400_and_are_recorded(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    status, body = await call(http, "GET", "/channels/not-a-number")
    assert (status, body["code"]) == (400, 50035)  # Discord's spec refuses it, naming the id
    error = {"code": "NUMBER_TYPE_COERCE", "message": 'Value "not-a-number" is not snowflake.'}
    assert body["errors"] == {"channel_id": {"_errors": [error]}}
    assert not fake.internal_errors
    fake.spec.enabled = False  # unchecked, the route itself cannot read it: a fast 400 too
    status, body = await call(http, "GET", "/channels/not-a-number")
    assert status == 400 and body["code"] == 50035
    assert len(fake.internal_errors) == 1 and "ValueError" in fake.internal_errors[0]
    status, body = await call(http, "DELETE", "/users/@me")
    assert status == 405 and fake.unknown_requests[-1].method == "DELETE"
    fake.internal_errors.clear()  # expected here; the fixture fails tests that leave some


BOT_PROCESS = """
import asyncio, discord
from bot.discord_bot.endpoints import configure_from_env

configure_from_env()
client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)

@client.event
async def on_ready():
    print("ready", client.user.name, [g.name for g in client.guilds], flush=True)
    await client.close()

asyncio.run(client.start({token!r}))
"""


async def test_a_bot_process_finds_the_fake_through_the_environment(fake: FakeDiscord) -> None:
    env = {**os.environ, API_ENV: fake.api_base, GATEWAY_ENV: fake.gateway_url}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        BOT_PROCESS.format(token=fake.token),
        env=env,
        cwd=Path(__file__).parents[2],
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    assert out.decode().split("\n")[0] == "ready GoujiBot ['Gouji Club']"
    assert len(fake.gateway.sessions) == 1


async def test_a_real_bucket_is_respected_by_discord_py() -> None:
    """At Discord's real time: scaled down, the 0.1 s window would end before discord.py
    heard of it, and the test could not fail."""
    async with running_fake() as fake, BotRunner(fake, plain_client) as runner:
        route = "/channels/{channel_id}/messages"
        bucket = fake.faults.limit_route("POST", route, limit=2, per=0.1)
        channel = runner.client.get_channel(fake.channel("gouji").id)
        assert isinstance(channel, discord.TextChannel)
        await asyncio.gather(*(channel.send(f"burst {i}") for i in range(6)))
    posts = [r for r in fake.requests if r.route == "/channels/{channel_id}/messages"]
    assert [r.status for r in posts] == [200] * 6 and bucket.refused == 0
    assert sorted(m.content for m in fake.messages.values()) == [f"burst {i}" for i in range(6)]


async def test_a_bucket_refuses_calls_over_its_limit(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    bucket = fake.faults.limit_route("POST", "/channels/{channel_id}/messages", limit=1, per=60)
    path = f"/channels/{fake.channel('gouji').id}/messages"
    assert (await call(http, "POST", path, json={"content": "one"}))[0] == 200
    status, body = await call(http, "POST", path, json={"content": "two"})
    assert status == 429 and 0 < body["retry_after"] <= 60 and bucket.refused == 1
    other = f"/channels/{fake.channel('general').id}/messages"  # another channel, another window
    assert (await call(http, "POST", other, json={"content": "three"}))[0] == 200


async def test_a_crashed_bot_is_reported_when_stopped(fake: FakeDiscord) -> None:
    runner = BotRunner(fake, plain_client)
    await runner.start()
    task = runner.task
    assert task is not None
    await fake.gateway.drop(code=4004)  # "Authentication failed": discord.py gives up
    await fake.wait_for(task.done, 5, "the client to stop")
    with pytest.raises(RuntimeError, match="crashed") as info:
        await runner.stop()
    assert isinstance(info.value.__cause__, discord.ConnectionClosed)
    assert info.value.__cause__.code == 4004


async def test_commands_needing_permissions_are_offered_to_the_owner_only(
    fake: FakeDiscord,
) -> None:
    manage_guild = 1 << 5
    commands = [
        {
            "name": "kick",
            "description": "Kick",
            "type": 1,
            "default_member_permissions": str(manage_guild),
        },
        {"name": "nodm", "description": "Guild only", "type": 1, "contexts": [0]},
    ]
    fake.commands.bulk_overwrite(None, commands)
    owner, member = fake.members[0], fake.member("bo")
    assert (await owner.slash("kick")).data["name"] == "kick"
    with pytest.raises(CommandUnavailable, match="permissions"):
        await member.slash("kick")
    member.user.permissions |= manage_guild
    assert (await member.slash("kick")).data["name"] == "kick"
    await member.slash("nodm")
    with pytest.raises(CommandUnavailable):
        await member.slash("nodm", channel="dm")
