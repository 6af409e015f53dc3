"""The Chinese command names for Discord, and the server settings (`/gouji config`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_bot.cog import HOUSE_RULE_CHOICES, PRESETS, GoujiCog, house_rule_overrides
from bot.discord_bot.people import People
from bot.discord_bot.settings import apply_config
from bot.discord_bot.translator import GoujiTranslator
from bot.service.errors import UserError
from engine.options import Options

from ..service.helpers import CHANNEL, GUILD, HUMANS, make_service


def _no_discord() -> Any:
    """The client People is given where no Discord is needed: only the channel languages."""
    return SimpleNamespace()


async def test_command_names_and_descriptions_have_chinese() -> None:
    translator = GoujiTranslator()
    ctx = app_commands.TranslationContext(  # type: ignore[call-overload]  # no command: unread
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
    people = People(_no_discord())  # no Discord needed: only the channel languages
    service, _ = make_service(store)
    shown = await apply_config(service, people, GUILD, "en", "en", 77, True, {"turn_time": 30})
    assert "Saved: language of the channel messages: English; tables may open in <#77>" in shown
    assert "- time per turn: 30 s *" in shown
    settings = await store.get_settings(GUILD)
    assert (
        settings.language == "en"
        and settings.channels == (77,)
        and people.guild_lang(GUILD) == "en"
    )
    assert settings.table_defaults == {"turn_time": 30}
    with pytest.raises(UserError):
        await apply_config(service, people, GUILD, "en", None, None, True, {"turn_time": 0})
    assert (await store.get_settings(GUILD)).table_defaults == {"turn_time": 30}


async def test_a_bad_setting_changes_nothing_given_with_it(store) -> None:
    """A language, a channel and a bad table default at once: refused, none of them saved."""
    people = People(_no_discord())
    service, _ = make_service(store)
    with pytest.raises(UserError):
        await apply_config(service, people, GUILD, "en", "en", 77, True, {"turn_time": 0})
    with pytest.raises(UserError):
        await apply_config(service, people, GUILD, "en", "xx", None, True, {})
    settings = await store.get_settings(GUILD)
    assert (settings.language, settings.channels, settings.table_defaults) == ("zh", (), {})
    assert not people.knows_guild(GUILD)


async def test_every_command_text_and_house_rule_choice_has_chinese() -> None:
    """Chinese clients see every /gouji name, parameter and description in Chinese, the
    house-rule parameters of /gouji new and config and their choices included."""
    texts: list[app_commands.locale_str] = []
    for command in GoujiCog.gouji.walk_commands():
        texts += [_(command.name), command._locale_description or _(command.description)]
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                texts += [
                    param.locale_name or _(param.name),
                    param.locale_description or _(param.description),
                ]
    choices = [PRESETS, *HOUSE_RULE_CHOICES.values()]
    texts += [_(choice.name) for listed in choices for choice in listed]
    assert {"gou_si_ji", "open_rule", "preset"} <= {t.message for t in texts}
    translator = GoujiTranslator()
    context: Any = None
    untranslated = [
        t.message
        for t in texts
        if not await translator.translate(t, discord.Locale.chinese, context)
    ]
    assert untranslated == []


def test_the_standard_preset_sets_every_house_rule_and_given_ones_win() -> None:
    assert house_rule_overrides(None, gou_si_ji=None, turn_time=30) == {"turn_time": 30}
    chosen = house_rule_overrides("standard", gou_si_ji=True, open_rule=None)
    assert chosen == {**Options().to_json(), "gou_si_ji": True}


async def test_server_house_rules_are_new_tables_defaults_and_the_preset_restores_them(
    store,
) -> None:
    """/gouji config sets the server's house rules; /gouji new plays them unless it gives
    others, and ``preset: standard`` plays the standard rules whatever the server's."""
    people = People(_no_discord())
    service, _ = make_service(store)
    rules = house_rule_overrides(None, gou_si_ji=True, burn_check="seeds")
    shown = await apply_config(service, people, GUILD, "en", None, None, True, rules)
    assert "- 够死级 (gou si ji): on *" in shown and "\n- 开点 (opening): strict" in shown
    with pytest.raises(UserError):
        await apply_config(service, people, GUILD, "en", None, None, True, {"open_rule": "loose"})
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    assert live.options.rules == Options(gou_si_ji=True, burn_check="seeds")
    await service.end(service.tables.table_in(CHANNEL), HUMANS[0], may_manage=True)
    standard = house_rule_overrides("standard", open_rule="wide")
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], standard)
    assert live.options.rules == Options(open_rule="wide")
    await service.close()
