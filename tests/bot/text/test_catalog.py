"""The translations: every text in both languages, engine refusals by their code."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.service.errors import UserError
from bot.text import langs
from bot.text.catalog import lang_of, text
from bot.text.refusals import refusal_text
from engine.actions import REFUSALS, IllegalActionError


def test_every_language_has_the_same_keys_with_the_same_parameters() -> None:
    first, *others = langs.LANGS
    for lang in others:
        assert set(langs.keys(lang)) == set(langs.keys(first)), lang
        for key in langs.keys(first):
            assert langs.parameters(lang, key) == langs.parameters(first, key), (lang, key)
    assert {f"refusal.{code}" for code in REFUSALS} <= set(langs.keys(first))


def test_a_text_a_language_lacks_is_the_fallbacks_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    zh = dict(langs._TEXTS["zh"])
    del zh["no_table"]
    monkeypatch.setitem(langs._TEXTS, "zh", zh)
    monkeypatch.setattr(langs, "_missing", set())
    with caplog.at_level(logging.WARNING, logger=langs.__name__):
        assert text("zh", "no_table") == text("en", "no_table")
        assert text("zh", "no_table") == text("en", "no_table")
    assert sum("no_table" in r.getMessage() for r in caplog.records) == 1
    with pytest.raises(KeyError):
        text("zh", "no_such_text")


def test_a_language_is_found_by_its_module_and_serves_its_locales() -> None:
    assert langs.LANGS[:2] == ("zh", "en")  # Chinese first, then English; others after
    assert {"zh": "中文", "en": "English"}.items() <= langs.LANGUAGE_NAMES.items()
    assert set(langs.LANGUAGE_NAMES) == set(langs.LANGUAGE_TAGS) == set(langs.LANGS)
    assert langs.discord_locales("zh") == ("zh-CN", "zh-TW")
    assert text("de", "no_table") == text("en", "no_table")  # a language nobody wrote


def test_languages_follow_the_discord_locale() -> None:
    assert lang_of(discord.Locale.chinese) == lang_of("zh-TW") == "zh"
    assert lang_of(discord.Locale.american_english) == lang_of(None) == "en"
    assert text("zh", "not_your_turn", seat=3, who="bo") == "还没轮到你 —— 3 号位（bo）出牌。"


def test_engine_refusals_are_translated_by_their_code() -> None:
    exc = IllegalActionError("does_not_beat", cards="KK", standing="AA")
    assert refusal_text(exc, "zh") == "一对 K 管不上 一对 A。"
    readable = IllegalActionError("does_not_beat", cards="TT", standing="B")
    assert refusal_text(readable, "zh") == "一对 10 管不上 小王。"
    assert refusal_text(exc, "en") == "A pair of Ks does not beat a pair of As."
    assert "座位" not in refusal_text(UserError("no_table"), "en")


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


def test_every_language_the_bot_speaks_has_the_pictures_words_with_the_same_keys() -> None:
    """A language module in bot/text/langs needs its picture words in render/labels (and
    nothing else in render): the same keys and parameters as every other language."""
    import string

    from render.labels import LABELS

    assert set(langs.LANGS) == set(LABELS)

    def shape(words: dict[str, str]) -> dict[str, set[str]]:
        found = string.Formatter().parse
        return {k: {f for _, f, _, _ in found(v) if f} for k, v in words.items()}

    first, *others = LABELS.values()
    for labels in others:
        assert shape(labels.bold) == shape(first.bold)
        assert shape(labels.plain) == shape(first.plain)
        assert set(labels.places) == set(first.places) == {1, 2, 3, 4, 5, 6}
