"""A whole game played from the Activity inside the fake Discord, in real Chromium: alice on a
desktop and bo on a phone press "Open the table" (on the table message, on his DM
controller) and open the Activity through the Discord client harness (the real SDK's
handshake, AUTHORIZE, the code exchanged, AUTHENTICATE, the session), four AI players fill
the table, chen (in the Activity, not seated) watches. bo answers a stretch of his questions
from the DM controller and comes back to the Activity; alice reloads mid-game; Discord's
proxy drops every socket once. After every action the Activity shows the seat's question and
hand, the public table the channel's message is drawn from, and the message names the
person the Activity shows asked; every frame each Activity
received is recorded: no seat is sent another's cards, the spectator none."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.text.catalog import text
from engine.cards import parse_cards
from tests.activity.conftest import OPEN, DiscordTable, Opened
from tests.e2e.gouji_helpers import next_person
from tests.web.helpers import APP, WAIT, answer, question, ready
from tests.web.test_web_and_discord import _dm_answer, _page_shows
from tests.web.test_web_game import _suited_outside_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")

DM_STRETCH = range(3, 6)  # bo's questions answered from the DM controller
RELOAD_AT, DROP_AT = 4, 9  # the action after which alice reloads, the proxy drops the sockets


async def _agrees_with_the_table(opened: Opened, bot: Any, live: Any) -> None:
    """The Activity shows the public table as the service has it now (what the channel's
    table message is drawn from): each seat's cards left and who is to act."""
    view = await bot.service.views.public_view(live)
    version = await opened.view.evaluate("window.gouji.state.v")
    await opened.view.wait_for_function(
        "(counts) => { const t = window.gouji.state.table;"
        " return t && JSON.stringify(t.seats.map(s => s.cards)) === JSON.stringify(counts); }",
        arg=[seat.cards_left for seat in view.table.seats],
        timeout=WAIT,
        polling=10,
    )
    shown = await opened.view.evaluate("window.gouji.state.table.toAct")
    if live.playing:
        assert sorted(shown) == sorted(view.to_act), (version, shown, view.to_act)


async def _message_names_the_asked(fake: Any, bot: Any, live: Any, user: Any) -> None:
    """The channel's table message, as the bot last edited it, ends on the line saying that
    ``user`` is asked — the person the Activity shows asked."""

    waiting = [text(lang, "ctl_wait", who="").strip() for lang in ("zh", "en")]

    def names_them() -> bool:
        message = fake.messages.get(bot.service.tables.info(live).message_id or 0)
        last = message.content.splitlines()[-1] if message is not None and message.content else ""
        return last.startswith(tuple(waiting)) and (f"<@{user.id}>" in last or user.name in last)

    await fake.wait_for(names_them, 10, f"the table message naming {user.name} as asked")


async def _seat_shown(opened: Opened) -> str | None:
    return await opened.view.get_attribute("#app", "data-seat")


async def test_a_game_played_from_the_activity_with_a_dm_stretch_a_reload_a_drop_and_a_watcher(
    discord_table: DiscordTable,
) -> None:
    t = discord_table
    fake, bot = t.fake, t.bot
    alice, bo = fake.member("alice"), fake.member("bo")
    await (await alice.slash("gouji", "new", series=False)).original()
    await (await bo.slash("gouji", "join")).original()
    for _ in range(4):
        await (await alice.slash("gouji", "ai", "add")).original()
    await (await alice.slash("gouji", "start")).original()
    live = bot.service.tables.table_in(t.channel_id())
    seats = {
        bot.service.tables.seat_for(live, alice.id): alice,
        bot.service.tables.seat_for(live, bo.id): bo,
    }

    # alice opens it from the table message's button, bo from his DM controller's (an
    # Activity in the DM: his seat), chen from the table message's (he watches)
    channel = t.channel_id()
    table_message = await fake.wait_message(
        lambda m: m.channel_id == channel and m.interaction_id is None and bool(m.attachments),
        15,
    )
    controller = await bo.wait_dm(
        lambda m: any(b.get("custom_id") == OPEN for b in m.buttons()), 10
    )
    at_desk = await t.open(
        "alice", "desktop", instance_id=await t.press_open("alice", table_message)
    )
    on_phone = await t.open("bo", "mobile", instance_id=await t.press_open("bo", controller))
    watcher = await t.open("chen", "desktop", instance_id=await t.press_open("chen", table_message))
    assert on_phone.launch.guild_id is None and at_desk.launch.guild_id == fake.guild_id
    pages = {
        bot.service.tables.seat_for(live, alice.id): at_desk,
        bot.service.tables.seat_for(live, bo.id): on_phone,
    }
    for opened in (at_desk, on_phone, watcher):
        assert await opened.signed() == "in"
        await ready(opened.view)
    for seat, opened in pages.items():
        assert await _seat_shown(opened) == str(seat)
    assert await _seat_shown(watcher) == "watching"

    sides: Counter[str] = Counter()
    bo_asked = step = 0
    while (seat := await next_person(fake, bot, live)) is not None:
        opened, user = pages[seat], seats[seat]
        await _page_shows(opened.view, bot, live, seat)
        for other in (at_desk, on_phone, watcher):
            await _agrees_with_the_table(other, bot, live)
        await _message_names_the_asked(fake, bot, live, user)
        asked = await question(opened.view)
        assert asked is not None and asked["token"] == bot.service.views.question_token(live)
        if user is bo and bo_asked in DM_STRETCH:
            await _dm_answer(fake, bot, bo, live, asked)
            sides["dm"] += 1
        elif await answer(opened.view, step, touch=user is bo):
            sides["activity"] += 1
        bo_asked += user is bo
        step += 1
        if step == RELOAD_AT:  # alice reloads the Activity: she signs in again, same seat
            sockets_before = len(t.proxy.forwarded)
            await at_desk.page.reload()
            assert await at_desk.signed() == "in"
            await ready(at_desk.view)
            assert await _seat_shown(at_desk) == str(bot.service.tables.seat_for(live, alice.id))
            assert len(t.proxy.forwarded) > sockets_before
        if step == DROP_AT:  # every socket through Discord's proxy is dropped: all come back
            await t.proxy.drop_sockets()
            for other in (at_desk, on_phone, watcher):
                await other.view.wait_for_function(
                    f"window.gouji.state.up && {APP}.up === 'true'", timeout=WAIT, polling=10
                )
            assert [await _seat_shown(o) for o in (at_desk, on_phone, watcher)] == [
                *(str(s) for s in pages),
                "watching",
            ]
    for seat, opened in pages.items():
        await _page_shows(opened.view, bot, live, seat)
    assert sides["dm"] == len(DM_STRETCH) and sides["activity"] >= 6, sides
    assert await watcher.view.locator("#hand .card").count() == 0

    record = await bot.service.store.export_series_record(live.series_id)
    game = record["games"][0]
    dealt = [Counter(str(c) for c in parse_cards(hand)) for hand in game["hands"]]
    for seat, opened in [*pages.items(), (None, watcher)]:
        states = [f for f in opened.frames if f["t"] == "state"]
        assert states, f"{opened.name} got states"
        assert states[-1]["table"]["playing"] is False
        for frame in opened.frames:
            assert not _suited_outside_hand(frame), (opened.name, json.dumps(frame)[:200])
            me = frame.get("me")
            if frame["t"] != "state" or me is None:
                continue
            assert seat is not None and me["seat"] == seat, opened.name
            assert not Counter(me["hand"]) - dealt[seat], f"{opened.name} got cards not dealt"
    # every request of each Activity went to its one origin, Discord's proxy
    for opened in (at_desk, on_phone, watcher):
        hosts = {urlsplit(url).netloc for url in opened.requests}
        assert hosts == {urlsplit(t.proxy.origin).netloc}, hosts
