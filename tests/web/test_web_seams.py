"""The browser table trusts nothing at its seams (issue #50): a table whose claim another
process took sends its sockets to come back; a player who left the game no longer gets the
seat's hand."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.text.catalog import text
from bot.web.hub import RETRY
from bot.web.local import WEB_CHANNEL, LocalTable, user_of
from tests.web.helpers import served


@pytest_asyncio.fixture
async def local(tmp_path: Path) -> AsyncIterator[LocalTable]:
    async with served(tmp_path, {0: "济南"}) as table:
        yield table


def _url(local: LocalTable, ticket: str | None = None, lang: str = "en") -> str:
    ticket = ticket if ticket is not None else local.link(0).split("#")[1]
    return f"http://127.0.0.1:{local.port}/ws?t={ticket}&lang={lang}"


async def _frame(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        message = await ws.receive(timeout=10)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        frame = json.loads(message.data)
        if frame["t"] == kind:
            return dict(frame)


async def _close_code(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    while not ws.closed:
        await ws.receive(timeout=10)
    return ws.close_code


# ----------------------------------------------------------------- (1) a lost claim
async def test_a_table_whose_claim_was_lost_sends_its_sockets_to_come_back(
    local: LocalTable,
) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(_url(local, lang="zh")) as ws:
        await _frame(ws, "state")
        await local.service.lose(local.table_id)  # another process took it over
        began = time.perf_counter()
        assert await _frame(ws, "wait") == {"t": "wait", "text": text("zh", "table_restoring")}
        assert await _close_code(ws) == RETRY
    assert time.perf_counter() - began < 3


# ----------------------------------------------------------------- (2) a leaver
async def test_a_player_who_left_the_game_gets_no_hand_any_more(local: LocalTable) -> None:
    await local.start()
    async with aiohttp.ClientSession() as http, http.ws_connect(_url(local)) as ws:
        state = await _frame(ws, "state")
        while state["me"] is None or not state["table"]["playing"]:
            state = await _frame(ws, "state")
        await local.service.leave(WEB_CHANNEL, user_of(0))  # 中途强退: the AI plays on
        after: list[dict[str, Any]] = []
        with pytest.raises(TimeoutError):  # every frame until the game is over and quiet
            while True:
                after.append(json.loads((await ws.receive(timeout=1)).data))
    states = [f for f in after if f["t"] == "state"]
    assert len(states) > 10, "the game went on"
    with_hand = [n for n, f in enumerate(states) if f["me"] is not None]
    assert with_hand in ([], [0]), f"{len(with_hand)} of {len(states)} states had the hand"
