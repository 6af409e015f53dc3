"""A table opened with a house rule (RULES.md §9) through the fake Discord: a series with
够死级 on, a revolution, and the 要头 question answered with its button on the hand
controller in the DMs (``/gouji hand`` offers it too); the game goes on (the opposite's first
play from the controller), the channel's log shows the answer and the stored record carries
the option and the answer. Only two people: each press re-sends a DM controller, and the
fake Discord's rate limits make every extra press cost time."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import acted, bot_factory, find_prompt, next_person

REVOLT_SEED = 37  # the first deal: only seat 0 (alice) holds no 2 and no joker
KEPT = ("前三手够级牌够死级", "their first three gouji hands can only be burned")  # ev_keephead


async def _press(fake: FakeDiscord, bot, user, live, verb: str):
    """Press ``verb`` on the user's hand controller for the question open now."""
    token = bot.service.question_token(live) + ":"
    await fake.wait_for(
        lambda: find_prompt(user, live.id, verb, False, token)[0] is not None,
        10,
        f"{user.name}'s {verb} button",
    )
    msg, custom_id = find_prompt(user, live.id, verb, False, token)
    await acted(await user.click(msg, custom_id))
    return msg


async def test_a_gou_si_ji_series_asks_the_revolutionarys_opposite_to_keep_the_head(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, dana = fake.member("alice"), fake.member("dana")
    users = {0: alice, 3: dana}  # the other seats are AI
    async with BotRunner(fake, bot_factory(fake, tmp_path / "g.db", seed=REVOLT_SEED)) as runner:
        bot = runner.client
        opened = await (
            await alice.slash("gouji", "new", turn_time=300, burn_time=60, gou_si_ji=True)
        ).original()
        assert "够死级" in opened.content
        await (await dana.slash("gouji", "join", seat=3)).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        channel = fake.channel("gouji")
        live = bot.service.table_in(channel.id)
        rules = await (await dana.slash("gouji", "rules")).original()
        marked = [line for line in rules.content.splitlines() if line.startswith("- 够死级")]
        assert len(marked) == 1 and " *" in marked[0], "the table's own rules, 够死级 marked"

        asked_head = played = 0
        while not played:  # up to the opposite's first play after 要头
            seat = await next_person(fake, bot, live)
            assert seat is not None, "the game is still on"
            user, kind = users[seat], bot.service._prompt_kind(live)
            if kind == "head":
                assert seat == 3, "the revolutionary's opposite is asked"
                hand = await (await dana.slash("gouji", "hand")).original()
                offered = {b["custom_id"].rsplit(":", 1)[1] for b in hand.buttons()}
                assert offered == {"keephead", "nokeephead"}, "/gouji hand asks it too"
                msg = await _press(fake, bot, dana, live, "keephead")
                assert "要头" in msg.content
                asked_head += 1
            elif kind == "revolt":
                await _press(fake, bot, user, live, "revolt" if seat == 0 else "norevolt")
            elif kind == "declare":
                await _press(fake, bot, user, live, "nodeclare")
            else:
                assert (kind, seat) == ("turn", 3), "alice revolted: she sits the game out"
                await _press(fake, bot, user, live, "playhint")
                played += 1
        await bot.presenter.drain()
        assert asked_head == 1

        record = await bot.store.export_series_record(live.series_id)
        assert record["options"] == {"gou_si_ji": True}
        assert {"0 revolt", "3 keephead"} <= set(record["games"][0]["actions"])
        shown = [
            version.content
            for m in fake.messages_in(channel.id)
            if not m.ephemeral
            for version in (*m.history, m)
        ]
        assert any(k in c for c in shown for k in KEPT), "the channel's log shows the 要头"
