"""The browser table's server without a browser: its files, its fonts, and the socket
protocol as a client speaks it (a real aiohttp client on a real socket)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.text.catalog import text
from bot.text.langs import LANGS
from bot.web.local import LocalTable
from bot.web.make_fonts import ui_chars
from bot.web.static_files import STATIC
from data import Store

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def test_the_ui_font_has_every_chinese_character_of_the_texts_the_client_is_sent() -> None:
    listed = (STATIC.parent / "fonts.txt").read_text(encoding="utf-8").splitlines()
    ui = set(next(line for line in listed if line.startswith("ui "))[3:])
    needed = {chr(c) for c in ui_chars() if CJK.match(chr(c))}
    missing = "".join(sorted(needed - ui))
    assert not missing, f"run python -m bot.web.make_fonts: the UI font lacks {missing}"


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[LocalTable]:
    async with await Store.open(str(tmp_path / "web.db")) as store:
        table = LocalTable(
            store, {0: "济南"}, options={"series": False}, ai_delay=0, rng=random.Random(3)
        )
        async with table:
            yield table


def _base(local: LocalTable) -> str:
    return f"http://127.0.0.1:{local.port}"


async def _next(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads((await ws.receive(timeout=10)).data)
        if frame["t"] == kind:
            return frame


async def test_the_files_are_served_gzipped_with_an_etag_and_not_sent_twice(
    local: LocalTable,
) -> None:
    async with aiohttp.ClientSession() as session:
        url = f"{_base(local)}/static/app.js"
        async with session.get(url, headers={"Accept-Encoding": "gzip"}) as got:
            assert got.status == 200 and got.headers["Content-Encoding"] == "gzip"
            etag = got.headers["ETag"]
            assert "import" in await got.text()
        async with session.get(url, headers={"If-None-Match": etag}) as again:
            assert again.status == 304
        async with session.get(f"{_base(local)}/static/theme.css") as theme:
            assert "--team0" in await theme.text()
        for missing in ("/static/nothing.js", "/static/index.html", "/static/..%2Fapp.py"):
            async with session.get(_base(local) + missing) as got:
                assert got.status == 404


async def test_a_socket_with_a_forged_link_is_told_so_and_closed(local: LocalTable) -> None:
    token = local.link(0).split("#")[1]
    forged = token.rsplit(".", 1)[0] + ".AAAAAAAAAAAAAAAAAAAAAA"
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{_base(local)}/ws?t={forged}&lang=zh") as ws:
            gone = await _next(ws, "gone")
            assert gone["text"] == text("zh", "bad_link")
            await ws.receive(timeout=10)
            assert ws.closed


async def test_bad_requests_are_refused_in_the_socket_s_language_and_change_nothing(
    local: LocalTable,
) -> None:
    await local.start()
    token = local.link(0).split("#")[1]
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{_base(local)}/ws?t={token}&lang=zh") as ws:
            hello = await _next(ws, "hello")
            assert hello["seat"] == 0 and hello["lang"] == "zh"
            state = await _next(ws, "state")
            asked = state["me"]["question"]
            await ws.send_str("not json")
            assert (await _next(ws, "refused"))["text"] == text("zh", "web_bad_message")
            await ws.send_json(
                {"t": "act", "verb": "play", "cards": "3", "token": "0.x.9", "id": 5}
            )
            stale = await _next(ws, "refused")
            assert stale["id"] == 5 and stale["text"] == text("zh", "stale_prompt")
            await ws.send_json({"t": "describe", "cards": "nonsense!", "id": 6})
            assert (await _next(ws, "refused"))["id"] == 6
            live = local.service.tables.get(local.table_id)
            assert local.service.views.question_token(live) == asked["token"]
            # a language switch: a new hello and the state again, in English
            await ws.send_json({"t": "lang", "lang": "en"})
            hello = await _next(ws, "hello")
            assert (hello["lang"], hello["tag"], hello["langs"]) == ("en", "en", list(LANGS))
            assert (await _next(ws, "state"))["me"]["question"]["token"] == asked["token"]


async def test_a_spectator_socket_gets_no_hand_and_may_not_act(local: LocalTable) -> None:
    await local.start()
    token = local.link(None).split("#")[1]
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{_base(local)}/ws?t={token}&lang=en") as ws:
            hello = await _next(ws, "hello")
            assert hello["watching"] is True and hello["seat"] is None
            state = await _next(ws, "state")
            assert state["me"] is None
            assert [seat["cards"] for seat in state["table"]["seats"]] == [36] * 6
            await ws.send_json({"t": "hint", "id": 1})
            assert (await _next(ws, "refused"))["text"] == text("en", "web_spectator")
