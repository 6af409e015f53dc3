"""A tournament's table in the browser (issue #54, "What people see"): a round's table sends,
in its state's public part, the event, its round and its standings — the figures of
``/gouji tournament standings`` (the same fold over the store's results), people named as
the table's seats are, in the socket's language; a table of no event sends none. In
Chromium on a phone, the bar shows the event and a tap on it opens the standings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import pytest

from bot.service.tables import TableService
from bot.service.tickets import Tickets
from bot.service.tournaments import TableStandings, TournamentService
from bot.text.catalog import text
from bot.web.app import WebTable
from bot.web.hub import LocalNames
from bot.web.identity import TicketGate
from data import Store
from data.tournaments import Tournament
from engine.tournament import Config, Format, Standing
from tests.bot.service.helpers import FakeClock, make_service
from tests.bot.service.test_tournaments import (
    GUILD,
    HOME,
    ORGANISER,
    Posts,
    Threads,
    play_round,
    show_up_and_hand_over,
)
from tests.web.helpers import PHONE, WAIT, ready, served

if TYPE_CHECKING:
    from playwright.async_api import Browser

PEOPLE = list(range(1001, 1013))  # 12: two tables a round
NAMES = {p: f"P{p - 1000}" for p in PEOPLE}


async def _first_state(port: int, ticket: str, lang: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http:
        url = f"ws://127.0.0.1:{port}/ws?t={ticket}&lang={lang}"
        async with http.ws_connect(url) as ws:
            while True:
                frame = await ws.receive_json(timeout=10)
                if frame["t"] == "state":
                    return frame


async def _started(
    store: Store, name: str, *, rounds: int, seed: int
) -> tuple[TableService, TournamentService, Tournament]:
    """A Swiss event of :data:`PEOPLE` started over real tables: its first round seated."""
    service, _ = make_service(store, clock=FakeClock())
    events = TournamentService(service, Threads(), Posts())
    config = Config(name=name, format=Format.SWISS, rounds=rounds, seed=seed, gap=0, show_up=60)
    event = await events.create(GUILD, HOME, ORGANISER, config)
    for p in PEOPLE:
        await events.join(GUILD, p)
    await events.start(GUILD, ORGANISER)
    return service, events, event


async def test_a_round_s_table_sends_the_event_s_standings_and_a_table_of_no_event_none(
    store: Store,
) -> None:
    service, events, event = await _started(store, "周赛", rounds=3, seed=54)
    leaver = PEOPLE[3]
    lives = await show_up_and_hand_over(service, events, PEOPLE)  # round 1
    await events.leave(GUILD, leaver)
    for live in lives:
        await service.settle(live)
    await events.step(event.id)  # round 2 seated at once (no gap)
    state = await store.load_tournament(event.id)
    assert state.tournament.round == 2
    table_id = next(t.table_id for t in state.tables if t.round == 2 and t.table_id)
    board = await events.board(GUILD)  # what /gouji tournament standings shows
    assert any(s.points for s in board.lines) and board.lines[-1].status == "left"
    other = await service.open_table(GUILD, 777, ORGANISER, {})  # a table of no event

    tickets = Tickets()
    site = WebTable(
        service, TicketGate(tickets), LocalNames(NAMES), events=events.standings_for_table
    )
    port = await site.start()
    try:
        for lang in ("zh", "en"):
            seen = await _first_state(port, tickets.issue(table_id, None, expires=0), lang)
            sent = seen["table"]["event"]
            assert sent["name"] == "周赛" and (sent["round"], sent["rounds"]) == (2, 3)
            assert sent["title"] == text(lang, "web_event_bar", round=2, rounds=3)
            marks = {"left": text(lang, "tournament_pic_left"), "in": ""}
            assert sent["lines"] == [
                {
                    "rank": s.rank,
                    "name": NAMES[s.player],
                    "points": s.points,
                    "rounds": s.rounds,
                    "mark": marks[s.status],
                }
                for s in board.lines
            ]
        assert text("zh", "web_event_bar", round=2, rounds=3) == "比赛 · 第 2/3 轮"
        seen = await _first_state(port, tickets.issue(other.id, None, expires=0), "en")
        assert "event" not in seen["table"]
        # the event over: its tables show it no more
        await events.end(GUILD, ORGANISER)
        assert await events.standings_for_table(table_id) is None
        assert await events.standings_for_table(other.id) is None
    finally:
        await site.stop()
        await service.close()


async def test_the_standings_follow_the_results_as_the_rounds_are_played(store: Store) -> None:
    service, events, event = await _started(store, "x", rounds=2, seed=3)
    first = next(t.table_id for t in (await store.load_tournament(event.id)).tables)
    assert first is not None
    before = await events.standings_for_table(first)
    assert before is not None and (before.round, before.rounds) == (1, 2)
    assert {s.points for s in before.lines} == {0}
    await play_round(service, events, PEOPLE)
    after = await events.standings_for_table(first)  # round 2 now: the same event
    assert after is not None and after.round == 2
    assert after.lines == tuple((await events.board(GUILD)).lines)
    await service.close()


def _line(rank: int, player: int, points: int, rounds: int, status: str = "in") -> Standing:
    return Standing(player, rank, points, rounds, 0, 0, 0, 0, status, 0, rank)


@pytest.mark.asyncio(loop_scope="session")
async def test_on_a_phone_the_bar_shows_the_event_and_a_tap_opens_its_standings(
    browser: Browser, tmp_path: Path
) -> None:
    shown = TableStandings(
        1,
        "周赛",
        2,
        4,
        "running",
        (_line(1, 1, 18, 1), _line(2, 2, 6, 1), _line(3, 3, -6, 1, "left")),
    )

    async def standings(table_id: int) -> TableStandings | None:
        return shown if table_id == local.table_id else None

    async with served(tmp_path, {0: "济南"}, turn_time=600) as local:
        local.names.users.update({1: "一号", 2: "二号", 3: "三号"})
        local.site.hub.events = standings
        context = await browser.new_context(**PHONE, locale="zh-CN")
        try:
            page = await context.new_page()
            await page.goto(local.link(0))
            await ready(page)
            bar = page.locator("#event")
            await bar.wait_for(state="visible", timeout=WAIT)
            assert await bar.text_content() == "周赛 · 比赛 · 第 2/4 轮"
            whole = await bar.evaluate("(b) => b.scrollWidth <= b.clientWidth")
            assert whole, "the event's name and round are cut"
            box = await bar.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            panel = page.locator("#standings")
            assert not await panel.is_visible()
            await bar.tap()
            await panel.wait_for(state="visible", timeout=WAIT)
            rows = await page.eval_on_selector_all(
                "#standings tbody tr",
                "(rows) => rows.map((r) => [...r.cells].map((c) => c.textContent))",
            )
            assert rows[:2] == [["1", "一号", "18", "1", ""], ["2", "二号", "6", "1", ""]]
            assert rows[2][:4] == ["3", "三号", "-6", "1"]
            assert rows[2][4] == text("zh", "tournament_pic_left")
            headers = await page.eval_on_selector_all(
                "#standings thead th", "(cells) => cells.map((c) => c.textContent)"
            )
            assert headers[:4] == [
                text("zh", key)
                for key in (
                    "web_event_rank",
                    "web_event_player",
                    "web_event_points",
                    "web_event_rounds",
                )
            ]
            assert await page.locator("#standings-title").text_content() == "周赛 · 积分榜"
            panel_box = await panel.bounding_box()
            assert panel_box is not None and panel_box["x"] + panel_box["width"] <= 390
            await page.locator("#standings-close").tap()
            await panel.wait_for(state="hidden", timeout=WAIT)
        finally:
            await context.close()
