"""The "Open the table" button (bot/discord_bot/launch.py) through the real discord.py client
against the fake Discord: on the table message, the DM controller and ``/gouji hand``, answered
with LAUNCH_ACTIVITY (type 12), which starts the Activity in the channel it was pressed in;
then the person signs in there and gets their seat. Shown only when the Activity is
configured."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.discord_bot.launch import LaunchButton
from bot.text.catalog import text
from tests.e2e.gouji_helpers import gouji_process
from tests.fakediscord import FakeDiscord, MessageRecord, running_fake
from tests.pgserver import free_port
from tests.web.activity_helpers import Served, served

OPEN = "ga:open"


def _opens(msg: MessageRecord) -> bool:
    return any(b.get("custom_id") == OPEN for b in msg.buttons())


async def _table_message(fake: FakeDiscord) -> MessageRecord:
    channel = fake.channel("gouji").id
    return await fake.wait_message(
        lambda m: m.channel_id == channel and m.interaction_id is None and bool(m.attachments),
        15,
    )


async def _start(s: Served) -> None:
    alice = s.fake.member("alice")
    await (await alice.slash("gouji", "ai", "add")).original()
    await (await alice.slash("gouji", "start")).original()


async def test_the_table_messages_button_launches_the_activity_in_its_channel(
    tmp_path: Path,
) -> None:
    async with served(tmp_path, launched=False) as s:
        alice, dana = s.fake.member("alice"), s.fake.member("dana")
        table = await _table_message(s.fake)
        (button,) = [b for b in table.buttons() if b.get("custom_id") == OPEN]
        assert button["label"] == text("zh", "activity_button")  # the channel's language
        pressed = await alice.click(table, OPEN)
        answer = await pressed.response()
        assert answer.type == 12 and pressed.callback_type == 12
        instance = s.fake.activities.instance_in(s.fake.channel("gouji").id)
        assert instance is not None and instance.users == [alice.id]
        assert pressed.activity_instance_id == instance.instance_id
        again = await dana.click(table, OPEN)  # the same channel: she joins it
        assert (await again.response()).type == 12
        assert instance.users == [alice.id, dana.id]
        assert len(s.fake.activities.instances) == 1


async def test_the_dm_controllers_button_opens_the_players_own_seat(tmp_path: Path) -> None:
    async with served(tmp_path, launched=False) as s:
        await _start(s)
        bo = s.fake.member("bo")
        controller = await bo.wait_dm(_opens, 10)
        pressed = await bo.click(controller, OPEN)
        assert (await pressed.response()).type == 12
        dm = bo.dm_channel()
        assert dm is not None
        instance = s.fake.activities.instance_in(dm.id)
        assert instance is not None and instance.payload()["location"]["kind"] == "pm"
        token = await s.token_of("bo")
        status, body = await s.post(
            "/.proxy/api/session", {"access_token": token, "instance_id": instance.instance_id}
        )
        live = s.bot.service.tables.table_in(s.fake.channel("gouji").id)
        assert status == 200 and body["seat"] == live.seat_of(bo.id) is not None
        hello = await s.hello(body["ticket"])
        assert hello["seat"] == body["seat"]


async def test_gouji_hand_offers_the_button_and_gouji_help_says_how(tmp_path: Path) -> None:
    async with served(tmp_path, launched=False) as s:
        await _start(s)
        alice = s.fake.member("alice")
        shown = await (await alice.slash("gouji", "hand")).original()
        assert shown.ephemeral and _opens(shown)
        pressed = await alice.click(shown, OPEN)
        assert (await pressed.response()).type == 12
        assert s.fake.activities.instance_in(s.fake.channel("gouji").id) is not None
        helped = await (await alice.slash("gouji", "help")).original()
        assert text("en", "activity_help") in helped.content  # alice's en-US


async def test_without_the_activity_configured_no_button_is_shown(tmp_path: Path) -> None:
    async with served(tmp_path, activity=False, launched=False) as s:
        await _start(s)
        bo = s.fake.member("bo")
        await bo.wait_dm(lambda m: bool(m.attachments), 10)
        shown = await (await bo.slash("gouji", "hand")).original()
        helped = await (await bo.slash("gouji", "help")).original()
        table = await _table_message(s.fake)
        assert not any(_opens(m) for m in [*bo.dms(), shown, table])
        assert text("zh", "activity_help") not in helped.content


async def test_a_launch_discord_refuses_says_so_to_the_presser(tmp_path: Path) -> None:
    async with served(tmp_path, launched=False) as s:
        s.fake.activities.enabled = False  # not turned on in the Developer Portal
        alice = s.fake.member("alice")
        pressed = await alice.click(await _table_message(s.fake), OPEN)
        answer = await pressed.original()
        assert answer.ephemeral and answer.content == text("en", "activity_failed")
        assert s.fake.activities.instances == {}


def test_the_button_is_one_persistent_item() -> None:
    assert LaunchButton("en").item.custom_id == OPEN
    assert LaunchButton("zh").item.label == text("zh", "activity_button")


async def test_gouji_bot_wires_the_activity_from_its_environment(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    async with running_fake() as fake:
        env = {
            "GOUJI_REFRESH": "0.05",
            "GOUJI_DRAW_PROCESSES": "0",  # pictures drawn in the bot's process: starts sooner
            "GOUJI_WEB_URL": url,
            "GOUJI_WEB_PORT": str(port),
            "GOUJI_ACTIVITY": "1",
            "DISCORD_CLIENT_ID": str(fake.application_id),
            "DISCORD_CLIENT_SECRET": fake.activities.client_secret,
        }
        async with gouji_process(fake, tmp_path / "gouji.db", **env):
            alice = fake.member("alice")
            await (await alice.slash("gouji", "new")).original()
            await (await fake.member("bo").slash("gouji", "join")).original()
            pressed = await alice.click(await _table_message(fake), OPEN)
            assert (await pressed.response()).type == 12
            code = fake.activities.authorize(alice.id)
            async with aiohttp.ClientSession() as http:
                async with http.post(f"{url}/api/token", json={"code": code}) as answer:
                    token = (await answer.json())["access_token"]
                asked = {"access_token": token, "instance_id": pressed.activity_instance_id}
                async with http.post(f"{url}/api/session", json=asked) as answer:
                    body = await answer.json()
            assert answer.status == 200 and body["seat"] == 0 and body["lang"] == "en"
