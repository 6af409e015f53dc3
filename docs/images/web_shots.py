"""Make the browser table's screenshots for the docs: ``python -m docs.images.web_shots``
(from the repository root; needs the test extras' Playwright and Chromium, as the browser
tests do).

A table served by ``gouji web``'s :class:`~bot.web.local.LocalTable` (seed 11, the hint AI,
you in seat 0), played for a few questions by tapping, then your turn with a play tapped
(the play button says what it is): on a phone (390×844, touch) and a desktop (1280×800),
in Chinese and English. Writes ``web-{phone,desktop}-{zh,en}.png`` here; and a two-game
series' big moments (:func:`shoot_moment`), ``web-{result,tribute,scoreboard}-{phone,desktop}-
{zh,en}.png``.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.web.local import LocalTable
from data import Store
from tests.web.helpers import (
    GO_ON,
    answer,
    press,
    question,
    ready,
    tap_cards,
    wait_asked_or_over,
)

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

HERE = Path(__file__).resolve().parent
SCREENS: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
LOCALES = {"zh": "zh-CN", "en": "en-US"}
QUESTIONS = 9  # answered before the picture is taken


@asynccontextmanager
async def _opened(
    browser: Browser, screen: str, lang: str, seed: int, options: dict[str, Any]
) -> AsyncIterator[Page]:
    """A fresh table of ``gouji web`` (you in seat 0) and your page on it, shown."""
    with tempfile.TemporaryDirectory() as folder:
        async with await Store.open(str(Path(folder) / "web.db")) as store:
            local = LocalTable(
                store,
                {0: "济南" if lang == "zh" else "Alice"},
                options=options,
                ai_delay=0,
                rng=random.Random(seed),
                start_now=True,
            )
            async with local:
                context = await browser.new_context(  # the tests' waits evaluate expressions
                    **SCREENS[screen],
                    locale=LOCALES[lang],
                    reduced_motion="reduce",
                    bypass_csp=True,
                )
                try:
                    page = await context.new_page()
                    await page.goto(local.link(0))
                    await ready(page)
                    yield page
                finally:
                    await context.close()


async def shoot(browser: Browser, out: Path, screen: str, lang: str, seed: int = 11) -> Path:
    """One screenshot of a fresh table; its path."""
    async with _opened(browser, screen, lang, seed, {"series": False}) as page:
        touch = screen == "phone"
        step = 1
        while await wait_asked_or_over(page):
            asked = await question(page)
            if step > QUESTIONS and asked and asked["kind"] == "turn" and asked["plays"]:
                await tap_cards(page, max(asked["plays"][:6], key=len), touch=touch)
                await page.wait_for_function(
                    "document.getElementById('play').dataset.legal === 'true'"
                    " && !document.getElementById('play').textContent.includes('…')"
                )
                break
            await answer(page, step, touch=touch)
            step += 1
        await page.wait_for_timeout(200)
        path = out / f"web-{screen}-{lang}.png"
        await page.screenshot(path=str(path))
        return path


MOMENTS = ("result", "tribute", "scoreboard")


async def shoot_moment(
    browser: Browser, out: Path, screen: str, lang: str, moment: str, seed: int = 1
) -> Path:
    """A screenshot of one of a series' big moments, its path: ``result``, the first game's
    result panel waiting for you to go on; ``tribute``, the second game's tribute scene (you
    received tribute: marked 贡 in your hand); ``scoreboard``, the scoreboard opened from the
    bar in the second game."""
    options = {"series": True, "series_games": 2}
    touch = screen == "phone"
    async with _opened(browser, screen, lang, seed, options) as page:
        step = 1
        while not await page.evaluate(GO_ON) and await wait_asked_or_over(page):
            if await page.evaluate(GO_ON):
                break
            await answer(page, step, touch=touch)
            step += 1
        await page.wait_for_function("document.getElementById('app').dataset.result === 'open'")
        if moment != "result":
            await press(page, "#result-button", touch=touch)
            await page.wait_for_function(
                "document.getElementById('app').dataset.tribute === 'open'"
            )
        if moment == "scoreboard":
            await press(page, "#tribute-close", touch=touch)
            await press(page, "#score", touch=touch)
            await page.wait_for_function(
                "document.getElementById('app').dataset.scoreboard === 'open'"
            )
        await page.wait_for_timeout(300)
        path = out / f"web-{moment}-{screen}-{lang}.png"
        await page.screenshot(path=str(path))
        return path


async def shoot_all(browser: Browser, out: Path) -> list[Path]:
    shots = [await shoot(browser, out, screen, lang) for screen in SCREENS for lang in LOCALES]
    for moment in MOMENTS:
        for screen in SCREENS:
            shots += [await shoot_moment(browser, out, screen, lang, moment) for lang in LOCALES]
    return shots


async def main() -> None:
    from playwright.async_api import async_playwright

    from tests.web.conftest import CHROMIUM, CHROMIUM_FLAGS

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=list(CHROMIUM_FLAGS)
        )
        try:
            for path in await shoot_all(browser, HERE):
                print(path)
        finally:
            await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
