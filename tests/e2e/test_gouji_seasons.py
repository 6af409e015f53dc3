"""Seasons through the fake Discord and the real discord.py client: the server's admin starts
a season with /gouji config new_season:; /gouji top and /gouji score show the current season
by default (its caption names it), a past one with season:, all time with season: 0; a season
the server never had is refused."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import bot_factory


async def test_seasons_through_discord(fake: FakeDiscord, tmp_path: Path) -> None:
    admin, player = fake.members[0], fake.members[1]
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        top = await (await player.slash("gouji", "top")).original()
        assert top.attachments and not top.ephemeral  # season 1: the all-time board
        denied = await (await player.slash("gouji", "config", new_season=True)).original()
        assert denied.ephemeral
        assert (await bot.store.current_season(fake.guild_id)).number == 1
        said = await (
            await admin.slash("gouji", "config", new_season=True, monthly_seasons=True)
        ).original()
        assert "2" in said.content
        assert (await bot.store.current_season(fake.guild_id)).number == 2
        assert await bot.store.monthly_season_guilds() == [fake.guild_id]
        for options in ({}, {"season": 1}, {"season": 0}):
            board = await (await player.slash("gouji", "top", **options)).original()
            assert board.attachments, options
            card = await (await player.slash("gouji", "score", **options)).original()
            assert card.attachments, options
        rec = await player.slash("gouji", "top", season=9)
        await rec.original()
        await fake.wait_for(lambda: bool(rec.followup_ids), 5, "the refusal")
        refusal = fake.messages[rec.followup_ids[-1]]
        # (the answer was deferred in public: the refusal takes the deferral's place)
        assert "9" in refusal.content and not refusal.attachments
        assert not fake.unknown_requests
