"""A table coming back is not a table gone (issue #50): while a restart restores it (or
another process's lease runs out) a page's socket is told so and the page comes back by
itself until the table is served, then shows it without a reload; a table served by a
process of other shards, or over, stays a final refusal. The Activity's sign-in answers
503 with Retry-After meanwhile."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import pytest

from bot.service.tables import TableService
from bot.text.catalog import text
from bot.text.langs import LANGS
from bot.web.hub import REFUSED, RETRY
from bot.web.local import LocalTable
from data.claims import Shards
from tests.fakediscord import running_fake
from tests.pgserver import free_port
from tests.web import helpers
from tests.web.activity_helpers import served as served_with_activity
from tests.web.helpers import DESKTOP, WAIT, bot_beside_web, ready, served

if TYPE_CHECKING:
    from playwright.async_api import Browser


@contextmanager
def coming_back(service: TableService, table_id: int) -> Iterator[None]:
    """The table is not served for a while, as during a restart's restore: it is 'coming'
    (active in the database, on this process's shards); served again after."""
    tables = service.tables
    live = tables.by_id.pop(table_id)
    channel = live.table.channel_id
    filed = tables.by_channel.pop(channel, None)  # a table outside Discord is in no channel
    tables.coming[table_id] = channel
    try:
        yield
    finally:
        tables.coming.pop(table_id, None)
        tables.by_id[table_id] = live
        if filed is not None:
            tables.by_channel[channel] = table_id


async def _refusal(local: LocalTable, lang: str) -> tuple[dict[str, Any], int | None]:
    """The first frame of seat 0's socket, and the code it was closed with."""
    ticket = local.link(0).split("#")[1]
    url = f"http://127.0.0.1:{local.port}/ws?t={ticket}&lang={lang}"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        first = json.loads((await ws.receive(timeout=10)).data)
        while not ws.closed:
            await ws.receive(timeout=10)
        return first, ws.close_code


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_socket_to_a_table_coming_back_is_told_to_come_back(
    tmp_path: Path, lang: str
) -> None:
    async with served(tmp_path, {0: "济南"}) as local:
        with coming_back(local.service, local.table_id):
            first, code = await _refusal(local, lang)
        assert first == {"t": "wait", "text": text(lang, "table_restoring")}
        assert code == RETRY
        # not served here and not known as coming: the database says it is still active
        live = local.service.tables.by_id.pop(local.table_id)
        try:
            first, code = await _refusal(local, lang)
            assert (first["t"], code) == ("wait", RETRY)
            # a process of other shards serves it: final
            local.service.tables.shards = Shards(2, (1,))
            first, code = await _refusal(local, lang)
            assert first == {"t": "gone", "text": text(lang, "table_elsewhere")}
            assert code == REFUSED
        finally:
            local.service.tables.shards = None
            local.service.tables.by_id[local.table_id] = live
        # over: final
        await local.service.end(
            local.service.tables.get(local.table_id),
            local.service.tables.info(live).creator_id,
            True,
        )
        first, code = await _refusal(local, lang)
        assert first == {"t": "gone", "text": text(lang, "web_no_table")} and code == REFUSED


@pytest.mark.asyncio(loop_scope="session")
async def test_a_page_opened_while_its_table_comes_back_shows_it_once_served(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path, {0: "济南"}) as local:
        context = await browser.new_context(**DESKTOP, locale="en-US")
        try:
            page = await context.new_page()
            sockets: list[Any] = []
            page.on("websocket", lambda ws: sockets.append(ws))
            with coming_back(local.service, local.table_id):
                await page.goto(local.link(0))
                await page.wait_for_function(
                    "(t) => document.getElementById('status').textContent === t"
                    " && !document.getElementById('status').hidden",
                    arg=text("en", "table_restoring"),
                    timeout=WAIT,
                )
                await page.evaluate("window.sameDocument = true")
                await page.wait_for_timeout(3500)  # it keeps trying: after 1 s, then 2 s
                tries = len(sockets)
                assert 2 <= tries <= 4, tries
                assert await page.get_attribute("#app", "data-v") == "0"
            await ready(page)  # served: the table shows
            assert await page.evaluate("window.sameDocument === true"), "the page reloaded"
            await page.wait_for_function(
                "document.getElementById('status').hidden", timeout=WAIT, polling=10
            )
            assert await page.get_attribute("#app", "data-up") == "true"
            assert await page.get_attribute("#app", "data-seat") == "0"
            assert await page.locator("#seats .seat").count() == 6
        finally:
            await context.close()


async def test_the_activity_signs_in_later_while_its_table_comes_back(tmp_path: Path) -> None:
    async with served_with_activity(tmp_path) as s:
        token = await s.token_of("alice")
        live = s.bot.service.tables.table_in(s.fake.channel("gouji").id)
        with coming_back(s.bot.service, live.id):
            async with s.http.post(
                s.url + "/.proxy/api/session",
                json={"access_token": token, "instance_id": s.instance_id},
            ) as answer:
                status, body = answer.status, await answer.json()
                retry_after = answer.headers.get("Retry-After")
        assert status == 503 and body["error"] == "restoring", body
        assert body["message"] in {text(lang, "web_activity_restoring") for lang in LANGS}
        assert retry_after is not None and 0 < int(retry_after) <= 5
        status, body = await s.post(
            "/.proxy/api/session", {"access_token": token, "instance_id": s.instance_id}
        )
        assert status == 200 and body["seat"] == live.seat_of(s.fake.member("alice").id)


async def test_the_bots_web_port_listens_once_its_tables_are_restored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``gouji bot`` opens the browser table after restoring its tables: a page never meets
    a restarted process that does not serve its table yet."""
    release, restoring = asyncio.Event(), asyncio.Event()
    restore = TableService.restore

    async def held(self: TableService) -> list[int]:
        restoring.set()
        await release.wait()
        return await restore(self)

    port = free_port()
    monkeypatch.setattr(TableService, "restore", held)
    monkeypatch.setattr(helpers, "free_port", lambda: port)
    async with running_fake() as fake:
        started = asyncio.Event()

        async def run() -> None:
            async with bot_beside_web(fake, tmp_path / "gouji.db"):
                started.set()
                await asyncio.Event().wait()

        bot = asyncio.create_task(run())
        try:
            await asyncio.wait_for(restoring.wait(), 30)
            with pytest.raises(OSError):  # nothing listens yet
                await asyncio.open_connection("127.0.0.1", port)
            release.set()
            await asyncio.wait_for(started.wait(), 30)
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as answer:
                    assert answer.status == 200
        finally:
            bot.cancel()
            with suppress(asyncio.CancelledError):
                await bot
