"""The fake's part of a Discord Activity (tests/fakediscord/activities.py): OAuth2 codes and
tokens, ``GET /users/@me`` with a Bearer token, activity instances, the LAUNCH_ACTIVITY
answer (type 12) and its rules, and the harness routes standing in for the Discord client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.e2e.fake_helpers import call
from tests.fakediscord import FakeDiscord
from tests.fakediscord.activities import CODE_LIFE

PING = [{"name": "ping", "description": "Ping", "type": 1}]


@pytest.fixture
async def anon(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A session without the bot's token (the person's browser, or the OAuth2 client)."""
    async with aiohttp.ClientSession(fake.api_base + "/") as session:
        yield session


def _form(fake: FakeDiscord, code: str, **changes: str) -> dict[str, str]:
    form = {
        "client_id": str(fake.activities.client_id),
        "client_secret": fake.activities.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    return {**form, **changes}


async def _exchange(anon: aiohttp.ClientSession, form: dict[str, str]) -> tuple[int, Any]:
    return await call(anon, "POST", "/oauth2/token", data=form)


async def test_a_code_is_exchanged_once_for_a_token_of_its_user(
    fake: FakeDiscord, anon: aiohttp.ClientSession
) -> None:
    bo = fake.member("bo")
    code = fake.activities.authorize(bo.id, fake.activities.client_id, ["identify"])
    status, body = await _exchange(anon, _form(fake, code))
    assert status == 200
    assert body["token_type"] == "Bearer" and body["expires_in"] == 604800
    assert body["scope"] == "identify" and body["refresh_token"]
    headers = {"Authorization": f"Bearer {body['access_token']}"}
    status, me = await call(anon, "GET", "/users/@me", headers=headers)
    assert status == 200 and me["id"] == str(bo.id) and me["locale"] == "zh-CN"
    status, again = await _exchange(anon, _form(fake, code))
    assert status == 400 and again["error"] == "invalid_grant"


async def test_a_forged_or_expired_code_is_an_invalid_grant(
    fake: FakeDiscord, anon: aiohttp.ClientSession
) -> None:
    status, body = await _exchange(anon, _form(fake, "made-up"))
    assert status == 400 and body["error"] == "invalid_grant"
    now = [1000.0]
    fake.activities.clock = lambda: now[0]
    code = fake.activities.authorize(fake.member("alice").id)
    now[0] += CODE_LIFE + 1
    status, body = await _exchange(anon, _form(fake, code))
    assert status == 400 and body["error"] == "invalid_grant"
    other_app = fake.activities.authorize(fake.member("alice").id, client_id=42)
    now[0] -= CODE_LIFE + 1
    status, body = await _exchange(anon, _form(fake, other_app))
    assert status == 400 and body["error"] == "invalid_grant"


async def test_a_wrong_client_or_secret_is_an_invalid_client(
    fake: FakeDiscord, anon: aiohttp.ClientSession
) -> None:
    code = fake.activities.authorize(fake.member("alice").id)
    for wrong in ({"client_secret": "guess"}, {"client_id": "1"}):
        status, body = await _exchange(anon, _form(fake, code, **wrong))
        assert status == 401 and body == {"error": "invalid_client"}
    status, body = await _exchange(anon, _form(fake, code, grant_type="client_credentials"))
    assert status == 400 and body["error"] == "unsupported_grant_type"
    status, body = await _exchange(anon, _form(fake, code))  # not used up by the refusals
    assert status == 200


async def test_the_token_route_is_rate_limited_like_the_others(
    fake: FakeDiscord, anon: aiohttp.ClientSession
) -> None:
    fake.faults.rate_limit("POST", "/oauth2/token", times=1, retry_after=2.0)
    code = fake.activities.authorize(fake.member("alice").id)
    async with anon.post("oauth2/token", data=_form(fake, code)) as answer:
        assert answer.status == 429 and "Retry-After" in answer.headers
        assert (await answer.json())["retry_after"] > 0
    assert (await _exchange(anon, _form(fake, code)))[0] == 200


async def test_a_bad_bearer_token_is_unauthorized(
    fake: FakeDiscord, anon: aiohttp.ClientSession
) -> None:
    status, body = await call(anon, "GET", "/users/@me", headers={"Authorization": "Bearer x"})
    assert status == 401 and body["code"] == 0
    status, _ = await call(anon, "GET", "/users/@me")
    assert status == 401


async def _launch(
    fake: FakeDiscord, http: aiohttp.ClientSession, user: str, channel: str = "gouji"
) -> tuple[int, Any]:
    rec = await fake.member(user).slash("ping", channel=channel)
    path = f"/interactions/{rec.id}/{rec.token}/callback"
    return await call(http, "POST", path, json={"type": 12})


async def test_launch_activity_starts_one_instance_per_channel(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.commands.bulk_overwrite(None, PING)
    status, body = await _launch(fake, http, "alice")
    assert status == 200
    instance_id = body["interaction"]["activity_instance_id"]
    assert body["resource"] == {"type": 12, "activity_instance": {"id": instance_id}}
    status, again = await _launch(fake, http, "bo")  # the same channel: joins it
    assert again["interaction"]["activity_instance_id"] == instance_id
    status, elsewhere = await _launch(fake, http, "chen", channel="general")
    assert elsewhere["interaction"]["activity_instance_id"] != instance_id
    path = f"/applications/{fake.application_id}/activity-instances/{instance_id}"
    status, shown = await call(http, "GET", path)
    gouji = fake.channel("gouji")
    assert status == 200
    assert shown == {
        "application_id": str(fake.application_id),
        "instance_id": instance_id,
        "launch_id": shown["launch_id"],
        "location": {
            "id": shown["location"]["id"],
            "kind": "gc",
            "channel_id": str(gouji.id),
            "guild_id": str(fake.guild_id),
        },
        "users": [str(fake.member("alice").id), str(fake.member("bo").id)],
    }
    instance = fake.activities.instance_in(gouji.id)
    assert instance is not None and instance.instance_id == instance_id


async def test_the_last_one_out_ends_the_instance(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.commands.bulk_overwrite(None, PING)
    _, body = await _launch(fake, http, "alice")
    instance_id = body["interaction"]["activity_instance_id"]
    dana = fake.member("dana")
    fake.activities.join(instance_id, dana.id)
    fake.activities.leave(instance_id, fake.member("alice").id)
    path = f"/applications/{fake.application_id}/activity-instances/{instance_id}"
    assert (await call(http, "GET", path))[1]["users"] == [str(dana.id)]
    fake.activities.leave(instance_id, dana.id)
    status, gone = await call(http, "GET", path)
    assert status == 404 and gone["code"] == 0 and "message" in gone


async def test_an_instance_needs_the_bot_token_of_its_application(
    fake: FakeDiscord, http: aiohttp.ClientSession, anon: aiohttp.ClientSession
) -> None:
    fake.commands.bulk_overwrite(None, PING)
    _, body = await _launch(fake, http, "alice")
    instance_id = body["interaction"]["activity_instance_id"]
    path = f"/applications/{fake.application_id}/activity-instances/{instance_id}"
    assert (await call(anon, "GET", path))[0] == 401
    assert (await call(http, "GET", f"/applications/1/activity-instances/{instance_id}"))[0] == 403


async def test_launch_activity_follows_discords_payload_rules(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.commands.bulk_overwrite(None, PING)
    rec = await fake.member("alice").slash("ping")
    path = f"/interactions/{rec.id}/{rec.token}/callback"
    status, body = await call(http, "POST", path, json={"type": 12, "data": {"content": "x"}})
    assert status == 400 and body["code"] == 50035  # type 12 carries no data
    fake.activities.enabled = False
    status, body = await call(http, "POST", path, json={"type": 12})
    assert status == 400 and "Activities" in body["message"]
    fake.activities.enabled = True
    modal = await fake.create_interaction(
        fake.member("bo").user, 5, fake.channel("gouji"), {"custom_id": "m", "components": []}
    )
    status, body = await call(
        http, "POST", f"/interactions/{modal.id}/{modal.token}/callback", json={"type": 12}
    )
    assert status == 400 and body["code"] == 50035  # not for a modal submit
    typed = await fake.create_interaction(
        fake.member("bo").user, 4, fake.channel("gouji"), {"name": "ping", "options": []}
    )
    status, _ = await call(
        http, "POST", f"/interactions/{typed.id}/{typed.token}/callback", json={"type": 12}
    )
    assert status == 400  # nor for an autocomplete
    assert fake.activities.instances == {}
    assert (await call(http, "POST", path, json={"type": 12}))[0] == 200


async def test_the_harness_routes_play_the_discord_client(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.commands.bulk_overwrite(None, PING)
    _, body = await _launch(fake, http, "alice")
    instance_id = body["interaction"]["activity_instance_id"]
    chen = fake.member("chen")
    async with aiohttp.ClientSession(fake.base_url) as harness:
        async with harness.options("/_harness/authorize") as preflight:
            assert preflight.status == 204
            assert preflight.headers["Access-Control-Allow-Origin"] == "*"
        asked = {"user_id": str(chen.id), "client_id": str(fake.application_id)}
        async with harness.post("/_harness/authorize", json={**asked, "scopes": ["identify"]}) as a:
            code = (await a.json())["code"]
        assert fake.activities.codes[code].user_id == chen.id
        token = fake.activities.token_for(chen.id)
        async with harness.post("/_harness/authenticate", json={"access_token": token}) as a:
            shown = await a.json()
        assert shown["user"]["id"] == str(chen.id) and shown["scopes"] == ["identify"]
        assert shown["application"]["id"] == str(fake.application_id)
        async with harness.post("/_harness/authenticate", json={"access_token": "x"}) as a:
            assert a.status == 401
        async with harness.post("/_harness/authorize", json={"user_id": "1"}) as a:
            assert a.status == 400
        joining = {"instance_id": instance_id, "user_id": str(chen.id)}
        async with harness.post("/_harness/activity/join", json=joining) as a:
            assert str(chen.id) in (await a.json())["users"]
        channel = fake.channel("gouji").id
        async with harness.get("/_harness/activity", params={"channel_id": str(channel)}) as a:
            assert (await a.json())["instance_id"] == instance_id
        async with harness.post("/_harness/activity/leave", json=joining) as a:
            assert a.status == 204
        assert str(chen.id) not in fake.activities.instances[instance_id].payload()["users"]
        async with harness.post(
            "/_harness/activity/join", json={**joining, "instance_id": "no"}
        ) as a:
            assert a.status == 404
        async with harness.get("/_harness/activity", params={"channel_id": "1"}) as a:
            assert a.status == 404
    assert fake.unknown_requests == []
