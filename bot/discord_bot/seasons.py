"""Seasons (赛季) on Discord: ``/gouji top`` and ``/gouji score`` of a season (the current one
by default, ``season:`` a past one, ``season: 0`` all time) as the same pictures as ever,
their caption naming the season; ``/gouji config new_season: monthly_seasons:`` for the
server's admin. The figures are the service's (:mod:`bot.service.seasons`)."""

from __future__ import annotations

import io

import discord

from bot.discord_bot.context import Gouji
from bot.pictures import png as pictures
from bot.pictures.views import leaderboard_rows, rating_rows
from bot.service.seasons import Seasons
from bot.service.standing import profile_view
from bot.text.catalog import text
from bot.text.ratings import ai_level_name
from data.seasons import Season


def seasons_of(gouji: Gouji) -> Seasons:
    return gouji.service.seasons


def caption(guild: discord.Guild, season: Season | None, lang: str) -> str:
    """The server's name, and the season when it is not all time."""
    if season is None:
        return guild.name
    return text(lang, "season_caption", server=guild.name, number=season.number)


async def season_leaderboard_file(
    gouji: Gouji, guild: discord.Guild, lang: str, by: str, season: int | None
) -> discord.File:
    """The season's leaderboard picture (top ten), by points or by skill rating."""
    seasons = seasons_of(gouji)
    if by == "rating":
        shown, rated = await seasons.rating_board(guild.id, season)
        names = {
            r.player: ai_level_name(r.ai_kind, lang)
            if r.ai_kind is not None
            else await gouji.people.fetch_name(int(r.player))
            for r in rated
        }
        png = await gouji.draw(
            pictures.rating_board_png, rating_rows(rated, names), caption(guild, shown, lang), lang
        )
    else:
        shown, profiles = await seasons.leaderboard(guild.id, season)
        names_by_id = {p.user_id: await gouji.people.fetch_name(p.user_id) for p in profiles}
        rows = leaderboard_rows(profiles, names_by_id)
        png = await gouji.draw(pictures.leaderboard_png, rows, caption(guild, shown, lang), lang)
    return discord.File(io.BytesIO(png), filename="top.png")


async def season_profile_file(
    gouji: Gouji, guild: discord.Guild, user: discord.abc.User, lang: str, season: int | None
) -> discord.File:
    """The player's profile card in the season: points, title, places and rating."""
    shown, standing = await seasons_of(gouji).profile(guild.id, user.id, season)
    view = profile_view(standing, user.display_name, server=caption(guild, shown, lang))
    png = await gouji.draw(pictures.profile_png, view, lang)
    return discord.File(io.BytesIO(png), filename="profile.png")


async def season_config(
    gouji: Gouji, guild_id: int, lang: str, new_season: bool, monthly: bool | None
) -> str:
    """``/gouji config``'s seasons: start one now, seasons each month or not; what was done
    (empty: nothing asked)."""
    seasons = seasons_of(gouji)
    said = []
    if monthly is not None:
        await seasons.set_monthly(guild_id, monthly)
        said.append(text(lang, "season_monthly_on" if monthly else "season_monthly_off"))
    if new_season:
        started = await seasons.start(guild_id)
        said.append(text(lang, "season_started", number=started.number))
    return "\n".join(said)


async def tournament_lines(gouji: Gouji, guild_id: int, user_id: int, lang: str) -> str:
    """The player's latest tournament results, a line each (empty: none), for their profile."""
    results = await gouji.service.archive.tournament_results(guild_id, user_id)
    return "\n".join(
        text(
            lang, "tournament_result_line", name=r.name, rank=r.rank, count=r.count, points=r.points
        )
        for r in results
    )
