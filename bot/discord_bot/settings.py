"""The server settings on Discord (``config``); profiles and the leaderboard (``score``,
``top``), of a season or all time, are :mod:`bot.discord_bot.seasons`'. The reading itself,
and its privacy rules, is the table service's (:mod:`bot.service.archive`)."""

from __future__ import annotations

from typing import Any

from bot.discord_bot.people import People
from bot.service.tables import TableService
from bot.text.catalog import LANGUAGE_NAMES, text
from bot.text.options import setting_text, settings_list


async def apply_config(
    service: TableService,
    people: People,
    guild_id: int,
    lang: str,
    language: str | None,
    channel_id: int | None,
    allow: bool,
    defaults: dict[str, Any],
) -> str:
    """Change what was given (nothing when a value is bad); answer with the settings as
    they are now."""
    settings = await service.archive.configure(
        guild_id, language=language, channel_id=channel_id, allow=allow, defaults=defaults
    )
    changed = []
    if language is not None:
        people.set_guild_lang(guild_id, language)
        changed.append(text(lang, "config_language", language=LANGUAGE_NAMES[language]))
    if channel_id is not None:
        key = "config_channel_on" if allow else "config_channel_off"
        changed.append(text(lang, key, channel=f"<#{channel_id}>"))
    changed += [setting_text(lang, name, value) for name, value in defaults.items()]
    channels = ", ".join(f"<#{c}>" for c in settings.channels) or text(lang, "anywhere")
    shown = text(
        lang,
        "config_show",
        language=LANGUAGE_NAMES.get(settings.language, settings.language),
        channels=channels,
        settings=settings_list(lang, settings.defaults.to_json(), settings.overrides),
    )
    if changed:
        what = text(lang, "sep.semi").join(changed)
        return text(lang, "config_saved", what=what) + "\n\n" + shown
    return shown
