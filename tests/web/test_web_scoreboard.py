"""The series in the browser (issue #52, item 3), in real Chromium: the score in the bar opens
the scoreboard at any time — each game's points and places, each seat's points, each
player's series score (what their profile counts), said what each column is — equal to the
engine's series; once the series is over it shows by itself after the last result, with the
rating changes and 再来一场."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.text.catalog import text
from render.labels import title_name
from tests.web.helpers import APP, DESKTOP, PHONE, WAIT, answer, press, ready, served
from tests.web.helpers import wait_asked_or_over as asked_or_over
from tests.web.test_web_result import _until_result

if TYPE_CHECKING:
    from playwright.async_api import Page

    from bot.web.local import LocalTable

BOARD = """() => [...document.querySelectorAll('#scoreboard tbody tr')].map((tr) => ({
  name: tr.querySelector('.name').textContent,
  games: [...tr.querySelectorAll('td.game')].map((td) => [td.firstChild ? td.firstChild.textContent : '',
                                                          td.querySelector('.place')?.textContent ?? '']),
  total: tr.querySelector('.total').textContent, series: tr.querySelector('.series').textContent,
  rating: tr.querySelector('.rating')?.textContent ?? null}))"""


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


async def _check_board(page: Page, local: LocalTable) -> list[dict[str, Any]]:
    """The scoreboard shown equals the engine's series; the rows."""
    series = local.service.tables.get(local.table_id).running
    rows = await page.evaluate(BOARD)
    names = [s["name"] for s in await page.evaluate("window.gouji.state.table.seats")]
    assert [row["name"] for row in rows] == names
    deals = series.deals
    totals, penalties, scores = series.totals(), series.penalties(), series.player_scores()
    for seat, row in enumerate(rows):
        shown = [tuple(game) for game in row["games"]]
        expected = [
            (_signed(d.score()[seat]), str(d.game.places[seat]) if d.finished and d.game else "")
            for d in deals
        ]
        assert shown == expected, (seat, row)
        assert row["total"] == _signed(totals[seat] + penalties[seat])
        assert row["series"] == _signed(scores[seat])
    return rows


@pytest.mark.parametrize(("locale", "device"), [("zh-CN", PHONE), ("en-US", DESKTOP)])
@pytest.mark.asyncio(loop_scope="session")
async def test_the_scoreboard_any_time_and_at_the_series_end(
    browser: Any, tmp_path: Path, locale: str, device: dict[str, Any]
) -> None:
    lang = locale[:2]
    async with served(tmp_path, {0: "济南"}, seed=6, series=True, series_games=2) as local:
        context = await browser.new_context(**device, locale=locale)
        try:
            page = await context.new_page()
            await page.goto(local.link(0))
            await ready(page)
            await local.start()
            await _until_result(page)
            await press(page, "#result-button", touch=device is PHONE)  # 继续: game 2
            await page.wait_for_function(
                "window.gouji.state.table.number === 2 && window.gouji.state.me.question !== null",
                timeout=WAIT,
            )
            # mid-series: the score in the bar opens the scoreboard
            assert await page.is_hidden("#scoreboard")
            await press(page, "#score", touch=device is PHONE)
            await page.wait_for_function(f"{APP}.scoreboard === 'open'", timeout=WAIT)
            title = text(lang, "web_score_title", played=1, total=2)
            assert await page.text_content("#scoreboard-title") == title
            assert await page.text_content("#scoreboard-note") == text(lang, "web_score_note")
            rows = await _check_board(page, local)
            assert all(row["rating"] is None for row in rows), "no rating before the end"
            await press(page, "#scoreboard-close", touch=device is PHONE)
            await page.wait_for_function(f"{APP}.scoreboard === ''", timeout=WAIT)
            # play the last game out: its result, then the series' end by itself
            step = 0
            while await asked_or_over(page):
                await answer(page, step, touch=device is PHONE)
                step += 1
            await page.wait_for_function(f"{APP}.result === 'open'", timeout=WAIT)
            assert await page.is_hidden("#scoreboard"), "the last game's result comes first"
            await press(page, "#result-button", touch=device is PHONE)  # close it
            await page.wait_for_function(f"{APP}.scoreboard === 'open'", timeout=WAIT)
            assert await page.text_content("#scoreboard-title") == text(lang, "web_score_over")
            rows = await _check_board(page, local)
            ratings = local.service.tables.get(local.table_id).series_ratings
            assert ratings is not None
            for row, rated in zip(rows, ratings[1], strict=True):
                if rated is None:
                    assert not row["rating"]
                else:
                    assert row["rating"].endswith(f"→ {round(rated[1], 1)}"), row
            titles = local.service.tables.get(local.table_id).series_titles
            assert titles is not None
            shown = await page.eval_on_selector_all(
                "#scoreboard tbody td.earned", "(tds) => tds.map((td) => td.textContent)"
            )
            assert shown == [title_name(t, lang) if t else "" for t in titles[1]]
            assert shown[0] and not any(shown[1:]), "the person's title; the AI seats have none"
            # 再来一场: another series
            await press(page, "#scoreboard-go button", touch=device is PHONE)
            await page.wait_for_function(
                "window.gouji.state.table.playing === true", timeout=WAIT, polling=20
            )
            await page.wait_for_function(f"{APP}.scoreboard === ''", timeout=WAIT)
            await page.screenshot(path=str(tmp_path / "again.png"))
        finally:
            await context.close()
