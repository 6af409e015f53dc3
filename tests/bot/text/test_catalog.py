"""The translations: every text in both languages, engine refusals by their code."""

from __future__ import annotations

import string

import discord

from bot.service.errors import UserError
from bot.text.catalog import CATALOG, error_text, lang_of, text
from bot.text.refusals import ZH
from engine.actions import MESSAGES, IllegalActionError


def test_every_text_has_both_languages_with_the_same_fields() -> None:
    for key, (zh, en) in CATALOG.items():
        fields = [{f[1] for f in string.Formatter().parse(t) if f[1]} for t in (zh, en)]
        assert fields[0] == fields[1], key
    assert set(ZH) == set(MESSAGES)


def test_languages_follow_the_discord_locale() -> None:
    assert lang_of(discord.Locale.chinese) == lang_of("zh-TW") == "zh"
    assert lang_of(discord.Locale.american_english) == lang_of(None) == "en"
    assert text("zh", "not_your_turn", seat=3, who="bo") == "还没轮到你 —— 3 号位（bo）出牌。"


def test_engine_refusals_are_translated_by_their_code() -> None:
    exc = IllegalActionError("does_not_beat", cards="KK", standing="AA")
    assert error_text(exc, "zh") == "KK 管不上 AA。"
    readable = IllegalActionError("does_not_beat", cards="TT", standing="B")
    assert error_text(readable, "zh") == "10×2 管不上 小王。"
    assert error_text(exc, "en") == "KK does not beat AA."
    assert "座位" not in error_text(UserError("no_table"), "en")


def test_the_channel_log_words_every_burn_result_and_the_head_answer() -> None:
    """Every way a burn ends (烧成, 解烧, and 烧失败 under the seeds' count) and both answers
    to 要头 have their line in the table's log."""
    from engine.game import BROKEN, FAILED, SUCCESS

    for lang in ("zh", "en"):
        keys = [f"ev_burn_{r}" for r in (SUCCESS, BROKEN, FAILED)] + [
            "ev_keephead",
            "ev_nokeephead",
        ]
        lines = {text(lang, key, user="bo") for key in keys}
        assert len(lines) == 5 and all("bo" in line for line in lines)
