"""The pages' Content-Security-Policy holds in real Chromium (issue #50): the personal
link's page and the Activity's (framed by the Discord client harness, as Discord frames it)
load their scripts, styles, fonts and socket from the server alone and play, and the
browser reports no violation of the policy; the Activity's sign-in waits for a table
coming back and goes on by itself. (These contexts keep the policy, so the tests
wait with function predicates: see tests/web/conftest.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.text.catalog import text
from bot.text.langs import LANGS
from bot.web.activity import ActivityKeys
from tests.fakediscord import running_fake
from tests.fakediscord.activity_harness import ActivityProxy, DiscordClient, Launch, open_activity
from tests.web.conftest import chromium
from tests.web.helpers import APP, DESKTOP, WAIT, bot_beside_web, served
from tests.web.test_web_restoring import coming_back

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page

# every frame of the context notes what the policy blocked (before the page's own scripts)
WATCH = """window.__blocked = [];
document.addEventListener('securitypolicyviolation',
    (e) => window.__blocked.push(`${e.violatedDirective} ${e.blockedURI}`));"""
FONTS_LOADED = """() => [...document.fonts].filter((f) => f.status === 'loaded')
    .map((f) => f.family.replaceAll('"', ''))"""


def _watch(context: BrowserContext, said: list[str]) -> None:
    context.on(
        "console",
        lambda message: (
            said.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )


async def _blocked(where: Any) -> list[str]:
    return list(await where.evaluate("window.__blocked"))


@pytest.mark.asyncio(loop_scope="session")
async def test_the_link_page_plays_under_its_policy(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path, {0: "济南"}) as local:
        context = await browser.new_context(**DESKTOP, locale="zh-CN", bypass_csp=False)
        said: list[str] = []
        _watch(context, said)
        await context.add_init_script(WATCH)
        try:
            page: Page = await context.new_page()
            answer = await page.goto(local.link(0))
            assert answer is not None
            policy = answer.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in policy
            await page.wait_for_function(f"() => {APP}.v !== '0'", timeout=WAIT)
            await local.start()
            await page.wait_for_function(f"() => {APP}.asking !== ''", timeout=WAIT)
            await page.click("#lang")  # a new hello and state, in English
            await page.wait_for_function(f"() => {APP}.lang === 'en'", timeout=WAIT)
            await page.wait_for_function("() => document.fonts.status === 'loaded'", timeout=WAIT)
            assert {"Gouji Cards", "Gouji Sans SC"} <= set(await page.evaluate(FONTS_LOADED))
            assert await page.locator("#hand .card").count() == 36
            assert await _blocked(page) == [] and said == []
        finally:
            await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_the_activity_page_waits_signs_in_and_plays_framed_by_discord_under_its_policy(
    tmp_path: Path,
) -> None:
    async with running_fake() as fake:
        keys = ActivityKeys(
            fake.application_id, fake.activities.client_secret, fake.token, fake.api_base
        )
        async with (
            bot_beside_web(fake, tmp_path / "gouji.db", keys=keys, activity=True) as (bot, url),
            ActivityProxy(fake.application_id, url) as proxy,
            DiscordClient(fake, proxy) as client,
            chromium("--disable-features=LocalNetworkAccessChecks") as browser,
        ):
            alice = fake.member("alice")
            await (await alice.slash("gouji", "new", series=False)).original()
            instance = fake.activities.launch(fake.channel("gouji").id, alice.id)
            launch = Launch(alice.id, instance.instance_id, instance.channel_id, instance.guild_id)
            context = await browser.new_context(**DESKTOP, locale=alice.locale, bypass_csp=False)
            said: list[str] = []
            _watch(context, said)
            await context.add_init_script(WATCH)
            policies: list[str] = []
            context.on(
                "response",
                lambda r: (
                    policies.append(r.headers.get("content-security-policy", ""))
                    if "frame_id=" in r.url
                    else None
                ),
            )
            live = bot.service.tables.table_in(fake.channel("gouji").id)
            try:
                with coming_back(bot.service, live.id):  # a restart restores it: a moment
                    page = await open_activity(context, client, launch)
                    frame = page.frame(name="activity")
                    assert frame is not None
                    await frame.wait_for_function(
                        "(said) => said.includes(document.getElementById('signin').textContent)",
                        arg=[text(lang, "web_activity_restoring") for lang in LANGS],
                        timeout=2 * WAIT,  # the first load: the sign-in, the fonts, a busy CI
                    )
                await frame.wait_for_function(
                    "() => document.getElementById('signin').dataset.state === 'in'",
                    timeout=WAIT,
                )
                await frame.wait_for_function(f"() => {APP}.v !== '0'", timeout=WAIT)
                assert await frame.get_attribute("#app", "data-seat") == "0"
                assert policies and all("https://*.discordsays.com" in p for p in policies)
                assert await _blocked(frame) == [] and said == []
            finally:
                await context.unroute_all(behavior="ignoreErrors")
                await context.close()
