"""The web server's caps, without a browser (issue #50): a connection without a request is
dropped after a few seconds; one link opens at most a few sockets, one address a few dozen,
the whole server as many as its open files allow; each refusal says why in the person's
language, and a full server tells the page to come back by itself."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.text.catalog import text
from bot.web.door import IDLE
from bot.web.hub import REFUSED, RETRY
from bot.web.limits import PER_ADDRESS, PER_PERSON
from bot.web.local import LocalTable
from tests.web.helpers import served


@pytest_asyncio.fixture
async def local(tmp_path: Path) -> AsyncIterator[LocalTable]:
    async with served(tmp_path, {0: "济南"}) as table:
        yield table


def _url(local: LocalTable, ticket: str, lang: str = "en") -> str:
    return f"http://127.0.0.1:{local.port}/ws?t={ticket}&lang={lang}"


async def _first(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    return dict(json.loads((await ws.receive(timeout=10)).data))


async def _closed(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """The close code the server sent (after any frames still to come)."""
    while not ws.closed:
        message = await ws.receive(timeout=10)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            break
    return ws.close_code


async def _silence_lasts(local: LocalTable, first: bytes = b"") -> float:
    """Seconds a connection that sends ``first`` and nothing else stays open."""
    reader, writer = await asyncio.open_connection("127.0.0.1", local.port)
    began = time.perf_counter()
    writer.write(first)
    try:
        assert await asyncio.wait_for(reader.read(), 10) == b""
    finally:
        writer.close()
    return time.perf_counter() - began


async def test_a_connection_without_a_request_is_dropped_after_a_few_seconds(
    local: LocalTable,
) -> None:
    local.site.door.wait = 0.5
    assert 0.4 < await _silence_lasts(local) < 3
    assert 0.4 < await _silence_lasts(local, b"GET / HTTP/1.1\r\nHost: x\r\n") < 3  # never ends
    assert IDLE <= 10  # "a few seconds" in production


async def test_a_kept_alive_connection_serves_requests_then_is_dropped_when_idle(
    local: LocalTable,
) -> None:
    local.site.door.wait = 0.5
    reader, writer = await asyncio.open_connection("127.0.0.1", local.port)
    try:
        for _ in range(3):
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"ok"), 5)
            assert head.startswith(b"HTTP/1.1 200")
            await asyncio.sleep(0.3)  # less than the wait: still open
        assert await asyncio.wait_for(reader.read(), 5) == b""
    finally:
        writer.close()


async def test_one_link_opens_a_few_sockets_the_next_is_told_why_in_its_language(
    local: LocalTable,
) -> None:
    ticket = local.link(0).split("#")[1]
    async with aiohttp.ClientSession() as http, AsyncExitStack() as stack:
        for _ in range(PER_PERSON):
            ws = await stack.enter_async_context(http.ws_connect(_url(local, ticket)))
            assert (await _first(ws))["t"] == "hello"
        # another link of the same person counts too
        other = local.tickets.issue(local.table_id, 1, expires=2_000_000_000)
        async with http.ws_connect(_url(local, other, "zh")) as ws:
            assert await _first(ws) == {"t": "gone", "text": text("zh", "web_too_many_sockets")}
            assert await _closed(ws) == REFUSED
    # once they closed, the link opens sockets again
    async with aiohttp.ClientSession() as http, http.ws_connect(_url(local, ticket)) as ws:
        assert (await _first(ws))["t"] == "hello"


async def test_one_address_behind_the_proxy_opens_a_few_dozen_sockets(local: LocalTable) -> None:
    """Behind a reverse proxy on this machine the address is its ``X-Forwarded-For``'s;
    this machine's own connections (no such header) are not counted."""
    links = [
        local.tickets.issue(local.table_id, None, expires=2_000_000_000 + n)
        for n in range(PER_ADDRESS + 1)
    ]  # each a spectator's link of its own
    forwarded = {"X-Forwarded-For": "198.51.100.7, 203.0.113.9"}
    async with aiohttp.ClientSession() as http, AsyncExitStack() as stack:
        for ticket in links[:PER_ADDRESS]:
            ws = await stack.enter_async_context(
                http.ws_connect(_url(local, ticket), headers=forwarded)
            )
            assert (await _first(ws))["t"] == "hello"
        async with http.ws_connect(_url(local, links[-1]), headers=forwarded) as ws:
            assert await _first(ws) == {"t": "gone", "text": text("en", "web_too_many_here")}
            assert await _closed(ws) == REFUSED
        elsewhere = {"X-Forwarded-For": "198.51.100.8"}
        async with http.ws_connect(_url(local, links[-1]), headers=elsewhere) as ws:
            assert (await _first(ws))["t"] == "hello"
        async with http.ws_connect(_url(local, links[-1])) as ws:  # this machine
            assert (await _first(ws))["t"] == "hello"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_full_server_tells_the_page_to_come_back_by_itself(
    local: LocalTable, lang: str
) -> None:
    local.site.limits.total = 2
    links = [local.tickets.issue(local.table_id, None, expires=2_000_000_000 + n) for n in range(3)]
    async with aiohttp.ClientSession() as http, AsyncExitStack() as stack:
        for ticket in links[:2]:
            ws = await stack.enter_async_context(http.ws_connect(_url(local, ticket)))
            assert (await _first(ws))["t"] == "hello"
        async with http.ws_connect(_url(local, links[2], lang)) as ws:
            assert await _first(ws) == {"t": "wait", "text": text(lang, "web_server_busy")}
            assert await _closed(ws) == RETRY
    async with aiohttp.ClientSession() as http, http.ws_connect(_url(local, links[2])) as ws:
        assert (await _first(ws))["t"] == "hello"
