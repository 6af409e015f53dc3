"""The browser table trusts nothing at its seams (issue #50): a table whose claim another
process took sends its sockets to come back; a player who left the game no longer gets the
seat's hand; a malformed body, token, header or frame is refused cleanly (never a 500 nor a
traceback); a link's expiry holds on a live socket; the pages send security headers."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import WSMsgType

from bot.text.catalog import text
from bot.web.hub import REFUSED, RETRY
from bot.web.local import LocalTable, user_of
from tests.web.activity_helpers import served as served_with_activity
from tests.web.helpers import served

NESTED = "[" * 2000 + "]" * 2000  # deeper than Python's recursion limit, under 4 KB


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
    """The code the server closed the socket with (once the frames before it are read)."""
    while not ws.closed:
        if (await ws.receive(timeout=10)).type != aiohttp.WSMsgType.TEXT:
            break
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
        await local.service.leave(
            local.service.tables.get(local.table_id), user_of(0)
        )  # 中途强退: the AI plays on
        after: list[dict[str, Any]] = []
        with pytest.raises(TimeoutError):  # every frame until the game is over and quiet
            while True:
                after.append(json.loads((await ws.receive(timeout=1)).data))
    states = [f for f in after if f["t"] == "state"]
    assert len(states) > 10, "the game went on"
    with_hand = [n for n, f in enumerate(states) if f["me"] is not None]
    assert with_hand in ([], [0]), f"{len(with_hand)} of {len(states)} states had the hand"


# ----------------------------------------------------------------- (3) malformed input
@pytest.mark.parametrize(
    ("headers", "body", "status"),
    [
        ({"Content-Type": "application/json"}, NESTED * 5, 400),
        ({"Content-Type": "application/json"}, '{"code": ', 400),
        ({"Content-Type": "application/json"}, b'{"code": "\xff"}', 400),
        ({"Content-Type": "application/json; charset=nonsense"}, '{"code": "x"}', 400),
        ({"Content-Type": "application/json"}, '{"code": "' + "x" * 100_000 + '"}', 413),
    ],
)
async def test_a_malformed_body_or_header_is_refused_in_json(
    local: LocalTable,
    headers: dict[str, str],
    body: str | bytes,
    status: int,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with aiohttp.ClientSession() as http:
        for path in ("/api/token", "/.proxy/api/session"):
            async with http.post(
                f"http://127.0.0.1:{local.port}{path}",
                data=body,
                headers={**headers, "Accept-Language": "zh"},
            ) as answer:
                assert answer.status == status, await answer.text()
                assert await answer.json() == {
                    "error": "bad_request",
                    "message": text("zh", "web_activity_bad_request"),
                }
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_token_with_a_line_break_is_a_400_not_a_500(tmp_path: Path) -> None:
    async with served_with_activity(tmp_path) as s:
        for token in ("abc\r\nX-Evil: 1", "a b", "x" * 300):
            status, body = await s.post(
                "/.proxy/api/session", {"access_token": token, "instance_id": s.instance_id}
            )
            assert (status, body["error"]) == (400, "bad_token"), body


BAD_FRAMES = {
    "nested JSON": (lambda ws: ws.send_str(NESTED), 1007),
    # a frame aiohttp would not send: through its writer
    "text not UTF-8": (lambda ws: ws._writer.send_frame(b"\xff\xfe", WSMsgType.TEXT), 1007),
    "too big": (lambda ws: ws.send_str("x" * 5000), 1009),
    "binary": (lambda ws: ws.send_bytes(b"\x00\x01"), 1003),
}


@pytest.mark.parametrize("bad", list(BAD_FRAMES))
async def test_a_malformed_frame_closes_its_socket_cleanly_and_the_server_serves_on(
    local: LocalTable, bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    send, code = BAD_FRAMES[bad]
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(_url(local)) as ws:
            await _frame(ws, "state")
            await send(ws)
            assert await _close_code(ws) == code
        async with http.ws_connect(_url(local)) as ws:
            assert (await _frame(ws, "hello"))["seat"] == 0
            await ws.send_str("not json")  # not JSON at all: a refusal, the socket stays
            assert (await _frame(ws, "refused"))["text"] == text("en", "web_bad_message")
            await ws.send_json({"t": "ping", "id": 1})
            assert (await _frame(ws, "pong"))["id"] == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ----------------------------------------------------------------- (4) expiry
async def test_a_link_expiring_while_its_socket_is_open_closes_it_with_a_word(
    local: LocalTable,
) -> None:
    ends = int(time.time()) + 2
    ticket = local.tickets.issue(local.table_id, user_of(0), expires=ends)
    async with aiohttp.ClientSession() as http, http.ws_connect(_url(local, ticket, "zh")) as ws:
        assert (await _frame(ws, "hello"))["seat"] == 0
        gone = await _frame(ws, "gone")
        assert time.time() >= ends
        assert gone == {"t": "gone", "text": text("zh", "web_link_expired")}
        assert await _close_code(ws) == REFUSED


# ----------------------------------------------------------------- (5) headers
async def test_the_pages_send_security_headers(local: LocalTable) -> None:
    base = f"http://127.0.0.1:{local.port}"
    async with aiohttp.ClientSession() as http:
        for path in ("/", "/activity", "/?frame_id=f&instance_id=i", "/static/app.js", "/healthz"):
            async with http.get(base + path) as answer:
                assert answer.status == 200
                assert answer.headers["X-Content-Type-Options"] == "nosniff"
                assert answer.headers["Referrer-Policy"] == "no-referrer"
        async with http.get(base + "/") as page:
            policy = page.headers["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in policy
            assert "default-src 'self'" in policy and "'unsafe-inline'" not in policy
        for path in ("/activity", "/.proxy/?frame_id=f&instance_id=i"):
            async with http.get(base + path) as page:
                policy = page.headers["Content-Security-Policy"]
                ancestors = next(
                    d for d in policy.split(";") if d.strip().startswith("frame-ancestors")
                )
                assert "https://discord.com" in ancestors
                assert "https://*.discordsays.com" in ancestors
                assert "'none'" not in ancestors and "*" not in ancestors.split()
