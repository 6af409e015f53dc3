"""The typed wire in real Chromium (issue #51, part 4): a frame the page does not know is
logged and skipped, and the page plays on; a request the server does not know is refused in
the person's language; and every word the page shows of a language — how it joins words, what
a card face says — is the one the server sent in its hello (the page's socket goes through
Playwright, which changes those facts on their way)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.text.catalog import text
from tests.web.helpers import (
    DESKTOP,
    WAIT,
    answer,
    question,
    ready,
    served,
    tap_cards,
    wait_asked_or_over,
)

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page, WebSocketRoute

SOCKET = re.compile(r"/ws\?")


def relay(page_socket: WebSocketRoute, change: Any) -> None:
    """Pass the page's socket through to the server, each frame the server sends first given
    to ``change(frame_text)``, which returns the texts to send the page instead."""
    server = page_socket.connect_to_server()

    def from_server(message: str | bytes) -> None:
        for sent in change(message if isinstance(message, str) else message.decode()):
            page_socket.send(sent)

    server.on_message(from_server)
    page_socket.on_message(server.send)


async def until_turn(page: Page) -> dict[str, Any]:
    """Answer the questions before the page's first turn with plays to make; that turn."""
    step = 1
    while await wait_asked_or_over(page):
        asked = await question(page)
        if asked is not None and asked["kind"] == "turn" and asked["plays"]:
            return asked
        await answer(page, step)
        step += 1
    raise AssertionError("the game ended before a turn of this person")


@pytest.mark.asyncio(loop_scope="session")
async def test_a_frame_of_an_unknown_kind_is_logged_and_skipped_and_the_page_plays_on(
    browser: Browser, tmp_path: Path
) -> None:
    def with_strangers(message: str) -> list[str]:
        if json.loads(message)["t"] != "hello":
            return [message]
        return [message, json.dumps({"t": "shuffle", "cards": "KK"}), "no frame at all"]

    async with served(tmp_path, {0: "济南"}, seed=5) as local:
        context = await browser.new_context(**DESKTOP, locale="en-US")
        try:
            page = await context.new_page()
            logged: list[tuple[str, str]] = []
            errors: list[str] = []
            page.on("console", lambda said: logged.append((said.type, said.text)))
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.route_web_socket(SOCKET, lambda ws: relay(ws, with_strangers))
            await page.goto(local.link(0))
            await ready(page)
            warned = [said for kind, said in logged if kind == "warning"]
            assert any("unknown kind" in said and "shuffle" in said for said in warned), logged
            assert any("not a frame" in said and "no frame at all" in said for said in warned)
            # the page goes on: a request the server does not know is refused in words …
            await page.evaluate("window.gouji.socket.send({t: 'shuffle'})")
            refused = text("en", "web_unknown_request", kind="shuffle")
            await page.wait_for_function(
                "(said) => window.gouji.state.notice.text === said", arg=refused, timeout=WAIT
            )
            # … and it plays a game, a play made by tapping as ever
            await local.start()
            asked = await until_turn(page)
            before = int(await page.get_attribute("#app", "data-v") or 0)
            assert await answer(page, 1) in ("play", "pass")
            assert int(await page.get_attribute("#app", "data-v") or 0) > before
            assert asked["token"] != await page.get_attribute("#app", "data-token")
            assert errors == []
        finally:
            await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_the_page_joins_and_draws_with_the_words_and_faces_the_server_sends(
    browser: Browser, tmp_path: Path
) -> None:
    def with_other_words(message: str) -> list[str]:
        frame = json.loads(message)
        if frame["t"] == "hello":
            frame["words"] = {"list": " & ", "dot": " ~ ", "times": "{n} of"}
            frame["faces"]["joker"] = "JK"
            frame["faces"]["ranks"] = [f"<{rank}>" for rank in frame["faces"]["ranks"]]
        return [json.dumps(frame, ensure_ascii=False)]

    async with served(tmp_path, {0: "济南"}, seed=3) as local:
        context = await browser.new_context(**DESKTOP, locale="zh-CN")
        try:
            page = await context.new_page()
            await page.route_web_socket(SOCKET, lambda ws: relay(ws, with_other_words))
            await page.goto(local.link(0))
            await ready(page)
            await local.start()
            asked = await until_turn(page)
            shown = await page.evaluate(
                """() => ({
                  counts: [...document.querySelectorAll('#counter .item b')].map(b => b.textContent),
                  jokers: [...document.querySelectorAll('#counter .jt')].map(j => j.textContent),
                  badges: [...document.querySelectorAll('#hand .badge')].map(b => b.textContent),
                  indices: [...document.querySelectorAll('#hand .card .idx')].map(i => i.textContent),
                })"""
            )
            assert shown["counts"] and all(re.fullmatch(r"\d+ of", n) for n in shown["counts"])
            assert shown["jokers"] == ["JK", "JK"]
            assert shown["badges"] and all(re.fullmatch(r"\d+ of", b) for b in shown["badges"])
            assert all(re.fullmatch(r"<(10|[2-9JQKA])>", i) for i in shown["indices"]), shown
            await tap_cards(page, asked["plays"][0])
            await page.wait_for_function(
                "() => document.getElementById('play').textContent.includes(' ~ ')", timeout=WAIT
            )
            label = await page.text_content("#play")
            assert label is not None and label.startswith(text("zh", "web_play") + " ~ ")
            assert await page.get_attribute("#app", "data-lang") == "zh"
        finally:
            await context.close()
