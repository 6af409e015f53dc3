"""The fake Discord drives a small real discord.py bot end to end.

The bot below is not Gouji: it is the smallest bot that uses every Discord feature the
Gouji bot will (a ``/gouji`` command group with options and autocomplete, ephemeral and
deferred answers, PNG attachments, DMs, persistent buttons, select menus).
"""

from __future__ import annotations

import asyncio
import io
import re
import zlib
from collections.abc import AsyncIterator
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import (
    BotRunner,
    CommandUnavailable,
    FakeDiscord,
    UserActionError,
    running_fake,
)


def tiny_png(shade: int) -> bytes:
    """A valid 2x1 grey PNG whose pixel value is ``shade`` (so two images differ)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = (2).to_bytes(4, "big") + (1).to_bytes(4, "big") + bytes([8, 0, 0, 0, 0])
    pixels = zlib.compress(bytes([0, shade, shade]))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


CARDS = ["KK", "K", "KKK", "QQ", "33"]
SUBCOMMANDS = ["play", "hand", "slow", "table", "dm", "sleepy", "admin", "clean", "rename"]


class SeatButton(discord.ui.DynamicItem[discord.ui.Button], template=r"seat:(?P<seat>[0-5])"):
    """A persistent button: works for any message, also after a restart."""

    def __init__(self, seat: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {seat}", custom_id=f"seat:{seat}"))
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> SeatButton:
        return cls(int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.name} sits at {self.seat}"
        )


class ModeSelect(discord.ui.View):
    """A non-persistent view with a select menu."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="mode",
        options=[discord.SelectOption(label=m, value=m) for m in ("fast", "slow", "bie-san")],
        max_values=2,
    )
    async def choose(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"modes: {','.join(select.values)}", ephemeral=True)

    @discord.ui.button(label="Refresh", custom_id="refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # type 6: acknowledge, change nothing yet
        await interaction.edit_original_response(content="pick modes (refreshed)")


class NameModal(discord.ui.Modal, title="Your table name"):
    """A modal with one text input."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="Name", custom_id="table_name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table named {self.name.value}", ephemeral=True)


def seat_row() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for seat in range(3):
        view.add_item(SeatButton(seat))
    return view


def make_group(bot: TestBot) -> app_commands.Group:
    gouji = app_commands.Group(name="gouji", description="Play Gouji")
    admin = app_commands.Group(name="admin", description="Table admin", parent=gouji)

    @gouji.command(name="play", description="Play cards")
    @app_commands.describe(cards="The cards, e.g. KK")
    async def play(interaction: discord.Interaction, cards: str, note: str | None = None) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} played {cards} [{interaction.locale.value}]"
        )

    @play.autocomplete("cards")
    async def cards_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if c.startswith(current)]

    @gouji.command(name="hand", description="Show my hand")
    async def hand(interaction: discord.Interaction) -> None:
        file = discord.File(io.BytesIO(tiny_png(10)), filename="hand.png")
        await interaction.response.send_message("your hand", file=file, ephemeral=True)

    @gouji.command(name="slow", description="Think, then answer")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("thought about it")
        await interaction.edit_original_response(content="thought about it (edited)")
        assert (await interaction.original_response()).content == "thought about it (edited)"
        extra = await interaction.followup.send("one more thing", wait=True)
        await interaction.followup.edit_message(extra.id, content="one more thing (edited)")

    @gouji.command(name="clean", description="Post and delete")
    async def clean(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("temporary")
        await interaction.delete_original_response()
        assert isinstance(interaction.channel, discord.TextChannel)
        gone = await interaction.channel.send("gone soon")
        await gone.delete()
        await interaction.followup.send("cleaned", ephemeral=True)

    @gouji.command(name="rename", description="Name the table")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @gouji.command(name="table", description="Post the table")
    async def table(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        msg = await channel.send(
            "table", file=discord.File(io.BytesIO(tiny_png(50)), "table.png"), view=seat_row()
        )
        bot.table_message = msg
        png = await msg.attachments[0].read()
        bot.seen_bytes.append(png)
        await msg.edit(
            content="table v2", attachments=[discord.File(io.BytesIO(tiny_png(200)), "table.png")]
        )
        await channel.send("pick modes", view=ModeSelect())
        await interaction.followup.send("posted", ephemeral=True)

    @gouji.command(name="dm", description="DM me my hand")
    async def dm(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send(
                "your hand", file=discord.File(io.BytesIO(tiny_png(99)), "dm.png"), view=seat_row()
            )
        except discord.Forbidden as exc:
            bot.errors.append(exc)
            await interaction.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @gouji.command(name="sleepy", description="Answers too late")
    async def sleepy(interaction: discord.Interaction) -> None:
        await asyncio.sleep(bot.sleep_for)
        try:
            await interaction.response.send_message("late")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @admin.command(name="reset", description="Reset a seat")
    @app_commands.describe(seat="Seat number", who="Player")
    async def reset(
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 0, 5],
        who: discord.User | None = None,
    ) -> None:
        kind = type(who).__name__ if who else "-"
        await interaction.response.send_message(
            f"reset seat {seat} for {who.name if who else 'nobody'} ({kind})"
        )

    return gouji


class TestBot(commands.Bot):
    """A minimal bot on unprivileged intents."""

    __test__ = False

    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = intents.presences = intents.message_content = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            guild_ready_timeout=0.05,
        )
        self.table_message: discord.Message | None = None
        self.seen_bytes: list[bytes] = []
        self.errors: list[Exception] = []
        self.seen_messages: list[discord.Message] = []
        self.resumed = asyncio.Event()
        self.sleep_for = 0.0

    async def setup_hook(self) -> None:
        self.tree.add_command(make_group(self))
        self.add_dynamic_items(SeatButton)
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a re-IDENTIFY (Discord's identify rate limit); not here."""

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message)

    async def on_resumed(self) -> None:
        self.resumed.set()


@pytest.fixture
async def runner(fake: FakeDiscord) -> AsyncIterator[BotRunner]:
    async with BotRunner(fake, TestBot) as bot_runner:
        yield bot_runner


def bot_of(runner: BotRunner) -> TestBot:
    bot = runner.client
    assert isinstance(bot, TestBot)
    return bot


async def test_bot_connects_identifies_and_syncs_commands(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    bot = bot_of(runner)
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.member_count == 7 and guild.me is not None
    assert {c.name for c in guild.text_channels} == {"gouji", "general"}
    assert bot.application_id == fake.application_id
    (cmd,) = fake.commands.commands_in(None)
    assert cmd["name"] == "gouji"
    assert {o["name"] for o in cmd["options"]} == set(SUBCOMMANDS)
    (conn,) = fake.gateway.connections
    assert conn.path == "/gateway" and conn.compressor is not None
    assert conn.query["compress"] in ("zlib-stream", "zstd-stream")  # zstd if zstandard is there
    assert conn.opcodes[:2] == [1, 2] or conn.opcodes[:2] == [2, 1]  # heartbeat, identify
    assert fake.unknown_requests == []


async def test_slash_command_in_group_with_option_and_autocomplete(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    bo = fake.member("bo")
    choices = await bo.autocomplete("gouji", "play", "cards", typed="K")
    assert [c["value"] for c in choices] == ["KK", "K", "KKK"]
    rec = await bo.slash("gouji", "play", cards="KK")
    reply = await rec.original()
    assert reply.content == "bo played KK [zh-CN]"
    assert rec.callback_type == 4 and rec.latency is not None and rec.latency >= 0
    assert all(m.can_see(reply) for m in fake.members)
    cached = await fake.wait_for(
        lambda: next((m for m in bot_of(runner).cached_messages if m.id == reply.id), None),
        poll=0.01,
    )
    assert cached.interaction_metadata is not None and cached.interaction_metadata.user.name == "bo"
    with pytest.raises(CommandUnavailable, match="no option"):
        await bo.slash("gouji", "play", card="KK")
    with pytest.raises(CommandUnavailable, match="missing required"):
        await bo.slash("gouji", "play")
    with pytest.raises(CommandUnavailable, match="no subcommand"):
        await bo.slash("gouji", "fly")


async def test_subcommand_group_with_integer_and_user_options(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    alice, fang = fake.member("alice"), fake.member("fang")
    rec = await alice.slash("gouji", "admin", "reset", seat=3, who=fang)
    assert (await rec.original()).content == "reset seat 3 for fang (Member)"
    with pytest.raises(CommandUnavailable, match="out of bounds"):
        await alice.slash("gouji", "admin", "reset", seat=9)


async def test_ephemeral_reply_with_png_is_seen_by_the_invoker_only(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    chen, dana = fake.member("chen"), fake.member("dana")
    rec = await chen.slash("gouji", "hand")
    reply = await rec.original()
    assert reply.ephemeral and reply.content == "your hand"
    assert reply.attachments[0].data == tiny_png(10) and reply.attachments[0].filename == "hand.png"
    assert chen.ephemerals() == [reply]
    assert not dana.can_see(reply) and dana.ephemerals() == []


async def test_defer_followup_and_edit_original(fake: FakeDiscord, runner: BotRunner) -> None:
    dana = fake.member("dana")
    rec = await dana.slash("gouji", "slow")
    second = await rec.followup(1)
    original = await rec.original()
    await fake.wait_for(lambda: len(rec.responses) == 5)
    kinds = ["callback", "followup", "edit_original", "followup", "edit_followup"]
    assert [r.kind for r in rec.responses] == kinds
    assert rec.responses[0].type == 5
    assert original.content == "thought about it (edited)"
    assert [v.content for v in original.history] == ["", "thought about it"]
    assert rec.followup_ids[0] == original.id  # the first follow-up fills the "thinking" message
    assert second.content == "one more thing (edited)" and not second.ephemeral
    assert [v.content for v in second.history] == ["one more thing"]


async def test_channel_message_with_png_then_edit_replacing_attachment(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    erlang = fake.member("erlang")
    rec = await erlang.slash("gouji", "table", channel="general")
    done = await rec.original()
    assert done.content == "posted" and done.ephemeral
    table = await fake.wait_message(lambda m: m.content.startswith("table"))
    assert erlang.can_see(table) and table.channel_id == fake.channel("general").id
    assert table.content == "table v2" and table.edited_iso is not None
    assert [a.data for a in table.attachments] == [tiny_png(200)]
    assert table.attachments[0].image().getpixel((1, 0)) == 200
    assert [a.data for a in table.history[0].attachments] == [tiny_png(50)]
    assert bot_of(runner).seen_bytes == [tiny_png(50)]  # the bot downloaded it from the fake CDN
    assert [b["label"] for b in table.buttons()] == ["Seat 0", "Seat 1", "Seat 2"]


async def test_dm_with_file(fake: FakeDiscord, runner: BotRunner) -> None:
    fang, alice = fake.member("fang"), fake.member("alice")
    rec = await fang.slash("gouji", "dm")
    assert (await rec.original()).content == "sent"
    dm = await fang.wait_dm(lambda m: bool(m.attachments))
    assert dm.attachments[0].data == tiny_png(99) and fang.latest_dm(with_attachment=True) == dm
    assert alice.dms() == [] and not alice.can_see(dm)


async def test_button_in_dm_and_persistent_button_after_restart(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    alice = fake.member("alice")
    await (await alice.slash("gouji", "dm")).original()
    dm = alice.latest_dm()
    assert dm is not None
    clicked = await alice.click(dm, label="Seat 1")
    await fake.wait_for(lambda: clicked.acknowledged)
    assert dm.content == "alice sits at 1" and clicked.callback_type == 7

    await (await alice.slash("gouji", "table")).original()
    table = next(m for m in alice.visible_messages() if m.content == "table v2")
    await runner.restart()
    assert len(fake.gateway.sessions) == 2
    rec = await alice.click(table, "seat:2")
    await rec.response()
    assert table.content == "alice sits at 2"
    assert fake.unknown_requests == []


async def test_select_menu(fake: FakeDiscord, runner: BotRunner) -> None:
    bo = fake.member("bo")
    await (await bo.slash("gouji", "table")).original()
    menu = next(m for m in bo.visible_messages() if m.content == "pick modes")
    with pytest.raises(UserActionError):
        await bo.select(menu, "mode", ["fast", "slow", "bie-san"])
    rec = await bo.select(menu, "mode", ["fast", "bie-san"])
    assert (await rec.original()).content == "modes: fast,bie-san"


async def test_refused_dm_reaches_bot_as_forbidden_50007(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    chen = fake.member("chen")
    chen.refuse_dms()
    rec = await chen.slash("gouji", "dm")
    assert (await rec.original()).content == "cannot DM you (50007)"
    (error,) = bot_of(runner).errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert chen.dms() == []


async def test_rate_limit_is_waited_out_and_retried(fake: FakeDiscord, runner: BotRunner) -> None:
    fake.faults.rate_limit("POST", "/channels/{channel_id}/messages", times=2, retry_after=0.05)
    rec = await fake.member("dana").slash("gouji", "table")
    assert (await rec.original()).content == "posted"
    posts = [
        r
        for r in fake.requests
        if r.route == "/channels/{channel_id}/messages" and r.method == "POST"
    ]
    assert [r.status for r in posts] == [429, 429, 200, 200]


async def test_server_error_is_retried(fake: FakeDiscord, runner: BotRunner) -> None:
    fake.faults.server_error("POST", "/channels/{channel_id}/messages", times=1)
    rec = await fake.member("bo").slash("gouji", "table")
    assert (await rec.original(timeout=10)).content == "posted"
    posts = [
        r.status
        for r in fake.requests
        if r.route == "/channels/{channel_id}/messages" and r.method == "POST"
    ]
    assert posts == [500, 200, 200]


async def test_gateway_drop_resumes_and_replays_missed_events(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    bo = fake.member("bo")
    async with fake.gateway.outage():
        rec = await bo.slash("gouji", "play", cards="33")
        await asyncio.sleep(0)
        assert rec.dispatched_at is None  # nobody is connected to receive it
    assert (await rec.original()).content == "bo played 33 [zh-CN]"
    await asyncio.wait_for(bot_of(runner).resumed.wait(), 5)
    first, second = fake.gateway.connections
    assert second.path == "/resume" and 6 in second.opcodes and 2 not in second.opcodes
    assert len(fake.gateway.sessions) == 1


async def test_abrupt_drop_also_resumes(fake: FakeDiscord, runner: BotRunner) -> None:
    assert await fake.gateway.drop(abrupt=True)
    rec = await fake.member("alice").slash("gouji", "play", cards="K")
    assert (await rec.original()).content == "alice played K [en-US]"
    assert fake.gateway.connections[-1].path == "/resume"


async def test_invalidated_session_makes_the_client_identify_again(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    fake.gateway.invalidate()
    await fake.gateway.drop()
    await fake.wait_for(lambda: len(fake.gateway.sessions) == 2, 5, "a new session")
    first, refused, fresh = fake.gateway.connections
    assert refused.opcodes[-1] == 6 and refused.sent[-1] == 9  # RESUME -> INVALID_SESSION
    assert 2 in fresh.opcodes and {"READY", "GUILD_CREATE"} <= set(fresh.sent)
    rec = await fake.member("fang").slash("gouji", "play", cards="QQ")
    assert (await rec.original()).content == "fang played QQ [zh-CN]"


async def test_late_answer_gets_unknown_interaction(fake: FakeDiscord, runner: BotRunner) -> None:
    fake.interaction_deadline = 0.05
    bot_of(runner).sleep_for = 0.2
    rec = await fake.member("dana").slash("gouji", "sleepy")
    await fake.wait_for(lambda: bot_of(runner).errors, 5, "the bot's error", poll=0.01)
    (error,) = bot_of(runner).errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert not rec.acknowledged


async def test_unknown_route_answers_404_and_is_recorded(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    route = discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=fake.guild_id)
    with pytest.raises(discord.NotFound):
        await runner.client.http.request(route)
    (req,) = fake.unknown_requests
    assert req.path == f"/guilds/{fake.guild_id}/bans" and req.status == 404


async def test_endpoints_are_restored_after_the_fake(fake: FakeDiscord) -> None:
    assert discord.http.Route.BASE == fake.api_base
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == fake.gateway_url


def test_endpoints_are_discords_outside_a_fake() -> None:
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"


async def test_deleted_messages_vanish_for_users_but_stay_recorded(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    alice = fake.member("alice")
    rec = await alice.slash("gouji", "clean")
    done = await rec.followup(0)
    assert done.content == "cleaned" and done.ephemeral
    gone = [
        m for m in fake.messages_in(fake.channel("gouji").id, include_deleted=True) if m.deleted
    ]
    assert sorted(m.content for m in gone) == ["gone soon", "temporary"]
    assert not any(alice.can_see(m) for m in gone)
    assert [r.kind for r in rec.responses] == ["callback", "delete_original", "followup"]


async def test_modal_is_shown_and_submitted(fake: FakeDiscord, runner: BotRunner) -> None:
    dana = fake.member("dana")
    rec = await dana.slash("gouji", "rename")
    await rec.response()
    assert (
        rec.callback_type == 9 and rec.modal is not None and rec.modal["title"] == "Your table name"
    )
    with pytest.raises(UserActionError):
        await fake.member("bo").submit_modal(rec, {"table_name": "x"})
    with pytest.raises(UserActionError, match="length"):
        await dana.submit_modal(rec, {"table_name": "x" * 21})  # max_length=20
    submitted = await dana.submit_modal(rec, {"table_name": "Red Dragons"})
    assert (await submitted.original()).content == "table named Red Dragons"


async def test_deferred_update_then_edit_original_changes_the_component_message(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    erlang = fake.member("erlang")
    await (await erlang.slash("gouji", "table")).original()
    menu = next(m for m in erlang.visible_messages() if m.content == "pick modes")
    rec = await erlang.click(menu, label="Refresh")
    await fake.wait_for(lambda: len(rec.responses) == 2)
    assert rec.callback_type == 6 and menu.content == "pick modes (refreshed)"


async def test_bot_receives_its_channel_messages_over_the_gateway(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    await (await fake.member("bo").slash("gouji", "table")).original()
    bot = bot_of(runner)
    await fake.wait_for(lambda: len(bot.seen_messages) >= 2, 5, "MESSAGE_CREATE", poll=0.01)
    public = [m for m in fake.messages.values() if not m.ephemeral]
    assert [m.id for m in bot.seen_messages] == [m.id for m in public]
    assert [m.content for m in bot.seen_messages] == ["table v2", "pick modes"]  # cache updated
    assert bot.latency < 5  # heartbeats are ACKed


async def test_reconnect_request_resumes(fake: FakeDiscord, runner: BotRunner) -> None:
    assert await fake.gateway.request_reconnect()
    await asyncio.wait_for(bot_of(runner).resumed.wait(), 5)
    rec = await fake.member("chen").slash("gouji", "play", cards="KKK")
    assert (await rec.original()).content == "chen played KKK [zh-CN]"


async def test_bad_command_sync_is_refused_like_discord(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    bad = [{"name": "Bad Name", "description": "x", "type": 1}]
    with pytest.raises(discord.HTTPException) as info:
        await runner.client.http.bulk_upsert_global_commands(fake.application_id, payload=bad)
    assert info.value.status == 400 and info.value.code == 50035
    assert [c["name"] for c in fake.commands.commands_in(None)] == ["gouji"]


async def test_rate_limited_interaction_callback_is_retried(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    fake.faults.rate_limit(
        "POST", "/interactions/{interaction_id}/{token}/callback", retry_after=0.05
    )
    rec = await fake.member("fang").slash("gouji", "play", cards="K")
    assert (await rec.original()).content == "fang played K [zh-CN]"
    statuses = [r.status for r in fake.requests if r.route and r.route.startswith("/interactions/")]
    assert statuses == [429, 200]


async def test_fake_and_bots_leave_nothing_running() -> None:
    baseline = asyncio.all_tasks()
    clients: list[discord.Client] = []
    async with running_fake() as server:
        async with BotRunner(server, TestBot) as bot_runner:
            clients.append(bot_runner.client)
            await (await server.member("alice").slash("gouji", "play", cards="K")).original()
            clients.append(await bot_runner.restart())
        assert all(c.closed_at is not None for c in server.gateway.connections)
    assert all(c.is_closed() and cast(Any, c.http)._HTTPClient__session.closed for c in clients)
    for _ in range(5):
        await asyncio.sleep(0)
    leftover = {t for t in asyncio.all_tasks() - baseline if not t.done()}
    assert leftover == set()
    assert discord.http.Route.BASE == "https://discord.com/api/v10"


async def test_user_messages_reach_the_bot_with_content_only_when_allowed(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    bot, fang = bot_of(runner), fake.member("fang")
    await fang.say("hello all")
    await fang.say(f"<@{fake.bot_user.id}> deal me in")
    await fang.say("psst", channel="dm")
    await fake.wait_for(lambda: len(bot.seen_messages) == 3, 5, "three messages", poll=0.01)
    assert [m.content for m in bot.seen_messages] == [
        "",
        f"<@{fake.bot_user.id}> deal me in",
        "psst",
    ]
    assert {m.author.id for m in bot.seen_messages} == {fang.id}
    assert isinstance(bot.seen_messages[2].channel, discord.DMChannel)
    assert fake.messages_in(fake.channel("gouji").id)[0].content == "hello all"  # recorded in full
