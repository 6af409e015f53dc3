"""One seat from two front ends: the Discord bot (against the fake Discord) serves the
browser table beside it (``GOUJI_WEB_URL``), ``/gouji hand`` gives the player a personal link
to it, and the player answers one question from the DM controller, the next from the
browser, and so on to the end of the game: one seat, one clock, one state — after each
answer both the DM controller and the page show the new question, and the page's hand is
the seat's hand."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.fake_helpers import TIME_SCALE
from tests.e2e.gouji_helpers import next_person, press
from tests.fakediscord import running_fake
from tests.web.helpers import APP, WAIT, answer, bot_beside_web, question, ready

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page


async def _dm_answer(fake: Any, bot: Any, user: Any, live: Any, asked: dict[str, Any]) -> str:
    """Answer ``asked`` (what the page shows) from the DM controller instead."""
    kind, answers = asked["kind"], asked["answers"]
    if kind == "return":
        await press(fake, bot.service, user, live, "return", select=True)
        return "return"
    if kind == "burn":
        verb = "noburn"
    elif kind == "turn":
        if "pass" not in answers and asked["plays"]:
            await press(fake, bot.service, user, live, "play", select=True)
            return "play"
        verb = "pass" if "pass" in answers else answers[0]
    else:
        verb = next(v for v in answers if v.startswith("no"))
    await press(fake, bot.service, user, live, verb)
    return verb


def _offered(user: Any, table_id: int, token: str) -> bool:
    """Whether any DM of ``user`` still has a control of question ``token``."""
    prefix = (f"g:{table_id}:{token}:", f"gs:{table_id}:{token}:")
    return any(
        c.get("custom_id", "").startswith(prefix)
        for msg in user.dms()
        for c in msg.buttons() + msg.selects()
    )


async def _page_shows(page: Page, bot: Any, live: Any, seat: int) -> None:
    """Wait until the page shows the seat's question now and its hand is the seat's."""
    token = bot.service.views.question_token(live)
    await page.wait_for_function(
        f"{APP}.token === {token!r} || {APP}.playing === 'false'", timeout=WAIT, polling=10
    )
    mine = await bot.service.views.private_view(live, seat)
    shown = await page.evaluate("window.gouji.state.me.hand")
    assert sorted(shown) == sorted(mine.hand.split())


@pytest.mark.asyncio(loop_scope="session")
async def test_one_seat_played_from_the_dm_controller_and_the_browser_by_turns(
    browser: Browser, tmp_path: Path
) -> None:
    async with running_fake(time_scale=TIME_SCALE) as fake:
        alice = fake.member("alice")
        async with bot_beside_web(fake, tmp_path / "gouji.db") as (bot, url):
            await (await alice.slash("gouji", "new", series=False)).original()
            await (await alice.slash("gouji", "ai", "add")).original()
            await (await alice.slash("gouji", "start")).original()
            live = bot.service.tables.table_in(fake.channel("gouji").id)
            seat = bot.service.tables.seat_for(live, alice.id)

            shown = await (await alice.slash("gouji", "hand")).original()
            assert shown.ephemeral
            (link,) = [b["url"] for b in shown.buttons() if b.get("url")]
            assert link.startswith(f"{url}/?lang=")
            context = await browser.new_context(viewport={"width": 1280, "height": 800})
            try:
                page = await context.new_page()
                await page.goto(link)
                await ready(page)
                assert await page.get_attribute("#app", "data-seat") == str(seat)
                sides = {"dm": 0, "web": 0}
                step = 0
                while await next_person(fake, bot, live) is not None:
                    await _page_shows(page, bot, live, seat)
                    asked = await question(page)
                    assert asked is not None and asked["token"] == bot.service.views.question_token(
                        live
                    )
                    if step % 2 == 0:
                        await _dm_answer(fake, bot, alice, live, asked)
                        sides["dm"] += 1
                    elif await answer(page, step):
                        sides["web"] += 1
                        # the DM controller no longer offers the question answered on the web
                        await bot.presenter.drain()
                        assert not _offered(alice, live.id, asked["token"])
                    step += 1
                await _page_shows(page, bot, live, seat)
            finally:
                await context.close()
            await bot.presenter.drain()
    assert sides["dm"] >= 3 and sides["web"] >= 3, sides
