"""The answers that read or change more than one table, on Discord: server settings
(``config``), profiles and the leaderboard (``score``, ``top``) as pictures. The reading
itself, and its privacy rules, is the table service's (:mod:`bot.service.archive`)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.discord_bot.context import Gouji
from bot.discord_bot.people import People
from bot.pictures import png as pictures
from bot.pictures.views import leaderboard_rows, rating_rows
from bot.service.standing import profile_view
from bot.service.tables import TableService
from bot.text.catalog import LANGUAGE_NAMES, text
from bot.text.options import setting_text, settings_list
from bot.text.ratings import ai_level_name


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
    settings = await service.configure(
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


async def profile_file(
    gouji: Gouji, guild: discord.Guild, user: discord.abc.User, lang: str
) -> discord.File:
    """The profile image of ``user`` on this server: points, title, places and rating."""
    standing = await gouji.service.profile(guild.id, user.id)
    view = profile_view(standing, user.display_name, server=guild.name)
    png = await gouji.draw(pictures.profile_png, view, lang)
    return discord.File(io.BytesIO(png), filename="profile.png")


async def leaderboard_file(
    gouji: Gouji, guild: discord.Guild, lang: str, by: str = "points"
) -> discord.File:
    """The server's leaderboard image (top ten): by points, or by skill rating (people and
    the AI levels, the provisional marked)."""
    if by == "rating":
        rated = await gouji.service.rating_board(guild.id, limit=10)
        names = {
            r.player: ai_level_name(r.ai_kind, lang)
            if r.ai_kind is not None
            else await gouji.people.fetch_name(int(r.player))
            for r in rated
        }
        png = await gouji.draw(
            pictures.rating_board_png, rating_rows(rated, names), guild.name, lang
        )
    else:
        profiles = await gouji.service.leaderboard(guild.id, limit=10)
        names_by_id = {p.user_id: await gouji.people.fetch_name(p.user_id) for p in profiles}
        rows = leaderboard_rows(profiles, names_by_id)
        png = await gouji.draw(pictures.leaderboard_png, rows, guild.name, lang)
    return discord.File(io.BytesIO(png), filename="top.png")
