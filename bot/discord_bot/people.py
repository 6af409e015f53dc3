"""Who is who on Discord: the players' names and languages (learnt from their interactions,
looked up after a restart), each server's channel language, and the texts that name seats."""

from __future__ import annotations

from typing import Any

import discord

from bot.service.live import LiveTable
from bot.service.presenter import Acted, Mention, Place, Who
from bot.text.cards import action_text
from bot.text.catalog import lang_of, place_name, text
from data import Store


class People:
    """Names and languages of the users and servers ``client`` has seen."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.user_names: dict[int, str] = {}
        self.user_languages: dict[int, str] = {}  # user -> their Discord language
        self.languages: dict[int, str] = {}  # guild -> channel language
        self.dm_channels: dict[int, int] = {}  # user -> their DM channel's id

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

    async def load_guild_lang(self, store: Store, guild_id: int) -> str:
        """The server's channel language, from its settings (the store's default: zh)."""
        settings = await store.get_settings(guild_id)
        lang = self.languages[guild_id] = lang_of(settings.language)
        return lang

    def channel_lang(self, live: LiveTable) -> str:
        return self.guild_lang(live.table.guild_id)

    # ----------------------------------------------------------------- texts naming seats
    def name_of(self, live: LiveTable, seat: int, lang: str) -> str:
        user = live.seats[seat].user_id
        if user is None:
            return (
                text(lang, "ai_name", seat=seat)
                if live.seats[seat].ai_kind
                else text(lang, "seat_empty")
            )
        return self.display_name(user)

    def names(self, live: LiveTable, lang: str) -> list[str]:
        return [self.name_of(live, s, lang) for s in range(6)]

    def fmt(self, live: LiveTable | None, lang: str, value: Any) -> str:
        """One announcement or error parameter as text."""
        if isinstance(value, Who):
            name = self.name_of(live, value.seat, lang) if live else str(value.seat)
            return f"{name} ({value.seat})"
        if isinstance(value, Mention):
            return f"<@{value.user_id}>"
        if isinstance(value, Place):
            return place_name(lang, value.place)
        if isinstance(value, Acted):
            return action_text(lang, value.verb, value.cards)
        if isinstance(value, tuple):
            parts = [self.fmt(live, lang, v) for v in value]
            if len(value) == 3 and isinstance(value[1], Who):  # tribute: payer → receiver cards
                if isinstance(value[2], int):  # owed: a number of cards
                    return f"{parts[0]} → {parts[1]} ×{value[2]}"
                return f"{parts[0]} → {parts[1]} {parts[2]}"
            if len(value) == 2 and isinstance(value[1], int) and not isinstance(value[1], bool):
                return f"{parts[0]} {value[1]:+d}"
            return " ".join(parts)
        if isinstance(value, list):
            return ("、" if lang == "zh" else ", ").join(self.fmt(live, lang, v) for v in value)
        return str(value)

    def render(self, live: LiveTable | None, lang: str, key: str, params: dict[str, Any]) -> str:
        """The message ``key`` in ``lang`` with its parameters formatted."""
        return text(lang, key, **{k: self.fmt(live, lang, v) for k, v in params.items()})

    def where(self, live: LiveTable, lang: str) -> str:
        """ "Server / #channel" of the table, for DMs."""
        guild = self.client.get_guild(live.table.guild_id)
        channel = self.client.get_channel(live.table.channel_id)
        return text(
            lang,
            "dm_where",
            guild=guild.name if guild else live.table.guild_id,
            channel=getattr(channel, "name", live.table.channel_id),
        )
