"""录像 and 复盘 through Discord: /gouji replay steps through a whole finished game, its
buttons survive a restart; /gouji review finds a planted bad play, only for a player of the
game; a game in progress is refused by both."""

from __future__ import annotations

import json
import re
from pathlib import Path

from data import ProfileUpdate, Store
from engine.replay_steps import Replay
from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import bot_factory

PLANTED = json.loads(
    (Path(__file__).parents[2] / "examples" / "planted.json").read_text(encoding="utf-8")
)
PLANTED_SEAT = 3  # the seat of the one planted bad play (docs/replay.md)


async def _store_game(
    store: Store, guild: int, channel: int, record: dict, users: dict[int, int], finish: bool = True
) -> int:
    """A game played in ``channel``, stored as the bot stores one; finished (with its
    players' results) unless ``finish`` is False. Its id."""
    table = await store.create_table(guild, channel, users[0], {})
    series = await store.start_series(table.id, record.get("options", {}))
    game = await store.start_game(series.id, record["seed"], record["hands"])
    actions = record["actions"] if finish else record["actions"][:20]
    await store.append_actions(game.id, actions)
    if finish:
        places = Replay.from_record(record).final.places
        updates = [ProfileUpdate(u, 0, places[seat]) for seat, u in users.items()]
        await store.record_game_result(guild, game.id, updates, {"places": list(places)})
    return game.id


def _button(msg, emoji: str) -> dict:
    return next(b for b in msg.buttons() if b.get("label") == emoji)


def _step(msg) -> int:
    """The step a replay message shows ("… step N / M", "第 N / M 步")."""
    found = re.search(r"(\d+) / \d+", msg.content)
    assert found, msg.content
    return int(found[1])


async def test_replay_steps_through_the_whole_game_and_survives_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        alice, bo, chen = (fake.member(n) for n in ("alice", "bo", "chen"))
        channel = next(iter(fake.channels))
        refused = await (await chen.slash("gouji", "replay")).original()
        assert refused.ephemeral and "还没有打完的牌局" in refused.content  # chen: Chinese
        store = runner.client.store
        game_id = await _store_game(
            store, fake.guild_id, channel, PLANTED, {0: bo.user.id, PLANTED_SEAT: alice.user.id}
        )
        steps = Replay.from_record(PLANTED).steps

        rec = await chen.slash("gouji", "replay")  # anyone in the channel
        msg = await rec.original()
        assert not msg.ephemeral and msg.attachments and _step(msg) == 0
        assert f"第 0 / {steps} 步" in msg.content  # the channel's language
        assert _button(msg, "⏮").get("disabled") and _button(msg, "◀").get("disabled")
        options = msg.selects()[0]["options"]
        assert 0 < len(options) <= 25
        labels = " | ".join(o["label"] for o in options)
        assert "第 1 轮" in labels and "走科 · " in labels and "alice" in labels

        for expected in range(1, steps + 1):  # ▶ to the end, the message edited in place
            rec = await bo.click(msg, _button(msg, "▶")["custom_id"])
            msg = await rec.original(timeout=30)  # a busy shared machine
            assert rec.responses[0].type == 7
            assert _step(msg) == expected
        assert _button(msg, "▶").get("disabled") and _button(msg, "⏭").get("disabled")
        assert msg.id == (await rec.original()).id and len(msg.history) >= steps

        msg = await (await chen.click(msg, _button(msg, "⏮")["custom_id"])).original()
        assert _step(msg) == 0
        finish = next(o for o in options if o["label"].startswith("走科 · "))
        select_id = msg.selects()[0]["custom_id"]
        msg = await (await chen.select(msg, select_id, [finish["value"]])).original()
        assert _step(msg) == int(finish["value"].split(".")[0])

        await runner.restart()  # the old message's buttons still work
        before = _step(msg)
        msg = await (await alice.click(msg, _button(msg, "◀")["custom_id"])).original()
        assert _step(msg) == before - 1 and msg.attachments

        chosen = await alice.autocomplete("gouji", "replay", "game", typed="")
        assert chosen and chosen[0]["value"] == str(game_id)
        msg = await (await alice.slash("gouji", "replay", game=str(game_id))).original()
        assert _step(msg) == 0 and not msg.ephemeral


async def test_review_finds_the_planted_play_only_for_a_player(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    factory = bot_factory(fake, tmp_path / "gouji.db", review_budget=600)
    async with BotRunner(fake, factory) as runner:
        alice, bo, chen = (fake.member(n) for n in ("alice", "bo", "chen"))
        channel = next(iter(fake.channels))
        store = runner.client.store
        users = {0: bo.user.id, PLANTED_SEAT: alice.user.id}
        game_id = await _store_game(store, fake.guild_id, channel, PLANTED, users)
        playing = await _store_game(store, fake.guild_id, channel, PLANTED, users, finish=False)

        refused = await (await chen.slash("gouji", "review")).original()
        assert refused.ephemeral and "只有这局的玩家" in refused.content  # chen: Chinese
        refused = await (await alice.slash("gouji", "review", game=str(playing))).original()
        assert refused.ephemeral and "not over" in refused.content
        refused = await (await alice.slash("gouji", "replay", game=str(playing))).original()
        assert refused.ephemeral and "not over" in refused.content

        rec = await alice.slash("gouji", "review", game=str(game_id))
        assert "Reviewing" in (await rec.original()).content  # at once

        def answer():
            return fake.messages[rec.original_message_id]

        await fake.wait_for(lambda: "Reviewing" not in answer().content, 120, "the review")
        msg = answer()
        assert msg.ephemeral and msg.attachments
        top = msg.content.splitlines()[1]
        assert top.startswith("**1.** step 11 (leading)") and "play 3222BR" in top, msg.content
        button = msg.buttons()[0]
        shown = await (await alice.click(msg, button["custom_id"])).original()
        assert shown.ephemeral and _step(shown) == 11 and shown.attachments
