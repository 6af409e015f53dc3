"""Fixtures for the tests in a real browser: Debian's Chromium driven by Playwright.

``browser`` is one headless Chromium for the whole run (session scope, on the session's
event loop), ``page`` a page in a fresh context per test (its own cookies and storage).
Playwright cannot download its own browser here: it drives ``/usr/bin/chromium``
(``GOUJI_CHROMIUM`` names another). Its contexts bypass the pages' Content-Security-Policy
unless a test asks for it (``new_context(bypass_csp=False)``, as test_web_csp.py does):
Playwright evaluates a predicate given as an expression (``wait_for_function("x === 1")``,
unlike ``"() => x === 1"``) with ``eval``, which the policy forbids. Without Chromium (or the ``playwright`` package) the
browser tests skip, or fail when ``CI`` is set, as the PostgreSQL tests do.

A browser test runs on the session's loop too::

    @pytest.mark.asyncio(loop_scope="session")
    async def test_something(page: Page) -> None:
        await page.goto(url)
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast

import pytest
import pytest_asyncio

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page

CHROMIUM = os.environ.get("GOUJI_CHROMIUM", "/usr/bin/chromium")
# Headless, no sandbox (CI runs as root), and nothing that reaches out to the network
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
CHROMIUM_MISSING = (
    "browser tests skipped: {error}. Install Chromium (Debian: apt-get install chromium; "
    "GOUJI_CHROMIUM names another binary) and the test extras (the playwright package)."
)


def _missing(error: str) -> None:
    """Skip the test, or fail it when ``CI`` is set: CI must run the browser tests."""
    reason = CHROMIUM_MISSING.format(error=error)
    if os.environ.get("CI"):
        pytest.fail(reason.replace("skipped", "cannot run") + " CI is set.", pytrace=False)
    pytest.skip(reason)


@asynccontextmanager
async def chromium(*flags: str) -> AsyncIterator[Browser]:
    """Headless Chromium with :data:`CHROMIUM_FLAGS` and ``flags`` (skips, or fails under
    CI, without it). Playwright starts it on a new, empty user-data directory of its own
    (and deletes it after), so no profile of the machine is read."""
    if shutil.which(CHROMIUM) is None:
        _missing(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.async_api import async_playwright
    except ImportError as exc:
        _missing(f"no playwright package ({exc})")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_FLAGS, *flags]
        )
        try:
            yield cast("Browser", PolicyBypassing(launched))
        finally:
            await launched.close()


class PolicyBypassing:
    """A browser whose new contexts bypass the pages' Content-Security-Policy unless told
    ``bypass_csp=False`` (see the module doc); anything else is the browser's."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser

    async def new_context(self, **options: Any) -> BrowserContext:
        options.setdefault("bypass_csp", True)
        return await self._browser.new_context(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    """One headless Chromium for the run."""
    async with chromium() as launched:
        yield launched


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser) -> AsyncIterator[Page]:
    """A page in a new browser context (its own cookies and storage), closed after the test."""
    context = await browser.new_context()
    try:
        yield await context.new_page()
    finally:
        await context.close()
