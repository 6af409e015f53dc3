"""A series at the browser table, in real Chromium: three people (the others AI) choose every
card by tapping, the tribute returns (还贡) too, from the first deal to the series' end; the
series' record is the series they played. Two games: the second brings the tribute and its
returns (seed 3: a person is 头科 or 二科 of the first), more games would repeat them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from engine.record import replay_series
from tests.web.helpers import DESKTOP, PHONE, play_out, ready, served

if TYPE_CHECKING:
    from playwright.async_api import Browser

GAMES = 2  # a series of two games (the table option series_games)


@pytest.mark.asyncio(loop_scope="session")
async def test_a_two_game_series_with_tribute_returns_tapped_in_the_browser(
    browser: Browser, tmp_path: Path
) -> None:
    people = {0: "济南", 1: "青岛", 3: "烟台"}
    async with served(tmp_path, people, seed=3, series=True, series_games=GAMES) as local:
        contexts = {
            0: await browser.new_context(**DESKTOP, locale="zh-CN"),
            1: await browser.new_context(**PHONE, locale="en-US"),
            3: await browser.new_context(**DESKTOP, locale="en-US"),
        }
        try:
            pages = {seat: await ctx.new_page() for seat, ctx in contexts.items()}
            for seat, page in pages.items():
                await page.goto(local.link(seat))
            for page in pages.values():
                await ready(page)
            done = await asyncio.gather(
                *(play_out(page, touch=seat == 1, limit=2000) for seat, page in pages.items())
            )
            live = local.service.tables.get(local.table_id)
            assert live.series is not None and live.running.finished
            assert live.series_id is not None
            record = await local.store.export_series_record(live.series_id)
        finally:
            for ctx in contexts.values():
                await ctx.close()
    returns = sum(verbs.count("return") for verbs in done)
    assert returns >= 1, "a person returned tribute by tapping the cards"
    assert all("play" in verbs for verbs in done)
    replay = replay_series({**record, "games_total": GAMES})
    assert len([g for g in replay["games"] if g["finished"]]) == GAMES
