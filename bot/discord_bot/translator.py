"""The command translator: each language's names and descriptions of the /gouji commands for
its Discord clients (zh-CN, zh-TW: Chinese), from :func:`bot.text.langs.commands`, or carried
by the text itself (``locale_str(en, zh=...)``: the texts the cog takes from the catalog,
``cog.worded``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.text.langs import LANGS, commands, discord_locales

#: the commands' words by Discord locale (English, their source, needs none)
_BY_LOCALE = {
    discord.Locale(locale): (lang, commands(lang))
    for lang in LANGS
    for locale in discord_locales(lang)
}


class GoujiTranslator(app_commands.Translator):
    """English source strings → a language's own for its locales; others stay English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        found = _BY_LOCALE.get(locale)
        if found is None:
            return None
        lang, words = found
        return string.extras.get(lang) or words.get(string.message)
