"""The browser table as a person meets it, in real Chromium: the phone layout in both
languages, a reload and a dropped connection mid-game, a spectator, a refused play."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.service.errors import REFUSALS
from bot.text.langs import LANGS, LANGUAGE_TAGS
from bot.web.local import user_of
from engine.cards import RANK_LETTERS
from tests.web.helpers import (
    APP,
    DESKTOP,
    PHONE,
    WAIT,
    answer,
    question,
    ready,
    record_frames,
    served,
    tap_cards,
    wait_asked_or_over,
)
from tests.web.test_web_game import _suited_outside_hand

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

CJK = re.compile(r"[\u4e00-\u9fff]")

# the boxes of the page's parts, and for each card of the hand whether a tap at its corner
# (where its index shows) reaches that card
LAYOUT = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const cards = [...document.querySelectorAll('#hand .card')];
  return {
    width: innerWidth, height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    seats: [...document.querySelectorAll('#seats .seat')].map(box),
    bar: box(document.getElementById('bar')),
    controls: box(document.getElementById('controls')),
    buttons: [...document.querySelectorAll('#buttons button')].map(box),
    hand: box(document.getElementById('hand')),
    cards: cards.map(box),
    reachable: cards.map((c) => { const r = c.getBoundingClientRect();
      return document.elementFromPoint(r.left + 4, r.top + 4)?.closest('.card') === c; }),
  };
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and (b["top"] < a["bottom"])
    )


def _inside(a: dict[str, float], width: float, height: float) -> bool:
    return a["left"] >= 0 and a["top"] >= 0 and a["right"] <= width and a["bottom"] <= height


async def _start(local: Any, *pages: Page) -> None:
    """Start the series and wait until the pages show it playing (before, a page shows the
    table not playing, which the helpers read as a game over)."""
    await local.start()
    for page in pages:
        await page.wait_for_function(f"{APP}.playing === 'true'", timeout=WAIT, polling=10)


async def _until_turn(page: Page) -> dict[str, Any]:
    """Answer the questions before the page's first turn with a play to make; that turn."""
    step = 1
    while await wait_asked_or_over(page):
        asked = await question(page)
        if asked is not None and asked["kind"] == "turn" and asked["plays"]:
            return asked
        await answer(page, step)
        step += 1
    raise AssertionError("the game ended before a turn of this person")


async def _shown(page: Page) -> dict[str, Any]:
    """What the page shows of the seat: its hand (sorted), its question's token, the
    version of the state."""
    return await page.evaluate(
        "({hand: [...window.gouji.state.me.hand].sort(), token: document.getElementById('app')"
        ".dataset.token, seat: document.getElementById('app').dataset.seat})"
    )


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
@pytest.mark.asyncio(loop_scope="session")
async def test_on_a_phone_the_whole_hand_and_the_table_fit_and_every_card_can_be_tapped(
    browser: Browser, tmp_path: Path, locale: str
) -> None:
    async with served(tmp_path, {0: "济南"}, seed=3) as local:
        context = await browser.new_context(**PHONE, locale=locale)
        try:
            page = await context.new_page()
            await page.goto(local.link(0))
            await ready(page)
            await _start(local, page)
            await page.wait_for_function(f"{APP}.asking !== ''", timeout=WAIT, polling=10)
            await page.wait_for_timeout(100)  # the hand's columns settle (no animation)
            shown = await page.evaluate(LAYOUT)
            assert await page.get_attribute("#app", "data-lang") == locale[:2]
            assert len(shown["cards"]) == 36, "the whole dealt hand shows"
            # nothing scrolls: the page is the viewport
            assert shown["scrollWidth"] <= shown["width"] == 390
            assert shown["scrollHeight"] <= shown["height"] == 844
            for card in shown["cards"]:
                assert _inside(card, 390, 844), card
            assert all(shown["reachable"]), "a card is covered where it is tapped"
            parts = [shown["bar"], *shown["seats"], *shown["buttons"], shown["hand"]]
            assert all(_inside(part, 390, 844) for part in parts)
            for i, a in enumerate(parts):
                for b in parts[i + 1 :]:
                    assert not _overlap(a, b), (a, b)
            # a tap chooses a card, a second tap puts it back
            hand = await page.evaluate("window.gouji.state.me.hand")
            letter = hand[0][0]
            await tap_cards(page, letter, touch=True)
            assert await page.evaluate("window.gouji.state.selected.size") == 1
            box = shown["cards"][
                await page.evaluate(
                    "[...document.querySelectorAll('#hand .card')].findIndex(c => c.classList.contains('sel'))"
                )
            ]
            await page.touchscreen.tap(box["left"] + 4, box["top"] + 4)
            await page.wait_for_function("window.gouji.state.selected.size === 0", timeout=WAIT)
        finally:
            await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_a_reload_mid_game_returns_to_the_same_seat_question_and_hand(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path, {2: "青岛"}, seed=5) as local:
        context = await browser.new_context(**DESKTOP)
        try:
            page = await context.new_page()
            await page.goto(local.link(2))
            await ready(page)
            await _start(local, page)
            asked = await _until_turn(page)
            before = await _shown(page)
            assert before["token"] == asked["token"] and before["seat"] == "2"
            await page.reload()
            await ready(page)
            await page.wait_for_function(
                f"{APP}.token === {json.dumps(asked['token'])}", timeout=WAIT, polling=10
            )
            assert await _shown(page) == before
            # and it plays on from there
            assert await answer(page, 1) == "play"
        finally:
            await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_a_socket_dropped_by_the_network_comes_back_to_the_same_seat_and_state(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path, {1: "烟台"}, seed=6) as local:
        context = await browser.new_context(**DESKTOP)
        try:
            page = await context.new_page()
            sockets: list[Any] = []
            page.on("websocket", lambda ws: sockets.append(ws))
            await page.goto(local.link(1))
            await ready(page)
            await _start(local, page)
            asked = await _until_turn(page)
            before = await _shown(page)
            # the server's end of the person's socket goes away
            (conn,) = local.site.hub.tables[local.table_id]
            assert conn.user_id == user_of(1)
            async with page.expect_websocket(timeout=WAIT):
                await conn.ws.close(code=1011)
            await page.wait_for_function(
                f"window.gouji.state.up && {APP}.token === {json.dumps(asked['token'])}",
                timeout=WAIT,
                polling=10,
            )
            assert len(sockets) == 2, "one new socket"
            (again,) = local.site.hub.tables[local.table_id]
            assert again is not conn and again.user_id == user_of(1)
            assert await _shown(page) == before
            assert await answer(page, 1) == "play"
        finally:
            await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_a_spectator_sees_the_table_and_never_a_hand(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path, {0: "济南"}, seed=8, turn_time=600) as local:
        context = await browser.new_context(**DESKTOP, locale="en-US")
        player_context = await browser.new_context(**DESKTOP)
        try:
            watcher = await context.new_page()
            frames = record_frames(watcher)
            await watcher.goto(local.link(None))
            await ready(watcher)
            player = await player_context.new_page()
            await player.goto(local.link(0))
            await ready(player)
            await _start(local, player, watcher)
            answered = 0
            for step in range(8):
                if not await wait_asked_or_over(player):
                    break
                answered += bool(await answer(player, step))
            assert answered >= 3, "the game went on while the spectator watched"
            assert await watcher.get_attribute("#app", "data-seat") == "watching"
            assert await watcher.locator("#hand .card").count() == 0
            assert await watcher.locator("#seats .seat").count() == 6
            # acting is refused, in the watcher's language
            reply = await watcher.evaluate(
                """() => new Promise((done) => {
                    const ws = window.gouji.socket.ws;
                    const id = window.gouji.socket.send({t: 'act', verb: 'pass'});
                    ws.addEventListener('message', (e) => { const m = JSON.parse(e.data);
                        if (m.id === id) done(m); });
                })"""
            )
            assert reply["t"] == "refused" and reply["text"] == "You are watching: you cannot play."
        finally:
            await context.close()
            await player_context.close()
    states = [f for f in frames if f["t"] == "state"]
    assert len(states) > 3
    for frame in frames:
        assert frame.get("me") is None
        assert not _suited_outside_hand(frame), frame


@pytest.mark.asyncio(loop_scope="session")
async def test_a_refused_play_is_answered_in_the_players_language_and_changes_nothing(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path, {0: "济南"}, seed=4) as local:
        context = await browser.new_context(**DESKTOP, locale="zh-CN")
        try:
            page = await context.new_page()
            await page.goto(local.link(0))
            await ready(page)
            await _start(local, page)
            asked = await _until_turn(page)
            before = await _shown(page)
            live = local.service.tables.get(local.table_id)
            actions = len(live.running_game.actions)
            held = {card[0] for card in before["hand"]}
            missing = next(letter for letter in RANK_LETTERS if letter not in held)
            # a play of a card the seat does not hold, sent as a changed client would
            reply = await page.evaluate(
                """([cards, token]) => new Promise((done) => {
                    const ws = window.gouji.socket.ws;
                    const id = window.gouji.socket.send({t: 'act', verb: 'play', cards, token});
                    ws.addEventListener('message', (e) => { const m = JSON.parse(e.data);
                        if (m.id === id) done(m); });
                })""",
                [missing, asked["token"]],
            )
            assert reply["t"] == "refused"
            # the words are the service's refusal in Chinese, as a slash command gets it
            try:
                await local.service.act(live, user_of(0), "play", missing, token=asked["token"])
            except REFUSALS as exc:
                expected = local.site.requests.refusal(live, exc, "zh")
            else:
                raise AssertionError("the service took the play")
            assert reply["text"] == expected and CJK.search(expected)
            # nothing changed: the same question, the same hand, no action recorded
            assert await _shown(page) == before
            assert local.service.views.question_token(live) == asked["token"]
            assert len(live.running_game.actions) == actions
            # a tapped selection that is no play: the button says so and cannot be pressed
            await page.evaluate("window.gouji.state.selected.clear()")
            plays = set(asked["plays"])
            pair = next(
                (
                    c[0] * 2
                    for c in before["hand"]
                    if c[0] * 2 not in plays and sum(1 for d in before["hand"] if d[0] == c[0]) >= 2
                ),
                None,
            )
            if pair is not None:
                await tap_cards(page, pair)
                await page.wait_for_function(
                    "document.getElementById('play').dataset.legal === 'false'", timeout=WAIT
                )
                assert await page.is_disabled("#play")
                assert "不是能出的牌" in await page.inner_text("#play")
        finally:
            await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_the_language_button_goes_round_the_languages_the_server_speaks(
    browser: Browser, tmp_path: Path
) -> None:
    """Each press of the language button shows the page in the next of the server's
    languages (bot.text.langs.LANGS, in order), and the page says which (``<html lang>``)."""
    async with served(tmp_path, {0: "济南"}, seed=3) as local:
        context = await browser.new_context(**DESKTOP, locale="zh-CN")
        try:
            page = await context.new_page()
            await page.goto(local.link(0))
            await ready(page)
            order = [*LANGS[LANGS.index("zh") :], *LANGS[: LANGS.index("zh")]]
            for lang in [*order[1:], order[0]]:
                await page.click("#lang")
                await page.wait_for_function(
                    f"document.getElementById('app').dataset.lang === {json.dumps(lang)}",
                    timeout=WAIT,
                    polling=10,
                )
                tag = await page.evaluate("document.documentElement.lang")
                assert tag == LANGUAGE_TAGS[lang]
        finally:
            await context.close()
