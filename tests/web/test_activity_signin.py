"""Signing in from a Discord Activity (bot/web/activity.py), against the fake Discord: the
bot serves the web table with the Activity's keys; a person's code is exchanged for a token
(``POST /api/token``), and the token and instance give a ticket (``POST /api/session``) — the
server asks Discord who the token's user is and who is in the instance, never the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.presenter import RecordingPresenter
from bot.service.tables import TableService
from bot.service.tickets import Tickets
from bot.web.activity import LONGEST_WAIT, ActivityKeys, ActivitySignIn, SignInRefused
from bot.web.static_files import ACTIVITY_PAGE, load
from data import Store
from data.claims import Shards, shard_of
from tests.fakediscord import FakeDiscord, running_fake
from tests.web.activity_helpers import served


async def test_a_seated_player_signs_in_to_their_own_seat(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        bo = s.fake.member("bo")
        s.fake.activities.join(s.instance_id, bo.id)
        token = await s.token_of("bo")
        status, body = await s.post(
            "/.proxy/api/session", {"access_token": token, "instance_id": s.instance_id}
        )
        live = s.bot.service.tables.table_in(s.fake.channel("gouji").id)
        assert status == 200
        assert body == {"ticket": body["ticket"], "seat": live.seat_of(bo.id), "lang": "zh"}
        assert body["ticket"].split(".")[:2] == [str(live.id), str(bo.id)]
        hello = await s.hello(body["ticket"])
        assert hello["seat"] == live.seat_of(bo.id) and not hello["watching"]


async def test_a_forged_or_reused_code_is_refused(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        status, body = await s.post("/api/token", {"code": "forged-code"})
        assert status == 400 and body["error"] == "bad_code"
        code = s.fake.activities.authorize(s.fake.member("alice").id)
        assert (await s.post("/api/token", {"code": code}))[0] == 200
        status, body = await s.post(
            "/api/token", {"code": code}, headers={"Accept-Language": "zh-CN"}
        )
        assert status == 400 and body["error"] == "bad_code"
        assert body["message"] == "没能进入牌桌：请在 Discord 里重新打开。"
        for junk in ({}, {"code": 12}, {"code": "a/b"}):
            assert (await s.post("/api/token", junk))[1]["error"] == "bad_code"


async def test_a_person_not_in_the_instance_is_refused(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        token = await s.token_of("bo")  # seated, but has not opened this Activity
        status, body = await s.post(
            "/api/session", {"access_token": token, "instance_id": s.instance_id}
        )
        assert status == 403 and body["error"] == "not_in_instance"
        assert body["message"] == "只有在 Discord 里打开了这一桌的人才能进来。"  # bo's zh-CN


async def test_a_token_plays_its_own_users_seat_whatever_the_page_says(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        alice, bo = s.fake.member("alice"), s.fake.member("bo")
        s.fake.activities.join(s.instance_id, bo.id)
        token = await s.token_of("alice")
        claims = {"access_token": token, "instance_id": s.instance_id, "user_id": str(bo.id)}
        status, body = await s.post("/api/session", claims)
        live = s.bot.service.tables.table_in(s.fake.channel("gouji").id)
        assert status == 200 and body["seat"] == live.seat_of(alice.id) != live.seat_of(bo.id)
        assert body["lang"] == "en"
        assert s.fake.requests[-2].path == "/users/@me"  # asked Discord who it is


async def test_a_participant_without_a_seat_watches(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        dana = s.fake.member("dana")
        s.fake.activities.join(s.instance_id, dana.id)
        token = await s.token_of("dana")
        status, body = await s.post(
            "/api/session", {"access_token": token, "instance_id": s.instance_id}
        )
        assert status == 200 and body["seat"] is None
        assert body["ticket"].split(".")[1] == "s"  # a spectator's ticket, no user in it
        hello = await s.hello(body["ticket"])
        assert hello["seat"] is None and hello["watching"]


async def test_a_bad_token_an_unknown_instance_or_a_channel_without_table_is_refused(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as s:
        status, body = await s.post(
            "/api/session", {"access_token": "stolen", "instance_id": s.instance_id}
        )
        assert status == 401 and body["error"] == "bad_token"
        token = await s.token_of("chen")
        for instance_id in ("i-1-gc-1-1", "../../users/@me", 5):
            status, body = await s.post(
                "/api/session", {"access_token": token, "instance_id": instance_id}
            )
            assert status == 404 and body["error"] == "no_instance"
        chen = s.fake.member("chen")
        elsewhere = s.fake.activities.launch(s.fake.channel("general").id, chen.id)
        status, body = await s.post(
            "/api/session", {"access_token": token, "instance_id": elsewhere.instance_id}
        )
        assert status == 404 and body["error"] == "no_table"
        assert body["message"].startswith("这个频道没有牌桌")


async def test_an_activity_started_from_a_dm_opens_the_table_the_person_sits_at(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as s:
        alice = s.fake.member("alice")
        in_dm = s.fake.activities.launch(s.fake.dm_channel_for(alice.id).id, alice.id)
        assert in_dm.payload()["location"]["kind"] == "pm"
        token = await s.token_of("alice")
        status, body = await s.post(
            "/api/session", {"access_token": token, "instance_id": in_dm.instance_id}
        )
        live = s.bot.service.tables.table_in(s.fake.channel("gouji").id)
        assert status == 200 and body["seat"] == live.seat_of(alice.id)
        dana = s.fake.member("dana")  # seated nowhere: no table for her DM
        lone = s.fake.activities.launch(s.fake.dm_channel_for(dana.id).id, dana.id)
        status, body = await s.post(
            "/api/session",
            {"access_token": await s.token_of("dana"), "instance_id": lone.instance_id},
        )
        assert status == 404 and body["error"] == "no_table"


def _token_calls(fake: FakeDiscord) -> list[int]:
    return [r.status for r in fake.requests if r.path == "/oauth2/token"]


async def test_a_rate_limited_token_exchange_is_retried_after_retry_after(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as s:
        s.fake.faults.rate_limit("POST", "/oauth2/token", times=2, retry_after=0.05)
        await s.token_of("alice")
        assert _token_calls(s.fake) == [429, 429, 200]
        s.fake.faults.rate_limit("POST", "/oauth2/token", times=1, retry_after=LONGEST_WAIT + 5)
        code = s.fake.activities.authorize(s.fake.member("alice").id)
        status, body = await s.post("/api/token", {"code": code})
        assert status == 503 and body["error"] == "unavailable"  # not waited for
        assert _token_calls(s.fake) == [429, 429, 200, 429]


async def test_wrong_client_keys_are_the_servers_fault_not_the_persons(tmp_path: Path) -> None:
    async with served(tmp_path, secret="not-the-secret") as s:
        code = s.fake.activities.authorize(s.fake.member("alice").id)
        status, body = await s.post("/api/token", {"code": code})
        assert status == 503 and body["error"] == "unavailable"


async def test_without_the_activity_configured_the_sign_in_is_off(tmp_path: Path) -> None:
    async with served(tmp_path, activity=False) as s:
        code = s.fake.activities.authorize(s.fake.member("alice").id)
        status, body = await s.post("/api/token", {"code": code})
        assert status == 404 and body["error"] == "off"
        assert _token_calls(s.fake) == []


async def test_every_route_is_served_under_the_proxy_prefix_too(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        for path in ("/healthz", "/.proxy/healthz", "/.proxy/", "/.proxy/static/app.js"):
            async with s.http.get(s.url + path) as answer:
                assert answer.status == 200, path
        for path in ("/activity", "/.proxy/activity"):
            async with s.http.get(s.url + path) as answer:
                assert answer.status == 200, path  # made from index.html (static_files)
        page = tmp_path / "static"
        page.mkdir()
        (page / ACTIVITY_PAGE).write_text("<title>the Activity</title>", encoding="utf-8")
        s.bot.web.site.files.update(load(page))  # the Activity's page, whoever writes it
        launch = "/?instance_id=i-1&frame_id=f&channel_id=2&guild_id=3&platform=desktop"
        for path, shown in (
            ("/activity", True),
            (launch, True),
            ("/.proxy" + launch, True),
            ("/", False),
        ):
            async with s.http.get(s.url + path) as answer:
                assert ("the Activity" in await answer.text()) is shown, path
        async with s.http.post(s.url + "/api/token", data="code=x") as answer:  # not JSON
            assert answer.status == 400 and (await answer.json())["error"] == "bad_code"
        async with s.http.post(s.url + "/api/token", json={"code": "x"}) as answer:
            assert "Set-Cookie" not in answer.headers


@pytest.mark.parametrize("path", ["/api/token", "/.proxy/api/session"])
async def test_the_sign_in_routes_take_only_post(tmp_path: Path, path: str) -> None:
    async with served(tmp_path) as s, s.http.get(s.url + path) as answer:
        assert answer.status == 405


async def _refusal(
    tmp_path: Path, *, other_shard: bool = False, bot_token: str | None = None
) -> SignInRefused:
    """What dana (in the instance of #gouji, seated nowhere) is refused by a sign-in of a
    table service (``other_shard``: of the shard of 2 that is not the server's) with the
    bot token ``bot_token``."""
    async with running_fake() as fake, await Store.open(str(tmp_path / "s.db")) as store:
        shards = Shards(2, (1 - shard_of(fake.guild_id, 2),)) if other_shard else None
        service = TableService(store, RecordingPresenter(), shards=shards)
        keys = ActivityKeys(
            fake.application_id,
            fake.activities.client_secret,
            bot_token or fake.token,
            fake.api_base,
        )
        sign_in = ActivitySignIn(keys, service, Tickets(b"k"))
        dana = fake.member("dana")
        instance = fake.activities.launch(fake.channel("gouji").id, dana.id)
        try:
            with pytest.raises(SignInRefused) as refused:
                await sign_in.session(fake.activities.token_for(dana.id), instance.instance_id)
        finally:
            await sign_in.close()
            await service.close()
        return refused.value


async def test_a_server_on_another_shard_process_is_elsewhere(tmp_path: Path) -> None:
    refused = await _refusal(tmp_path, other_shard=True)
    assert (refused.code, refused.status) == ("elsewhere", 409)


async def test_a_wrong_bot_token_is_the_servers_fault_not_the_persons(tmp_path: Path) -> None:
    refused = await _refusal(tmp_path, bot_token="not-the-bot")
    assert (refused.code, refused.status) == ("unavailable", 503)
