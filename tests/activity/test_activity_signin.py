"""Signing in to the Activity through the Discord client harness, in real Chromium: the SDK's
handshake as Discord answers it; a forged code, a used one, a person not in the instance and
a token for another user are refused, in the person's language, and open no socket; the
harness answers the participants and their updates."""

from __future__ import annotations

import aiohttp
import pytest
import pytest_asyncio

from bot.text.catalog import text
from tests.activity.conftest import DiscordTable, Opened
from tests.fakediscord.activity_harness import PROXY_PREFIX
from tests.web.helpers import WAIT, ready

pytestmark = pytest.mark.asyncio(loop_scope="session")

BOTH_LANGUAGES = "无法进入，请重新打开牌桌。 · Could not sign in: open the table again."


@pytest_asyncio.fixture(loop_scope="session")
async def table(discord_table: DiscordTable) -> DiscordTable:
    """The module's Discord with a table in #gouji that alice opened (and sits at)."""
    t = discord_table
    if t.fake.activities.instance_in(t.channel_id()) is None:
        alice = t.fake.member("alice")
        await (await alice.slash("gouji", "new", series=False)).original()
        t.fake.activities.launch(t.channel_id(), alice.id)
    return t


def _posted(t: DiscordTable, path: str) -> int:
    return sum(1 for method, at in t.proxy.forwarded if method == "POST" and at.endswith(path))


def _sockets(opened: Opened) -> int:
    return len(opened.frames)


async def test_the_sdk_shakes_hands_with_the_client_and_a_seated_player_gets_their_seat(
    table: DiscordTable,
) -> None:
    alice = await table.open("alice", "desktop")
    assert await alice.signed() == "in"
    await ready(alice.view)
    handshake = await alice.harness("handshake")
    assert handshake == {
        "v": 1,
        "encoding": "json",
        "client_id": str(table.fake.application_id),
        "frame_id": alice.launch.frame_id,
        "sdk_version": "2.5.0",
    }
    commands = [m[1]["cmd"] for m in await alice.harness("received") if m[0] == 1]
    assert commands[:2] == ["AUTHORIZE", "AUTHENTICATE"]
    authorize = next(m[1]["args"] for m in await alice.harness("received") if m[0] == 1)
    assert authorize == {
        "client_id": str(table.fake.application_id),
        "response_type": "code",
        "state": "",
        "prompt": "none",
        "scope": ["identify"],
    }
    live = table.bot.service.tables.table_in(table.channel_id())
    seat = table.bot.service.tables.seat_for(live, alice.user_id)
    assert await alice.view.get_attribute("#app", "data-seat") == str(seat)


async def test_a_forged_code_is_refused_in_the_persons_language(table: DiscordTable) -> None:
    dana = await table.open("dana", "desktop", code="forged-by-the-page")
    assert await dana.signed() == "refused"
    assert await dana.notice() == text("en", "web_activity_bad_code")
    assert _sockets(dana) == 0


async def test_a_code_used_once_already_is_refused(table: DiscordTable) -> None:
    erlang = table.fake.member("erlang")
    code = table.fake.activities.authorize(erlang.id)
    async with aiohttp.ClientSession() as http:  # someone else traded it first
        url = f"http://127.0.0.1:{table.proxy.port}{PROXY_PREFIX}/api/token"
        async with http.post(url, json={"code": code}) as first:
            assert first.status == 200
    opened = await table.open("erlang", "mobile", code=code)
    assert await opened.signed() == "refused"
    assert await opened.notice() == text("zh", "web_activity_bad_code")
    assert _sockets(opened) == 0


async def test_a_person_not_in_the_activity_instance_is_refused(table: DiscordTable) -> None:
    before = _posted(table, "/api/session")
    fang = await table.open("fang", "mobile", join=False)
    assert await fang.signed() == "refused"
    assert await fang.notice() == text("zh", "web_activity_not_in_instance")
    assert _posted(table, "/api/session") == before + 1
    assert _sockets(fang) == 0


async def test_a_token_for_another_user_is_refused_by_the_client_and_by_the_server(
    table: DiscordTable,
) -> None:
    alice, dana = table.fake.member("alice"), table.fake.member("dana")
    # the page is handed alice's code: the token it gets is alice's, which Discord's
    # AUTHENTICATE refuses for dana, and the page never asks for a seat with it
    sessions = _posted(table, "/api/session")
    opened = await table.open("dana", "desktop", code=table.fake.activities.authorize(alice.id))
    assert await opened.signed() == "refused"
    assert await opened.notice() == BOTH_LANGUAGES
    sent = await opened.harness("sent")
    assert any(m[1].get("evt") == "ERROR" and m[1]["cmd"] == "AUTHENTICATE" for m in sent)
    assert _posted(table, "/api/session") == sessions
    # and the server, asked straight with the token of dana (not in the instance), refuses
    token = table.fake.activities.token_for(dana.id)
    instance = table.fake.activities.instance_in(table.channel_id())
    assert instance is not None
    table.fake.activities.leave(instance.instance_id, dana.id)  # she closes the Activity
    assert alice.id in instance.users and dana.id not in instance.users
    async with aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{table.proxy.port}{PROXY_PREFIX}/api/session"
        body = {"access_token": token, "instance_id": instance.instance_id}
        async with http.post(url, json=body, headers={"Accept-Language": "en"}) as answer:
            assert answer.status == 403
            refused = await answer.json()
    assert refused == {
        "error": "not_in_instance",
        "message": text("en", "web_activity_not_in_instance"),
    }


async def test_the_client_answers_the_participants_and_tells_when_they_change(
    table: DiscordTable,
) -> None:
    alice = await table.open("alice", "desktop")
    assert await alice.signed() == "in"
    instance = table.fake.activities.instance_in(table.channel_id())
    assert instance is not None
    listed = await alice.frame.evaluate(
        "window.goujiActivity.sdk.commands.getInstanceConnectedParticipants()"
        ".then((r) => r.participants.map((p) => p.id))"
    )
    assert listed == [str(u) for u in instance.users]
    await alice.frame.evaluate(
        """() => { window.seen = [];
            return window.goujiActivity.sdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
                (e) => window.seen.push(e.participants.map((p) => p.id))); }"""
    )
    chen = table.fake.member("chen")
    table.fake.activities.join(instance.instance_id, chen.id)
    await alice.frame.wait_for_function(
        "(id) => window.seen.some((ids) => ids.includes(id))", arg=str(chen.id), timeout=5000
    )
    table.fake.activities.leave(instance.instance_id, chen.id)
    await alice.frame.wait_for_function(
        "(id) => window.seen.length >= 2 && !window.seen.at(-1).includes(id)",
        arg=str(chen.id),
        timeout=5000,
    )


async def test_a_handshake_naming_another_application_is_closed_and_the_page_says_so(
    table: DiscordTable,
) -> None:
    opened = await table.open("chen", "desktop", wait=False, launched_app="1234")
    handle = await opened.frame.wait_for_function(
        "document.getElementById('signin').dataset.state === 'refused'",
        timeout=3 * WAIT,
        polling=100,
    )
    assert await handle.json_value()
    assert await opened.harness("closed") == {"code": 4000, "message": "Invalid Client ID"}
    assert [m[0] for m in await opened.harness("received")] == [0]  # the handshake, no more
    assert await opened.notice() == BOTH_LANGUAGES
