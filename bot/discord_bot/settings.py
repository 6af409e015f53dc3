"""The commands that read or change more than one table: server settings (``config``),
profiles and the leaderboard (``score``, ``top``) and records (``record``)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.discord_bot.context import Gouji
from bot.discord_bot.people import People
from bot.pictures import png as pictures
from bot.pictures.views import leaderboard_rows, profile_view, rating_rows
from bot.service.errors import UserError
from bot.service.live import LiveTable, TableOptions
from bot.service.standing import standing_of
from bot.service.tables import TableService
from bot.text.catalog import text
from bot.text.ratings import ai_level_name
from data import Store


async def apply_config(
    store: Store,
    people: People,
    guild_id: int,
    lang: str,
    language: str | None,
    channel_id: int | None,
    allow: bool,
    defaults: dict[str, Any],
) -> str:
    """Change what was given; answer with the settings as they are now."""
    changed = []
    if language is not None:
        await store.set_language(guild_id, language)
        people.set_guild_lang(guild_id, language)
        changed.append(f"language={language}")
    if channel_id is not None:
        await store.set_channel_allowed(guild_id, channel_id, allow)
        changed.append(f"<#{channel_id}>={'on' if allow else 'off'}")
    if defaults:
        current = (await store.get_settings(guild_id)).table_defaults
        merged = {**current, **defaults}
        TableOptions.from_json(merged)  # refuse bad values before saving
        await store.set_table_defaults(guild_id, merged)
        changed.append(", ".join(f"{k}={v}" for k, v in defaults.items()))
    settings = await store.get_settings(guild_id)
    channels = ", ".join(f"<#{c}>" for c in settings.channels) or text(lang, "anywhere")
    shown = text(
        lang,
        "config_show",
        language=settings.language,
        defaults=TableOptions.from_json(settings.table_defaults).to_json(),
        channels=channels,
    )
    if changed:
        return text(lang, "config_saved", what="; ".join(changed)) + "\n" + shown
    return shown


async def profile_file(
    gouji: Gouji, guild: discord.Guild, user: discord.abc.User, lang: str
) -> discord.File:
    """The profile image of ``user`` on this server: points, title, places and rating."""
    standing = await standing_of(gouji.store, guild.id, user.id)
    view = profile_view(standing, user.display_name, server=guild.name)
    png = await gouji.draw(pictures.profile_png, view, lang)
    return discord.File(io.BytesIO(png), filename="profile.png")


async def leaderboard_file(
    gouji: Gouji, guild: discord.Guild, lang: str, by: str = "points"
) -> discord.File:
    """The server's leaderboard image (top ten): by points, or by skill rating (people and
    the AI levels, the provisional marked)."""
    if by == "rating":
        rated = await gouji.store.rating_board(guild.id, limit=10)
        names = {
            r.player: ai_level_name(r.ai_kind, lang)
            if r.ai_kind is not None
            else await gouji.people.fetch_name(int(r.player))
            for r in rated
        }
        png = await gouji.draw(
            pictures.rating_board_png, rating_rows(rated, names), guild.name, lang
        )
        return discord.File(io.BytesIO(png), filename="top.png")
    profiles = await gouji.store.leaderboard(guild.id, limit=10)
    names_by_id = {p.user_id: await gouji.people.fetch_name(p.user_id) for p in profiles}
    rows = leaderboard_rows(profiles, names_by_id)
    png = await gouji.draw(pictures.leaderboard_png, rows, guild.name, lang)
    return discord.File(io.BytesIO(png), filename="top.png")


def has_record(live: LiveTable) -> bool:
    """Whether the table has finished a game (of its current or last series)."""
    return live.series is not None and any(d.finished for d in live.series.deals)


async def last_record(service: TableService, live: LiveTable) -> tuple[str, dict[str, Any]]:
    """(file name, record) of the table's last finished series, else its last finished game.
    Never a game in progress: records hold every hand."""
    if live.series is None or live.series_id is None:
        raise UserError("no_record")
    if live.series.finished:
        record = await service.series_record(live)
        return f"gouji-table{live.id}-series.json", record
    store = service.store
    _, logs = await store.series_logs(live.series_id)
    finished = [log for log in logs if log.game.status == "finished"]
    if not finished:
        raise UserError("no_record")
    last = finished[-1]
    deal = next(d for d in live.series.deals if d.finished and d.number == last.game.number)
    if deal.game is None:
        raise UserError("no_record")
    hands = [" ".join(str(c) for c in cards) for cards in deal.game.dealt]
    record = await store.export_game_record(last.game.id, hands=hands)
    return f"gouji-table{live.id}-game{last.game.number}.json", record
