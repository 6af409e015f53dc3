"""Configuration from the environment, `gouji bot` without a token, server settings, and
the translations (every text in both languages, engine refusals by their code)."""

from __future__ import annotations

import argparse
import string
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from bot import bot_cli
from bot.config import BotConfig
from bot.errors import UserError
from bot.i18n import CATALOG, ENGINE_ZH, error_text, lang_of, text
from bot.settings import apply_config
from bot.translator import GoujiTranslator
from engine.actions import MESSAGES, IllegalActionError

from .helpers import GUILD


def test_config_reads_the_environment() -> None:
    cfg = BotConfig.from_env(
        {"DISCORD_TOKEN": "t", "GOUJI_DB": "/x.db", "GOUJI_GUILD": "42", "GOUJI_AI_DELAY": "0"}
    )
    assert (cfg.token, cfg.db_path, cfg.guild_id, cfg.ai_delay) == ("t", "/x.db", 42, 0.0)
    assert BotConfig.from_env({}).token is None
    with pytest.raises(ValueError, match="GOUJI_GUILD"):
        BotConfig.from_env({"GOUJI_GUILD": "my server"})
    with pytest.raises(ValueError, match="GOUJI_AI_DELAY"):
        BotConfig.from_env({"GOUJI_AI_DELAY": "soon"})


def test_gouji_bot_without_a_token_says_how_to_get_one(monkeypatch, capsys) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot_cli.run(argparse.Namespace(db=None, guild=None)) == 2
    err = capsys.readouterr().err
    assert "Reset Token" in err and "DISCORD_TOKEN=" in err


def test_every_text_has_both_languages_with_the_same_fields() -> None:
    for key, (zh, en) in CATALOG.items():
        fields = [{f[1] for f in string.Formatter().parse(t) if f[1]} for t in (zh, en)]
        assert fields[0] == fields[1], key
    assert set(ENGINE_ZH) == set(MESSAGES)


def test_languages_follow_the_discord_locale() -> None:
    assert lang_of(discord.Locale.chinese) == lang_of("zh-TW") == "zh"
    assert lang_of(discord.Locale.american_english) == lang_of(None) == "en"
    assert text("zh", "not_your_turn", seat=3, who="bo") == "还没轮到你 —— 3 号位（bo）出牌。"


def test_engine_refusals_are_translated_by_their_code() -> None:
    exc = IllegalActionError("does_not_beat", cards="KK", standing="AA")
    assert error_text(exc, "zh") == "KK 管不住 AA。"
    assert error_text(exc, "en") == "KK does not beat AA."
    assert "座位" not in error_text(UserError("no_table"), "en")


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


async def test_server_settings_need_valid_values_and_are_shown(store) -> None:
    bot = SimpleNamespace(store=store, languages={})
    shown = await apply_config(bot, GUILD, "en", "en", 77, True, {"turn_time": 30})
    assert "language=en" in shown and "<#77>" in shown
    settings = await store.get_settings(GUILD)
    assert settings.language == "en" and settings.channels == (77,) and bot.languages[GUILD] == "en"
    assert settings.table_defaults == {"turn_time": 30}
    with pytest.raises(UserError):
        await apply_config(bot, GUILD, "en", None, None, True, {"turn_time": 0})
    assert (await store.get_settings(GUILD)).table_defaults == {"turn_time": 30}
