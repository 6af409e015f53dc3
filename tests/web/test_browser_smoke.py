"""The real browser works here: headless Chromium loads a page from a local aiohttp server,
a click runs the page's script, which asks the server, and the DOM shows the answer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio
from aiohttp import web

if TYPE_CHECKING:
    from playwright.async_api import Page

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>smoke</title></head>
<body>
  <button id="ask">Ask</button>
  <p id="answer">not yet</p>
  <script>
    document.getElementById("ask").addEventListener("click", async () => {
      const reply = await fetch("/answer", {method: "POST", body: "够级"});
      document.getElementById("answer").textContent = await reply.text();
    });
  </script>
</body></html>
"""


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[tuple[str, list[str]]]:
    """A local server of the page; its address and the bodies POSTed to /answer."""
    asked: list[str] = []

    async def page(_: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def answer(request: web.Request) -> web.Response:
        asked.append(await request.text())
        return web.Response(text=f"the server got {asked[-1]}")

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_post("/answer", answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/", asked
    finally:
        await runner.cleanup()


@pytest.mark.asyncio(loop_scope="session")
async def test_chromium_loads_a_page_runs_its_script_on_a_click_and_shows_the_answer(
    page: Page, site: tuple[str, list[str]]
) -> None:
    url, asked = site
    await page.goto(url)
    assert await page.title() == "smoke"
    assert await page.text_content("#answer") == "not yet"
    await page.click("#ask")
    await page.wait_for_function(
        "document.getElementById('answer').textContent !== 'not yet'", timeout=10_000
    )
    assert await page.text_content("#answer") == "the server got 够级"
    assert asked == ["够级"]
