"""A table opened with a house rule (RULES.md §9) through the fake Discord: a series with
够死级 on, a revolution, and the 要头 question answered by its DM button; the AI-backed hints
play on to the end and the stored record carries the option and the answer."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import acted, bot_factory, find_prompt, next_person

PEOPLE = ("alice", "bo", "chen", "dana")  # seats 0-3; seats 4 and 5 are AI
REVOLT_SEED = 37  # the first deal: only seat 0 (alice) holds no 2 and no joker
#: the answer each person gives to each question (alice revolts, dana keeps the head)
ANSWERS = {"declare": "nodeclare", "revolt": "norevolt", "head": "nokeephead", "burn": "noburn"}


async def _press(fake: FakeDiscord, service, user, live, verb: str, select: bool = False):
    token = service.question_token(live) + ":"
    await fake.wait_for(
        lambda: find_prompt(user, live.id, verb, select, token)[0] is not None,
        10,
        f"{user.name}'s {verb} DM",
    )
    msg, custom_id = find_prompt(user, live.id, verb, select, token)
    if select:
        (menu,) = [s for s in msg.selects() if s["custom_id"] == custom_id]
        values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
        rec = await user.select(msg, custom_id, values)
    else:
        rec = await user.click(msg, custom_id)
    await acted(rec)
    return msg


async def _via_hand(user, verb: str, select: bool = False) -> None:
    """Answer the open question with its buttons or menu under /gouji hand."""
    hand = await (await user.slash("gouji", "hand")).original()
    items = hand.selects() if select else hand.buttons()
    (item,) = [i for i in items if i["custom_id"].endswith(f":{verb}")]
    if select:
        values = [o["value"] for o in item["options"]][: item.get("min_values", 1)]
        await acted(await user.select(hand, item["custom_id"], values))
    else:
        await acted(await user.click(hand, item["custom_id"]))


async def test_a_gou_si_ji_series_asks_the_revolutionarys_opposite_to_keep_the_head(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    users = [fake.member(name) for name in PEOPLE]
    alice, dana = users[0], users[3]
    async with BotRunner(fake, bot_factory(fake, tmp_path / "g.db", seed=REVOLT_SEED)) as runner:
        bot = runner.client
        opened = await (
            await alice.slash("gouji", "new", turn_time=300, burn_time=60, gou_si_ji=True)
        ).original()
        assert "够死级" in opened.content
        for user in users[1:]:
            await (await user.slash("gouji", "join")).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        live = bot.service.table_in(fake.channel("gouji").id)
        rules = await (await bo.slash("gouji", "rules")).original() if (bo := users[1]) else None
        assert rules is not None and "够死级" in rules.content

        asked_head = False
        while live.playing:
            seat = await next_person(fake, bot, live)
            if seat is None:
                break
            user, kind = users[seat], bot.service._prompt_kind(live)
            first = live.series.number_of_next_game == 2 or len(live.series.deals) == 1
            if kind == "revolt" and seat == 0 and first:
                await _press(fake, bot.service, user, live, "revolt")
            elif kind == "head" and not asked_head:
                assert seat == 3, "the revolutionary's opposite is asked"
                msg = await _press(fake, bot.service, dana, live, "keephead")
                assert "要头" in msg.content or "keep the head" in msg.content
                asked_head = True
            elif kind == "return":
                await _via_hand(user, "return", select=True)
            elif kind == "turn":
                await _via_hand(user, "playhint")
            else:
                await _via_hand(user, ANSWERS[kind])
        await bot.presenter.drain()
        assert asked_head
        record = await bot.store.export_series_record(live.series_id)
        assert record["options"] == {"gou_si_ji": True}
        assert "3 keephead" in record["games"][0]["actions"]
        assert any("要头" in m.content or "keeps the head" in m.content
                   for m in fake.messages_in(fake.channel("gouji").id))  # fmt: skip
