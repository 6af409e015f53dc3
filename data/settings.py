"""Server settings: language, table defaults and the channels where tables may open."""

from __future__ import annotations

import re
from typing import Any

from .base import StoreBase, fetch_all
from .errors import InvalidInputError
from .models import GuildSettings
from .rows import decode_json, encode_object

DEFAULT_LANGUAGE = "zh"
_LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?")


class SettingsMixin(StoreBase):
    """Per-server settings."""

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; defaults (``zh``, no table defaults, any channel) if it
        never set any."""
        async with self._transaction() as conn:
            rows = await fetch_all(
                conn,
                "SELECT language, table_defaults FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )
            channels = await fetch_all(
                conn,
                "SELECT channel_id FROM guild_channels WHERE guild_id = ? ORDER BY channel_id",
                (guild_id,),
            )
        language, defaults = (rows[0][0], rows[0][1]) if rows else (DEFAULT_LANGUAGE, "{}")
        return GuildSettings(
            guild_id=guild_id,
            language=language,
            table_defaults=decode_json(defaults, f"server {guild_id} table defaults", dict),
            channels=tuple(row[0] for row in channels),
        )

    async def set_language(self, guild_id: int, language: str) -> None:
        """Set the server's language (a language tag such as ``zh`` or ``en``)."""
        if not isinstance(language, str) or not _LANGUAGE.fullmatch(language):
            raise InvalidInputError(
                f"language must be a language tag such as 'zh' or 'en', not {language!r}"
            )
        await self._upsert_settings(guild_id, "language", language)

    async def set_table_defaults(self, guild_id: int, defaults: dict[str, Any]) -> None:
        """Set the options new tables on this server start with (a JSON object)."""
        text = encode_object(defaults, "table defaults")
        await self._upsert_settings(guild_id, "table_defaults", text)

    async def _upsert_settings(self, guild_id: int, column: str, value: str) -> None:
        # ``column`` is one of two names fixed in this module, never caller input.
        await self._run(
            f"INSERT INTO guild_settings (guild_id, {column}, updated_at) VALUES (?, ?, ?) "
            f"ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}, "
            "updated_at = excluded.updated_at",
            (guild_id, value, self._now()),
        )

    async def set_channel_allowed(self, guild_id: int, channel_id: int, allowed: bool) -> None:
        """Allow or stop tables opening in a channel. While no channel is listed, tables may
        open in any channel."""
        if allowed:
            await self._run(
                "INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (guild_id, channel_id),
            )
        else:
            await self._run(
                "DELETE FROM guild_channels WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
