"""/gouji new and config declare every table option once, from the engine's house rules
(engine.options.Options) and the table's own settings: a house rule added to the engine is
an option of both commands, with its choices, without being listed in their handlers. A
command text may come from the catalog, in both languages (cog.worded)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_bot.cog import GoujiCog, worded
from bot.discord_bot.translator import GoujiTranslator
from bot.service.live import TableOptions
from bot.text.catalog import text
from engine.options import CHOICES, Options


def _options(command: app_commands.Command[Any, Any, Any]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in command.to_dict(None)["options"]}  # type: ignore[arg-type]


def test_new_and_config_take_every_house_rule_and_table_setting() -> None:
    settings = set(TableOptions().to_json()) - {"series_games"}  # series_games: gouji demo only
    commands: tuple[app_commands.Command[Any, Any, Any], ...] = (GoujiCog.new, GoujiCog.config)
    for command in commands:
        options = _options(command)
        assert settings | {"preset"} <= set(options), command.name
        for name, default in Options().to_json().items():
            option = options[name]
            assert not option["required"] and option["description"]
            if name in CHOICES:
                assert [c["value"] for c in option["choices"]] == list(CHOICES[name])
            else:
                assert isinstance(default, bool) and option["type"] == 5  # a boolean
    assert list(_options(GoujiCog.config))[:3] == ["language", "channel", "allow"]


async def test_a_command_text_from_the_catalog_is_shown_in_chinese_to_chinese_clients() -> None:
    said = worded("no_table")
    assert said.message == text("en", "no_table")
    translator = GoujiTranslator()
    context: Any = None
    assert await translator.translate(said, discord.Locale.chinese, context) == text(
        "zh", "no_table"
    )
    assert await translator.translate(said, discord.Locale.american_english, context) is None
