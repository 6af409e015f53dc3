"""Shared parts of the browser table's tests: a table served on the session's loop, the bot
serving the web table (and the Activity) beside it against the fake Discord, the devices the
pages open on, and a person at a page who answers what the table asks by tapping, as a player
would."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    from playwright.async_api import Error as PlaywrightError
except ImportError:  # the browser fixture skips these tests then
    PlaywrightError = Exception  # type: ignore[misc, assignment]

from bot.service.config import BotConfig
from bot.web.activity import ActivityKeys
from bot.web.app import BesideBot
from bot.web.local import LocalTable
from data import Store
from tests.e2e.gouji_helpers import FastGoujiBot
from tests.fakediscord import BotRunner, FakeDiscord
from tests.pgserver import free_port

if TYPE_CHECKING:
    from playwright.async_api import Page

#: what the page shows once a frame is in: the app's data attributes
APP = "document.getElementById('app').dataset"
#: the game (or series) is over: dealt and no longer playing (before the first deal the
#: table is not playing either; that is no game over)
OVER = "((t) => t !== null && t.started && !t.playing)(window.gouji.state.table)"
#: a finished game's result waits for this page's seat to go on (继续) before the next deal
GO_ON = (
    "((t, me) => t !== null && t.result !== null && me !== null"
    " && t.result.waiting.includes(me.seat))(window.gouji.state.table, window.gouji.state.me)"
)
WAIT = 15_000  # ms: the longest wait for the table (a whole game is far shorter)
PRESS = 3_000  # ms: a tap that cannot happen by then is on a question already over
RANKS = "3456789TJQKA2BR"
SUITED = re.compile(r"\b[3-9TJQKA2][shdc]\b")
#: the browser contexts the pages open in (``browser.new_context(**PHONE)``)
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "reduced_motion": "reduce",
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}


@asynccontextmanager
async def served(
    folder: Path, people: dict[int, str], *, seed: int = 7, **options: Any
) -> AsyncIterator[LocalTable]:
    """A table of the people and AI players (the hint), AI delay 0, served on this loop;
    the series starts at once."""
    local_options = {"series": False, **options}
    async with await Store.open(folder / "web.db") as store:
        local = LocalTable(
            store,
            people,
            options=local_options,
            ai_delay=0,
            rng=random.Random(seed),
            start_now=False,
        )
        async with local:
            yield local


@asynccontextmanager
async def bot_beside_web(
    fake: FakeDiscord,
    db_path: Path,
    *,
    keys: ActivityKeys | None = None,
    seed: int = 5,
    **config: Any,
) -> AsyncIterator[tuple[Any, str]]:
    """The bot against ``fake`` serving the web table beside it on a free port (and the
    Activity, given its ``keys``; ``config``: more :class:`BotConfig` fields): the running bot
    (as ``Any``: the tests reach into its service and store, typed optional until it has
    started) and the web server's address."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = BotConfig(
        token=fake.token,
        db_path=str(db_path),
        guild_id=fake.guild_id,
        ai_delay=0.0,
        refresh_interval=0.05,
        warn_before=0.0,
        web_url=url,
        **config,
    )

    def make() -> FastGoujiBot:
        web = BesideBot(url, "127.0.0.1", port, activity=keys)
        return FastGoujiBot(settings, rng=random.Random(seed), guild_ready_timeout=0.05, web=web)

    async with BotRunner(fake, make) as runner:
        yield runner.client, url


def frame_recorder(frames: list[dict[str, Any]]) -> Callable[[Any], None]:
    """A page's ``websocket`` handler that appends every frame received, parsed, to
    ``frames``."""

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    return on_socket


def record_frames(page: Page) -> list[dict[str, Any]]:
    """Every frame the page's sockets receive, parsed, in order."""
    frames: list[dict[str, Any]] = []
    page.on("websocket", frame_recorder(frames))
    return frames


async def ready(page: Page) -> None:
    """Wait for the first state."""
    await page.wait_for_function(f"{APP}.v !== '0'", timeout=WAIT, polling=10)


async def question(page: Page) -> dict[str, Any] | None:
    """The question the page shows now (what the server sent it)."""
    return await page.evaluate("window.gouji.state.me && window.gouji.state.me.question")


async def wait_asked_or_over(page: Page) -> bool:
    """Wait until the page is asked something or a game's result waits for it to go on
    (True: the game goes on; the question may be over again by the time it is looked at) or
    the game is over (False)."""
    try:
        await page.wait_for_function(
            f"{APP}.asking !== '' || {OVER} || {GO_ON}",
            timeout=WAIT,
            polling=10,
        )
    except PlaywrightError:
        seen = await page.evaluate(
            "JSON.stringify({app: document.getElementById('app').dataset,"
            " toAct: window.gouji.state.table && window.gouji.state.table.toAct,"
            " notice: window.gouji.state.notice})"
        )
        raise AssertionError(f"the page was neither asked nor over: {seen}") from None
    return not await page.evaluate(OVER)


# where each card of the hand is tapped (its top left corner, never covered: its index shows
# there), by rank, in the order they are stacked, unchosen ones only
CARD_SPOTS = """(ranks) => ranks.map(rank => [...document.querySelectorAll(
    `#hand .card[data-rank="${rank}"]:not(.sel)`)].map(card => {
    const box = card.getBoundingClientRect(); return [box.left + 4, box.top + 4]; }))"""


async def tap_at(page: Page, x: float, y: float, *, touch: bool = False) -> None:
    """A real tap (touch) or click (mouse) at a point of the page."""
    if touch:
        await page.touchscreen.tap(x, y)
    else:
        await page.mouse.click(x, y)


async def tap_cards(page: Page, cards: str, *, touch: bool = False) -> None:
    """Choose ``cards`` (rank letters, "77722") by tapping them in the hand."""
    wanted = Counter(RANKS.index(letter) for letter in cards)
    for _ in range(30):  # a busy page may still be drawing the hand (a state just came)
        spots = await page.evaluate(CARD_SPOTS, list(wanted))
        if all(len(p) >= n for (_r, n), p in zip(wanted.items(), spots, strict=True)):
            break
        await page.wait_for_timeout(100)
    for (rank, count), places in zip(wanted.items(), spots, strict=True):
        assert len(places) >= count, f"the hand shows fewer than {count} of rank {rank}"
        for x, y in places[:count]:
            await tap_at(page, x, y, touch=touch)


async def press(page: Page, selector: str, *, touch: bool = False) -> None:
    """Tap a button once it is there and enabled (within :data:`PRESS`), at its middle."""
    found = await page.wait_for_function(
        """(selector) => { const b = document.querySelector(selector);
            if (!b || b.disabled) return null; const r = b.getBoundingClientRect();
            return r.width ? [r.left + r.width / 2, r.top + r.height / 2] : null; }""",
        arg=selector,
        timeout=PRESS,
        polling=10,
    )
    x, y = await found.json_value()
    await tap_at(page, x, y, touch=touch)


async def answer(page: Page, step: int, *, touch: bool = False) -> str:
    """Answer the question open on the page once, as a person: a turn by tapping the
    cards of one of the biggest legal plays (the game is over sooner; or passing every
    third turn it may), a burn
    window with no burn, 还贡 by tapping the cards to return, a yes/no question with its
    "no". Returns the verb used ("" if the question was over before it was answered: a
    burn window an AI closed); waits until the question is over."""
    asked = await question(page)
    if asked is None:
        if await page.evaluate(GO_ON):  # the game's result, read: 继续
            await press(page, "#result-button", touch=touch)
            await page.wait_for_function(f"!({GO_ON})", timeout=WAIT, polling=10)
            return "goon"
        return ""
    token = asked["token"]
    # a refusal still shown from before (another request's) is not this answer's
    stale = await page.evaluate(
        "window.gouji.state.notice.bad ? window.gouji.state.notice.text : null"
    )
    try:
        verb = await _answer(page, asked, step, touch)
    except PlaywrightError:
        if await page.get_attribute("#app", "data-token") != token:
            return ""  # the question ended under the person's finger
        raise
    try:
        await page.wait_for_function(
            f"{APP}.token !== {json.dumps(token)} || (window.gouji.state.notice.bad"
            f" && window.gouji.state.notice.text !== {json.dumps(stale)})",
            timeout=2 * PRESS,
            polling=10,
        )
    except PlaywrightError:
        seen = await page.evaluate(
            "JSON.stringify({app: document.getElementById('app').dataset,"
            " busy: window.gouji.state.busy, sel: [...window.gouji.state.selected],"
            " buttons: [...document.querySelectorAll('#buttons button')].map(b => [b.dataset.verb, b.disabled, b.textContent])})"
        )
        raise AssertionError(f"{verb} changed nothing: {seen}") from None
    refused = await page.evaluate("window.gouji.state.notice")
    if (
        refused["bad"]
        and refused["text"] != stale
        and await page.get_attribute("#app", "data-token") == token
    ):
        raise AssertionError(f"{verb} was refused: {refused['text']} ({asked})")
    return verb


async def _answer(page: Page, asked: dict[str, Any], step: int, touch: bool) -> str:
    kind = asked["kind"]

    async def tap(selector: str) -> None:
        await press(page, selector, touch=touch)

    if kind == "return":
        returnable, count = asked["returnable"], asked["returnCount"]
        cards = "".join(RANKS[rank] * n for rank, n in enumerate(returnable) if n)[:count]
        await tap_cards(page, cards, touch=touch)
        await tap("button[data-verb=return]")
        return "return"
    if kind == "burn":
        await tap("button[data-verb=noburn]")
        return "noburn"
    if kind == "turn":
        plays = asked["plays"]
        if not plays or ("pass" in asked["answers"] and step % 3 == 0):
            verb = "pass" if "pass" in asked["answers"] else asked["answers"][0]
            await tap(f"button[data-verb={verb}]")
            return verb
        await tap_cards(page, max(plays[:12], key=len), touch=touch)
        await tap("#play")
        return "play"
    verb = next(v for v in asked["answers"] if v.startswith("no"))
    await tap(f"button[data-verb={verb}]")
    return verb


async def play_out(page: Page, *, touch: bool = False, limit: int = 400) -> list[str]:
    """Answer every question the page is asked until the game (or series) is over."""
    done: list[str] = []
    while len(done) < limit and await wait_asked_or_over(page):
        verb = await answer(page, len(done), touch=touch)
        if verb:
            done.append(verb)
    return done
