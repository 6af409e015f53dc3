"""The turn clock through Discord: unanswered questions take their default, a turn that runs
out is played by the AI, two in a row leave the AI in the seat until /gouji back."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import bot_factory


async def test_timeouts_hand_the_seat_to_the_ai_until_back(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        await bot.store.set_table_defaults(fake.guild_id, {"turn_time": 1})
        alice = fake.member("alice")
        await (await alice.slash("gouji", "new")).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        live = bot.service.tables.table_in(fake.channel("gouji").id)
        assert live.options.turn_time == 1
        # two clocks of 1 s, after the hand pictures (a drawing process starting on a busy
        # machine can take many seconds): a generous bound, not a time the test asserts
        await fake.wait_for(lambda: live.seats[0].standin, 120, "the AI in seat 0", poll=0.05)
        log = await bot.store.get_actions(live.game_row)
        assert "0 nodeclare" in log, "the unanswered question took its default"

        def versions(messages) -> list[str]:  # every version of them, what each showed
            return [v.content for m in messages for v in (*m.history, m)]

        await fake.wait_for(
            lambda: any("/gouji back" in c for c in versions(alice.dms())),
            60,
            "the controller's note",
        )
        told = next(c for c in versions(alice.dms()) if "/gouji back" in c)
        assert "⏱ Time ran out" in told, "the controller says what the clock played"
        channel = fake.messages_in(fake.channel("gouji").id, include_deleted=True)
        assert any("⏱" in c and "超时" in c for c in versions(channel)), "the table log too"
        await fake.wait_for(lambda: live.deadline is None, 5, "no clock for an AI seat", poll=0.01)
        assert (await bot.store.get_table(live.id)).turn_deadline is None
        reply = await (await alice.slash("gouji", "back")).original()
        assert not reply.ephemeral and "alice" in reply.content
        assert not live.seats[0].standin and not (await bot.store.get_seats(live.id))[0].standin
        again = await (await alice.slash("gouji", "back")).original()
        assert again.ephemeral and "AI" in again.content
