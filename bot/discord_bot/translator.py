"""The command translator: Chinese names and descriptions of the /gouji commands for Chinese
clients (zh-CN, zh-TW), from :data:`bot.text.commands.ZH`, or carried by the text itself
(``locale_str(en, zh=...)``: the texts the cog takes from the catalog, ``cog.worded``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.text.commands import ZH


class GoujiTranslator(app_commands.Translator):
    """English source strings → Chinese for the Chinese locales; others stay English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale in (discord.Locale.chinese, discord.Locale.taiwan_chinese):
            return string.extras.get("zh") or ZH.get(string.message)
        return None
