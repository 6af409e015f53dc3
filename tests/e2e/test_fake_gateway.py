"""The fake gateway speaks Discord's protocol: checked with a raw websocket, no discord.py."""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord

SYNC_FLUSH = b"\x00\x00\xff\xff"


class RawGateway:
    """A bare gateway client that inflates the zlib stream like discord.py does."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.inflate = zlib.decompressobj()

    async def recv(self) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=5)
        if msg.type is aiohttp.WSMsgType.BINARY:
            assert msg.data.endswith(SYNC_FLUSH)
            return json.loads(self.inflate.decompress(msg.data))
        if msg.type is aiohttp.WSMsgType.TEXT:
            return json.loads(msg.data)
        return {"closed": msg.data}

    async def send(self, op: int, d: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": d}))

    async def identify(self, token: str, intents: int = 513) -> None:
        await self.send(2, {"token": token, "intents": intents, "properties": {}})


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as http:
        yield http


async def connect(session: aiohttp.ClientSession, url: str) -> RawGateway:
    return RawGateway(await session.ws_connect(url, autoclose=False))


async def test_zlib_stream_hello_identify_ready_and_heartbeat(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    gw = await connect(session, fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream")
    hello = await gw.recv()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await gw.send(1, None)
    assert (await gw.recv())["op"] == 11
    await gw.identify(fake.token)
    ready, guild = await gw.recv(), await gw.recv()
    assert (ready["t"], ready["s"], guild["t"], guild["s"]) == ("READY", 1, "GUILD_CREATE", 2)
    assert ready["d"]["application"]["id"] == str(fake.application_id)
    assert ready["d"]["resume_gateway_url"] == fake.resume_gateway_url
    assert len(guild["d"]["channels"]) == 2 and guild["d"]["member_count"] == 7
    await gw.ws.close()


async def test_resume_replays_events_after_the_given_sequence(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    gw = await connect(session, fake.gateway_url + "?v=10&encoding=json")
    await gw.recv()
    await gw.identify(fake.token)
    session_id = (await gw.recv())["d"]["session_id"]
    await gw.recv()  # GUILD_CREATE, seq 2
    assert await fake.gateway.drop()
    fake.commands.bulk_overwrite(None, [{"name": "ping", "description": "Ping", "type": 1}])
    rec = await fake.member("alice").slash("ping")  # seq 3, sent to nobody
    assert rec.dispatched_at is None
    gw2 = await connect(session, fake.resume_gateway_url + "?v=10&encoding=json")
    await gw2.recv()
    await gw2.send(6, {"token": fake.token, "session_id": session_id, "seq": 2})
    replayed, resumed = await gw2.recv(), await gw2.recv()
    assert (replayed["t"], replayed["s"], replayed["d"]["id"]) == (
        "INTERACTION_CREATE",
        3,
        str(rec.id),
    )
    assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
    assert rec.dispatched_at is not None
    await gw2.ws.close()


@pytest.mark.parametrize(
    ("query", "token", "intents", "code"),
    [
        ("?v=9&encoding=json", None, 513, 4012),
        ("?v=10&encoding=etf", None, 513, 4002),
        ("?v=10&encoding=json", "wrong", 513, 4004),
        ("?v=10&encoding=json", None, 513 | (1 << 15), 4014),  # message content is privileged
    ],
)
async def test_refused_connections_close_with_discords_codes(
    fake: FakeDiscord,
    session: aiohttp.ClientSession,
    query: str,
    token: str | None,
    intents: int,
    code: int,
) -> None:
    gw = await connect(session, fake.gateway_url + query)
    first = await gw.recv()
    if "closed" not in first:
        await gw.identify(token or fake.token, intents)
        first = await gw.recv()
    assert first == {"closed": code}
    assert fake.gateway.sessions == {}


async def test_resume_of_unknown_session_is_invalid(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    gw = await connect(session, fake.resume_gateway_url + "?v=10&encoding=json")
    await gw.recv()
    await gw.send(6, {"token": fake.token, "session_id": "nope", "seq": 5})
    assert await gw.recv() == {"op": 9, "d": False}
    await gw.ws.close()
