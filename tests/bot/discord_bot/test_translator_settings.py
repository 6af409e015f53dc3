"""The Chinese command names for Discord, and the server settings (`/gouji config`)."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from bot.discord_bot.people import People
from bot.discord_bot.settings import apply_config
from bot.discord_bot.translator import GoujiTranslator
from bot.service.errors import UserError

from ..service.helpers import GUILD


async def test_command_names_and_descriptions_have_chinese() -> None:
    translator = GoujiTranslator()
    ctx = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    assert (
        await translator.translate(app_commands.locale_str("play"), discord.Locale.chinese, ctx)
        == "出牌"
    )
    assert (
        await translator.translate(app_commands.locale_str("play"), discord.Locale.german, ctx)
        is None
    )


async def test_ai_add_offers_the_difficulties_by_name_in_both_languages() -> None:
    from bot.discord_bot.cog import AI_KINDS

    translator = GoujiTranslator()
    payloads = [await c.get_translated_payload(translator) for c in AI_KINDS]
    names = [p["name_localizations"][discord.Locale.chinese.value] for p in payloads]
    assert names == ["简单", "普通", "困难"]
    assert [(c.name, c.value) for c in AI_KINDS] == [
        ("easy", "hint"), ("normal", "expert"), ("hard", "strong")
    ]  # fmt: skip


async def test_server_settings_need_valid_values_and_are_shown(store) -> None:
    people = People(SimpleNamespace())  # no Discord needed: only the channel languages
    shown = await apply_config(store, people, GUILD, "en", "en", 77, True, {"turn_time": 30})
    assert "language=en" in shown and "<#77>" in shown
    settings = await store.get_settings(GUILD)
    assert (
        settings.language == "en"
        and settings.channels == (77,)
        and people.guild_lang(GUILD) == "en"
    )
    assert settings.table_defaults == {"turn_time": 30}
    with pytest.raises(UserError):
        await apply_config(store, people, GUILD, "en", None, None, True, {"turn_time": 0})
    assert (await store.get_settings(GUILD)).table_defaults == {"turn_time": 30}
