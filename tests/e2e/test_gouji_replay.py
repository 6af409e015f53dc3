"""录像 and 复盘 through Discord: /gouji replay watch steps through a whole finished game (each
press answered at once, its message edited when the picture is drawn), its buttons survive a
restart, quick presses end on the last one; /gouji replay review answers at once and finds a planted
bad play, only for a player of the game, and refuses a game with other table options in
words; a game in progress is refused by both."""

from __future__ import annotations

import json
from pathlib import Path

from engine.replay_steps import Replay
from tests.fakediscord import BotRunner, FakeDiscord
from tests.replay.helpers import edited, shown_step, store_finished_game

from .gouji_helpers import bot_factory

PLANTED = json.loads(
    (Path(__file__).parents[2] / "examples" / "planted.json").read_text(encoding="utf-8")
)
PLANTED_SEAT = 3  # the seat of the one planted bad play (docs/replay.md)


def _button(msg, emoji: str) -> dict:
    return next(b for b in msg.buttons() if b.get("label") == emoji)


async def test_replay_steps_through_the_whole_game_and_survives_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        alice, bo, chen = (fake.member(n) for n in ("alice", "bo", "chen"))
        channel = next(iter(fake.channels))
        refused = await (await chen.slash("gouji", "replay", "watch")).original()
        assert refused.ephemeral and "还没有打完的牌局" in refused.content  # chen: Chinese
        store = runner.client.store
        game_id = await store_finished_game(
            store, fake.guild_id, channel, PLANTED, {0: bo.user.id, PLANTED_SEAT: alice.user.id}
        )
        steps = Replay.from_record(PLANTED).steps

        rec = await chen.slash("gouji", "replay", "watch")  # anyone in the channel
        msg = await rec.original()
        assert not msg.ephemeral and msg.attachments and shown_step(msg) == 0
        assert f"第 0 / {steps} 步" in msg.content  # the channel's language
        assert _button(msg, "⏮").get("disabled") and _button(msg, "◀").get("disabled")
        options = msg.selects()[0]["options"]
        assert 0 < len(options) <= 25
        labels = " | ".join(o["label"] for o in options)
        assert "第 1 轮" in labels and "走科 · " in labels and "alice" in labels

        first = msg.id
        for expected in range(1, steps + 1):  # ▶ to the end, the message edited in place
            msg = await edited(await bo.click(msg, _button(msg, "▶")["custom_id"]))
            assert shown_step(msg) == expected
        assert _button(msg, "▶").get("disabled") and _button(msg, "⏭").get("disabled")
        assert msg.id == first and len(msg.history) >= steps

        msg = await edited(await chen.click(msg, _button(msg, "⏮")["custom_id"]))
        assert shown_step(msg) == 0
        finish = next(o for o in options if o["label"].startswith("走科 · "))
        select_id = msg.selects()[0]["custom_id"]
        msg = await edited(await chen.select(msg, select_id, [finish["value"]]))
        assert shown_step(msg) == int(finish["value"].split(".")[0])

        await runner.restart()  # the old message's buttons still work
        before = shown_step(msg)
        msg = await edited(await alice.click(msg, _button(msg, "◀")["custom_id"]))
        assert shown_step(msg) == before - 1 and msg.attachments

        chosen = await alice.autocomplete("gouji", "replay", "watch", "game", typed="")
        assert chosen and chosen[0]["value"] == str(game_id)
        msg = await (await alice.slash("gouji", "replay", "watch", game=str(game_id))).original()
        assert shown_step(msg) == 0 and not msg.ephemeral


async def test_quick_presses_on_a_replay_the_last_one_wins(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bo = fake.member("bo")
        channel = fake.channels[next(iter(fake.channels))]
        await store_finished_game(
            runner.client.store, fake.guild_id, channel.id, PLANTED, {0: bo.user.id}
        )
        msg = await (await bo.slash("gouji", "replay", "watch")).original()
        select = msg.selects()[0]
        values = [o["value"] for o in select["options"]]
        chosen = [values[-1], values[3], values[-2], values[1], values[5]]
        recs = []
        for value in chosen:  # pressed on the message as shown, before any edit lands
            data = {"custom_id": select["custom_id"], "component_type": 3, "values": [value]}
            recs.append(await fake.create_interaction(bo.user, 3, channel, data, msg))
        desk = runner.client.replays

        def edits() -> list[tuple[float, int]]:
            return [(r.at, rec.id) for rec in recs for r in rec.responses if r.kind != "callback"]

        def answered() -> bool:
            done = all(rec.responses for rec in recs) and desk.presses.waiting == 0
            return done and bool(edits())

        await fake.wait_for(answered, 60, "every press answered")
        assert [rec.responses[0].type for rec in recs] == [6] * len(recs)
        assert max(edits())[1] == recs[-1].id  # the last edit is the newest press's
        assert shown_step(fake.messages[msg.id]) == int(chosen[-1].split(".")[0])


async def test_review_finds_the_planted_play_only_for_a_player(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    factory = bot_factory(fake, tmp_path / "gouji.db", review_budget=600)
    async with BotRunner(fake, factory) as runner:
        alice, bo, chen = (fake.member(n) for n in ("alice", "bo", "chen"))
        channel = next(iter(fake.channels))
        store = runner.client.store
        users = {0: bo.user.id, PLANTED_SEAT: alice.user.id}
        game_id = await store_finished_game(store, fake.guild_id, channel, PLANTED, users)
        playing = await store_finished_game(
            store, fake.guild_id, channel, PLANTED, users, finish=False
        )

        refused = await (await chen.slash("gouji", "replay", "review")).original()
        assert refused.ephemeral and "只有这局的玩家" in refused.content  # chen: Chinese
        refused = await (
            await alice.slash("gouji", "replay", "review", game=str(playing))
        ).original()
        assert refused.ephemeral and "not over" in refused.content
        refused = await (
            await alice.slash("gouji", "replay", "watch", game=str(playing))
        ).original()
        assert refused.ephemeral and "not over" in refused.content

        # a game under house rules is reviewed like any other (贡牌 biggest plays the same)
        options = {**PLANTED, "options": {"tribute_cards": "biggest"}}
        other_rules = await store_finished_game(store, fake.guild_id, channel, options, users)
        tops = []
        for reviewed in (game_id, other_rules):
            rec = await alice.slash("gouji", "replay", "review", game=str(reviewed))
            assert (await rec.response()).type == 5  # at once, "thinking", only alice sees it
            assert "Reviewing" in (await rec.original()).content

            def answer(rec=rec):
                return fake.messages[rec.original_message_id]

            await fake.wait_for(lambda: "Reviewing" not in answer().content, 120, "the review")
            msg = answer()
            assert msg.ephemeral and msg.attachments
            tops.append(msg.content.splitlines()[1])
        top = tops[0]
        assert (
            top.startswith("**1.** step 11 (leading)")
            and "play 3 + three 2s + small joker + big joker (6 cards)" in top
        ), msg.content
        assert tops[1] == top
        button = msg.buttons()[0]
        shown = await (await alice.click(msg, button["custom_id"])).original()
        assert shown.ephemeral and shown_step(shown) == 11 and shown.attachments
        stepped = await edited(await alice.click(shown, _button(shown, "▶")["custom_id"]))
        assert stepped.id == shown.id and stepped.ephemeral and shown_step(stepped) == 12
