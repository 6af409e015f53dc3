"""Who is who on Discord: the players' names and languages (learnt from their interactions,
looked up after a restart), each server's channel language, and the texts that name seats."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.discord_bot.pacing import ahead_of_need
from bot.service.archive import Archive
from bot.service.views import SeatInfo, TableInfo
from bot.text.catalog import lang_of, seat_name, text
from bot.text.params import Namer, param_text, params_text


class People:
    """Names and languages of the users and servers ``client`` has seen."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.user_names: dict[int, str] = {}
        self.user_languages: dict[int, str] = {}  # user -> their Discord language
        self.languages: dict[int, str] = {}  # guild -> channel language
        self.dm_channels: dict[int, int] = {}  # user -> their DM channel's id
        self.opened_ahead: set[int] = set()  # users whose DM channel was opened ahead (or tried)

    # ----------------------------------------------------------------- users
    def remember(self, interaction: discord.Interaction) -> str:
        """Note the user's name and language; returns their language."""
        user = interaction.user
        self.user_names[user.id] = user.display_name
        lang = lang_of(interaction.locale)
        self.user_languages[user.id] = lang
        if interaction.guild_id is None and interaction.channel_id is not None:
            self.dm_channels[user.id] = interaction.channel_id  # a press in their DMs
        return lang

    async def dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The user's DM channel. Its id is remembered here (discord.py keeps only 128
        private channels), so a DM to someone already reached costs no request first."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            channel = await self.client.create_dm(discord.Object(user_id))
            channel_id = self.dm_channels[user_id] = channel.id
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    def open_ahead(self, user_id: int) -> bool:
        """Whether to open ``user_id``'s DM channel ahead of their first DM
        (:meth:`open_dm`): once per user whose channel is not known, noted as asked (a
        refusal is not tried again ahead)."""
        if user_id in self.dm_channels or user_id in self.opened_ahead:
            return False
        self.opened_ahead.add(user_id)
        return True

    async def open_dm(self, user_id: int) -> None:
        """Open the user's DM channel ahead of their first DM (they sat down at a table:
        at the deal, four DMs go out at once, and opening each channel first would double
        the bot's requests just then). Quietly nothing if Discord refuses: the DM tries
        again."""
        with ahead_of_need(), contextlib.suppress(discord.HTTPException):
            await self.dm_channel(user_id)

    def display_name(self, user_id: int) -> str:
        name = self.user_names.get(user_id)
        if name is None:
            user = self.client.get_user(user_id)
            name = user.display_name if user else f"#{user_id}"
        return name

    async def fetch_name(self, user_id: int) -> str:
        """The user's name, asking Discord if it is not known (``#id`` if that fails)."""
        name = self.user_names.get(user_id)
        if name is not None:
            return name
        user = self.client.get_user(user_id)
        if user is None:
            try:
                user = await self.client.fetch_user(user_id)
            except discord.HTTPException:
                user = None
        name = self.user_names[user_id] = user.display_name if user else f"#{user_id}"
        return name

    async def learn_names(self, user_ids: list[int]) -> None:
        """Look up the names of users not seen since the start (after a restart)."""
        for user_id in user_ids:
            if user_id not in self.user_names and self.client.get_user(user_id) is None:
                await self.fetch_name(user_id)

    def user_lang(self, user_id: int, guild_id: int | None = None) -> str:
        """The user's Discord language (known from their last interaction), else the
        server's channel language."""
        lang = self.user_languages.get(user_id)
        if lang is None:
            lang = self.guild_lang(guild_id) if guild_id is not None else "en"
        return lang

    # ----------------------------------------------------------------- servers
    def guild_lang(self, guild_id: int) -> str:
        return self.languages.get(guild_id, "zh")

    def knows_guild(self, guild_id: int) -> bool:
        return guild_id in self.languages

    def set_guild_lang(self, guild_id: int, lang: str) -> None:
        self.languages[guild_id] = lang

    async def load_guild_lang(self, archive: Archive, guild_id: int) -> str:
        """The server's channel language, from its settings (the default: zh)."""
        settings = await archive.server_settings(guild_id)
        lang = self.languages[guild_id] = lang_of(settings.language)
        return lang

    def channel_lang(self, table: TableInfo) -> str:
        return self.guild_lang(table.guild_id)

    # ----------------------------------------------------------------- texts naming seats
    def name_of(self, seat: SeatInfo, lang: str) -> str:
        """The seat's player: their display name, "AI 3", or "empty"."""
        person = None if seat.user_id is None else self.display_name(seat.user_id)
        return seat_name(lang, seat.seat, person, seat.ai_kind is not None)

    def names(self, table: TableInfo, lang: str) -> list[str]:
        return [self.name_of(seat, lang) for seat in table.seats]

    def namer(self, table: TableInfo | None, lang: str) -> Namer:
        """How this table's people are named in ``lang`` (without a table: seats by number)."""
        return _TableNames(self, table, lang)

    def fmt(self, table: TableInfo | None, lang: str, value: Any) -> str:
        """One announcement or error parameter as text."""
        return param_text(value, lang, self.namer(table, lang))

    def render(self, table: TableInfo | None, lang: str, key: str, params: dict[str, Any]) -> str:
        """The message ``key`` in ``lang`` with its parameters formatted."""
        return text(lang, key, **params_text(params, lang, self.namer(table, lang)))

    def where(self, table: TableInfo, lang: str) -> str:
        """ "Server / #channel" of the table, for DMs."""
        guild = self.client.get_guild(table.guild_id)
        channel = self.client.get_channel(table.channel_id)
        return text(
            lang,
            "dm_where",
            guild=guild.name if guild else table.guild_id,
            channel=getattr(channel, "name", table.channel_id),
        )


class _TableNames:
    """The people of one table as Discord names them: display names, and users as
    mentions (which the bot sends without notifying)."""

    def __init__(self, people: People, table: TableInfo | None, lang: str) -> None:
        self.people, self.table, self.lang = people, table, lang

    def seat(self, seat: int) -> str:
        if self.table is None:
            return str(seat)
        return self.people.name_of(self.table.seats[seat], self.lang)

    def user(self, user_id: int) -> str:
        return f"<@{user_id}>"
