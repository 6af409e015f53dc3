"""Whole games at the browser table, in real Chromium: several people at one table (the
others AI), each choosing their cards by tapping them; one of them on a phone with touch.
Every frame each socket receives is recorded: no seat ever receives a card of another
seat's hand."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from engine.cards import parse_cards
from tests.web.helpers import DESKTOP, PHONE, SUITED, play_out, ready, record_frames, served

if TYPE_CHECKING:
    from playwright.async_api import Browser

WORDED = frozenset({"text", "log", "standingText", "strings", "name"})  # words, not cards


def _suited_outside_hand(value: Any, key: str = "") -> list[str]:
    """Suited cards ("8h") anywhere in a frame but its own ``me.hand`` and ``me.received``
    (the tribute it was paid: its own cards too; and the fields of words, where "4s" is the
    plural of 4)."""
    if key in WORDED or key in ("hand", "received"):
        return []
    if isinstance(value, dict):
        return [card for k, v in value.items() for card in _suited_outside_hand(v, k)]
    if isinstance(value, list):
        return [card for v in value for card in _suited_outside_hand(v, key)]
    return SUITED.findall(value) if isinstance(value, str) else []


@pytest.mark.asyncio(loop_scope="session")
async def test_three_people_play_a_whole_game_by_tapping_their_cards_and_none_sees_another_hand(
    browser: Browser, tmp_path: Path
) -> None:
    people = {0: "济南", 2: "青岛", 4: "烟台"}
    async with served(tmp_path, people, seed=11) as local:
        contexts = {
            0: await browser.new_context(**DESKTOP, locale="zh-CN"),
            2: await browser.new_context(**DESKTOP, locale="en-US"),
            4: await browser.new_context(**PHONE, locale="zh-CN"),
        }
        try:
            pages = {seat: await ctx.new_page() for seat, ctx in contexts.items()}
            frames = {seat: record_frames(page) for seat, page in pages.items()}
            for seat, page in pages.items():
                await page.goto(local.link(seat))
            for page in pages.values():
                await ready(page)
            done = await asyncio.gather(
                *(play_out(page, touch=seat == 4) for seat, page in pages.items())
            )
            live = local.service.tables.get(local.table_id)
            assert live.series_id is not None
            record = await local.store.export_series_record(live.series_id)
        finally:
            for ctx in contexts.values():
                await ctx.close()
    # each person played, and by tapping (the plays went through the play button)
    for seat_done in done:
        assert "play" in seat_done
    game = record["games"][0]
    dealt = [Counter(str(c) for c in parse_cards(hand)) for hand in game["hands"]]
    assert game["actions"], "the game was played"
    for seat, received in frames.items():
        states = [f for f in received if f["t"] == "state"]
        assert states, f"seat {seat} got states"
        for frame in received:
            assert not _suited_outside_hand(frame), (seat, frame["t"])
            me = frame.get("me")
            if frame["t"] != "state" or me is None:
                continue
            assert me["seat"] == seat
            held = Counter(me["hand"])
            assert not held - dealt[seat], f"seat {seat} was sent cards it was not dealt"
        # the last state is the game as it ended, as the record says
        assert states[-1]["table"]["playing"] is False
