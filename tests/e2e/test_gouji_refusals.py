"""Bad input through Discord: each gets a short ephemeral reply in the caller's language
saying what to do, and nothing changes. Also: closed DMs, and a restart in the middle of a
game."""

from __future__ import annotations

from pathlib import Path

from bot.discord_bot.client import make_bot
from bot.service.config import BotConfig
from bot.text.catalog import text
from data import Store
from data.claims import Shards
from tests.fakediscord import BotRunner, FakeDiscord
from tests.web.test_web_restoring import coming_back

from .gouji_helpers import acted, bot_factory, find_prompt

PEOPLE = ("alice", "bo", "chen", "dana")  # alice, dana: English; bo, chen: Chinese


async def _reply(rec) -> str:
    msg = await rec.original()
    assert msg.ephemeral, f"a refusal is ephemeral: {msg.content!r}"
    return msg.content


async def _seat_table(fake: FakeDiscord) -> list:
    users = [fake.member(n) for n in PEOPLE]
    await (await users[0].slash("gouji", "new", turn_time=120)).original()
    for user in users[1:]:
        await (await user.slash("gouji", "join")).original()
    await (await users[0].slash("gouji", "ai", "add")).original()
    return users


async def _answer_prompts_until_play(fake: FakeDiscord, bot, live, users) -> None:
    """Everyone says no to declaring (and revolting) with the DM buttons."""
    while live.game is None or live.game.phase != "play":
        await fake.wait_for(
            lambda: any(not live.is_ai(s) for s in live.series.to_act), 10, "a question", poll=0.01
        )
        seat = next(s for s in live.series.to_act if not live.is_ai(s))
        verb = {"declare": "nodeclare", "revolt": "norevolt"}[live.game.phase]
        await fake.wait_for(
            lambda u=users[seat], v=verb: find_prompt(u, live.id, v)[0], 10, "the DM"
        )
        user = users[seat]
        msg, custom_id = find_prompt(user, live.id, verb)
        await acted(await user.click(msg, custom_id))
    await fake.wait_for(lambda: bot.service.quiet(live), 10, "the AI seats", poll=0.01)


async def test_bad_input_gets_an_ephemeral_reply_and_changes_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        erlang = fake.member("erlang")
        assert "没有牌桌" in await _reply(await erlang.slash("gouji", "play", cards="KK"))
        users = await _seat_table(fake)
        alice, bo = users[0], users[1]
        assert "只有开桌的" in await _reply(await bo.slash("gouji", "start"))
        assert "管理频道" in await _reply(await bo.slash("gouji", "end"))
        assert "管理服务器" in await _reply(await bo.slash("gouji", "config", language="en"))
        assert "/gouji join" in await _reply(await erlang.slash("gouji", "leave"))
        await (await alice.slash("gouji", "start")).original()
        live = bot.service.tables.table_in(fake.channel("gouji").id)
        await _answer_prompts_until_play(fake, bot, live, users)
        await fake.wait_for(
            lambda: any(not live.is_ai(s) for s in live.running.to_act),
            10,
            "a person's turn",
            poll=0.01,
        )
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        actor = users[seat]
        idle = next(u for i, u in enumerate(users) if i != seat and u.locale.startswith("en"))
        log_before = await bot.store.get_actions(live.game_row)
        hand_before = bot.service.views.hand_cards(live, seat)

        not_turn = await _reply(await idle.slash("gouji", "play", cards="3"))
        assert (
            not_turn.startswith("Not your turn")
            and f"seat {seat}" in not_turn
            and actor.name in not_turn
        )
        unknown = await _reply(await actor.slash("gouji", "play", cards="XYZ"))
        assert "XYZ" in unknown and ("KK" in unknown)
        not_held = await _reply(await actor.slash("gouji", "play", cards="RRRRRRRR"))
        assert "八张大王" in not_held and "/gouji hand" in not_held, "cards in words"
        assert "RRRRRRRR" not in not_held
        not_seated = await _reply(await erlang.slash("gouji", "pass"))
        assert "/gouji join" in not_seated
        assert "正在打" in await _reply(await bo.slash("gouji", "again"))

        assert await bot.store.get_actions(live.game_row) == log_before
        assert bot.service.views.hand_cards(live, seat) == hand_before
        # every refusal was seen by its caller only
        for user in [*users, erlang]:
            for msg in user.ephemerals():
                assert msg.visible_to == user.id


async def test_closed_dms_are_told_once_and_the_hand_command_shows_the_hand(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        users = await _seat_table(fake)
        dana = users[3]
        dana.refuse_dms()
        await (await users[0].slash("gouji", "start")).original()
        live = bot.service.tables.table_in(fake.channel("gouji").id)
        notice = await fake.wait_message(
            lambda m: "/gouji hand" in m.content and f"<@{dana.id}>" in m.content
        )
        assert not notice.ephemeral
        await fake.wait_for(
            lambda: live.seats[3].dm_refused, 5, "the refusal to be stored", poll=0.01
        )
        assert (await bot.store.get_seats(live.id))[3].dm_refused
        rec = await dana.slash("gouji", "hand")
        msg = await rec.original()
        assert msg.ephemeral and msg.attachments[0].filename == "hand.png"
        await bot.presenter.drain()
        channel = fake.channel("gouji").id
        said = [
            m for m in fake.messages_in(channel) if "/gouji hand" in m.content and not m.ephemeral
        ]
        notices = [m for m in said if not m.notified]  # the others: her questions' mentions
        assert len(notices) == 1
        refused = [r for r in fake.requests if r.status == 403]
        assert len(refused) == 1, "after the first refusal the bot stops trying"


async def test_a_restart_in_the_middle_of_a_game_carries_on(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        users = await _seat_table(fake)
        await (await users[0].slash("gouji", "start")).original()
        bot = runner.client
        channel = fake.channel("gouji").id
        live = bot.service.tables.table_in(channel)
        await _answer_prompts_until_play(fake, bot, live, users)
        for _ in range(5):
            await fake.wait_for(
                lambda: (
                    any(not live.is_ai(s) for s in live.running.to_act) and bot.service.quiet(live)
                ),
                10,
                "a turn",
                poll=0.01,
            )
            seat = next(s for s in live.running.to_act if not live.is_ai(s))
            user = users[seat]
            await fake.wait_for(lambda u=user: find_prompt(u, live.id, "playhint")[0], 10, "the DM")
            msg, custom_id = find_prompt(user, live.id, "playhint")
            await acted(await user.click(msg, custom_id))
        await fake.wait_for(lambda: bot.service.quiet(live), 10, "quiet", poll=0.01)
        await bot.presenter.drain()
        hands = [bot.service.views.hand_cards(live, s) for s in range(6)]
        waiting = live.running.to_act
        table_message = live.table.message_id
        assert table_message is not None, "the table message was posted"
        old_prompt = (
            next(m for m in reversed(users[waiting[0]].dms()) if m.buttons())
            if waiting[0] < 4
            else None
        )

        await runner.restart()
        bot = runner.client
        again = bot.service.tables.table_in(channel)
        assert [bot.service.views.hand_cards(again, s) for s in range(6)] == hands
        assert again.running.to_act == waiting
        assert again.deadline is not None
        if old_prompt is not None:  # a DM button from before the restart still works
            _, custom_id = find_prompt(users[waiting[0]], again.id, "hint")
            await acted(await users[waiting[0]].click(fake.messages[old_prompt.id], custom_id))
            hint = fake.messages[old_prompt.id]
            assert hint.attachments and "💡" in hint.content, "the hint shows in the controller"
        await bot.presenter.drain()
        await fake.wait_for(
            lambda: fake.messages[table_message].edited_at is not None, 5, "the table redrawn"
        )
        assert again.table.message_id == table_message, "the same table message is edited"


async def test_a_table_whose_log_does_not_replay_is_marked_broken_in_its_channel(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "gouji.db"
    async with BotRunner(fake, bot_factory(fake, db)) as runner:
        users = await _seat_table(fake)
        await (await users[0].slash("gouji", "start")).original()
        live = runner.client.service.tables.table_in(fake.channel("gouji").id)
        game_id = live.game_row
        await runner.stop()
        async with await Store.open(db) as store:  # damage the log while the bot is down
            await store.append_action(game_id, "0 play RRRRRRRR")
        await runner.start()
        broken = text("zh", "table_broken")  # the reason (it may quote a hand) is logged only
        notice = await fake.wait_message(lambda m: m.content == broken)
        assert notice.channel_id == fake.channel("gouji").id and not notice.ephemeral
        reply = await (await users[1].slash("gouji", "play", cards="3")).original()
        assert reply.ephemeral and "/gouji new" in reply.content


async def test_a_process_without_shard_0_sends_dm_controllers_that_point_to_the_hand_command(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Discord delivers presses in DMs to shard 0 only: a process running other shards sends
    the DM controller without controls (they would never reach it) and says to play with
    /gouji hand, whose controller in the channel does reach it."""
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        bot.presenter.dm_presses = False  # as make_bot sets it for GOUJI_SHARDS=1 of 2
        users = await _seat_table(fake)
        await (await users[0].slash("gouji", "start")).original()
        live = bot.service.tables.table_in(fake.channel("gouji").id)
        await fake.wait_for(
            lambda: any(not live.is_ai(s) for s in live.running.to_act), 10, "a question", poll=0.01
        )
        user = users[next(s for s in live.running.to_act if not live.is_ai(s))]
        await fake.wait_for(lambda: bool(user.dms()), 10, "the DM controller")
        dm = user.dms()[-1]
        assert not dm.buttons() and not dm.selects()
        assert "/gouji hand" in dm.content and f"<#{live.table.channel_id}>" in dm.content
        hand = await (await user.slash("gouji", "hand")).original()
        assert hand.ephemeral and hand.buttons(), "the hand command's controller has them"


def test_only_a_process_running_shard_0_takes_dm_presses() -> None:
    def presses(spec: str | None) -> bool:
        shards = Shards.parse(2, spec) if spec else None
        config = BotConfig(token="t", db_path=":memory:", shards=shards)
        return make_bot(config).presenter.dm_presses

    assert presses(None) and presses("0") and presses("0-1")
    assert not presses("1")


async def test_a_table_coming_back_says_so_to_a_dm_press_and_to_the_hand_command(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """While a restart restores the table (or its holder's lease runs out), a DM press and
    /gouji hand are told it is coming back — not that the channel has no table — and once
    it is served the same press plays."""
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        users = await _seat_table(fake)
        await (await users[0].slash("gouji", "start")).original()
        channel = fake.channel("gouji").id
        live = bot.service.tables.table_in(channel)
        await fake.wait_for(
            lambda: any(not live.is_ai(s) for s in live.running.to_act), 10, "a question", poll=0.01
        )
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        user = users[seat]
        verb = {"declare": "nodeclare", "revolt": "norevolt"}[live.running_game.phase]
        await fake.wait_for(lambda: find_prompt(user, live.id, verb)[0], 10, "the DM")
        msg, custom_id = find_prompt(user, live.id, verb)
        lang = "zh" if user.locale.startswith("zh") else "en"
        coming = text(lang, "table_restoring")
        with coming_back(bot.service, live.id):
            assert await _reply(await user.slash("gouji", "hand")) == coming
            press = await user.click(msg, custom_id)

            def said() -> list[str]:
                return [  # a callback's content is in its data, a follow-up's in itself
                    str((r.payload.get("data") or r.payload).get("content") or "")
                    for r in press.responses
                ]

            await fake.wait_for(lambda: coming in said(), 10, "the press answered", poll=0.01)
            assert not any(text(lang, "no_table") in s for s in said())
        await acted(await user.click(fake.messages[msg.id], custom_id))
        await fake.wait_for(
            lambda: seat not in live.running.to_act or live.running_game.phase == "play",
            10,
            "the press played once the table is back",
            poll=0.01,
        )
