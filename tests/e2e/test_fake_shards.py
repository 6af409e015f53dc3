"""The fake Discord's sharded gateway: IDENTIFY with ``shard: [i, n]`` gets only that shard's
guilds, GET /gateway/bot recommends a shard count, and a guild's events (messages,
interactions) go to the connection of its shard; DMs to shard 0, as on Discord."""

from __future__ import annotations

import asyncio

import aiohttp
import discord

from tests.fakediscord import BotRunner, FakeDiscord, running_fake
from tests.fakediscord.gateway import shard_of

from .fake_helpers import TIME_SCALE, call
from .test_fake_gateway import connect


def _two_shards(fake: FakeDiscord) -> tuple[int, int]:
    """Guilds on both shards of two: (a guild on shard 0, a guild on shard 1)."""
    zero = fake.add_guild("Zero", ["zero-tables"], shard=(0, 2)).id
    one = fake.add_guild("One", ["one-tables"], shard=(1, 2)).id
    return zero, one


class ScaledShardsClient(discord.AutoShardedClient):
    """discord.py waits Discord's 5 s between one shard's IDENTIFY and the next's; here
    5 s at the e2e time scale, as the fake scales its own windows."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(5.0 * TIME_SCALE)


def test_add_guild_picks_an_id_on_the_asked_shard() -> None:
    fake = FakeDiscord()
    for shard in range(3):
        guild = fake.add_guild(f"g{shard}", [f"c{shard}"], shard=(shard, 3))
        assert shard_of(guild.id, 3) == shard
        assert fake.channel(f"c{shard}").guild_id == guild.id
    assert fake.ids.next() > max(g.id for g in fake.guilds.values())


async def test_identify_with_a_shard_gets_only_that_shards_guilds() -> None:
    async with running_fake() as fake, aiohttp.ClientSession() as http:
        zero, one = _two_shards(fake)
        for shard, guild in ((0, zero), (1, one)):
            gw = await connect(http, fake.gateway_url + "?v=10&encoding=json")
            assert (await gw.recv())["op"] == 10
            await gw.send(2, {"token": fake.token, "intents": 513, "shard": [shard, 2]})
            ready = await gw.recv()
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            expected = {str(g.id) for g in fake.all_guilds() if shard_of(g.id, 2) == shard}
            assert str(guild) in expected
            assert {g["id"] for g in ready["d"]["guilds"]} == expected
            created = [await gw.recv() for _ in expected]
            assert {e["d"]["id"] for e in created} == expected
            assert all(e["t"] == "GUILD_CREATE" for e in created)
            await gw.ws.close()


async def test_an_impossible_shard_is_closed_with_4010() -> None:
    async with running_fake() as fake, aiohttp.ClientSession() as http:
        gw = await connect(http, fake.gateway_url + "?v=10&encoding=json")
        await gw.recv()
        await gw.send(2, {"token": fake.token, "intents": 513, "shard": [2, 2]})
        assert (await gw.recv())["closed"] == 4010


async def test_gateway_bot_recommends_the_shard_count() -> None:
    async with running_fake(recommended_shards=2) as fake:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(fake.api_base + "/", headers=headers) as http:
            status, body = await call(http, "GET", "/gateway/bot")
    assert status == 200 and body["shards"] == 2


async def test_an_auto_sharded_client_gets_each_guilds_events_on_its_shard() -> None:
    """discord.py asks /gateway/bot, opens both shards; a message in each guild arrives
    on the guild's shard, a DM on shard 0."""
    async with running_fake(recommended_shards=2) as fake:
        zero, one = _two_shards(fake)

        def factory() -> discord.Client:
            intents = discord.Intents.default()
            intents.members = intents.presences = intents.message_content = False
            return ScaledShardsClient(intents=intents, guild_ready_timeout=0.05)

        async with BotRunner(fake, factory) as runner:
            client = runner.client
            assert isinstance(client, discord.AutoShardedClient)
            # the client's own state: re-checked every 20 ms, not only when the fake records
            await fake.wait_for(lambda: len(client.guilds) == 3, 10, "every guild", poll=0.02)
            assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
            assert sorted(fake.gateway.by_shard) == [0, 1]
            seen: list[tuple[int | None, str]] = []

            async def on_message(message: discord.Message) -> None:
                guild = message.guild
                if guild is None:
                    seen.append((None, "dm"))
                else:
                    assert isinstance(message.channel, discord.TextChannel)
                    seen.append((guild.id, message.channel.name))

            client.event(on_message)
            alice = fake.member("alice")
            await alice.say("in zero", "zero-tables")
            await alice.say("in one", "one-tables")
            await alice.say("hello", "dm")
            await fake.wait_for(lambda: len(seen) == 3, 10, "three messages", poll=0.02)
            logs = {
                shard: [e.data for e in session.log if e.event == "MESSAGE_CREATE"]
                for shard, session in fake.gateway.by_shard.items()
            }
        assert sorted(seen, key=str) == sorted(
            [(zero, "zero-tables"), (one, "one-tables"), (None, "dm")], key=str
        )
        assert [d.get("guild_id") for d in logs[1]] == [str(one)]
        assert [d.get("guild_id") for d in logs[0]] == [str(zero), None]
