"""The JSON payloads of the guild, its members, channels, messages and interactions."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .gateway import GUILD_PRESENCES
from .model import (
    APPLICATION_COMMAND,
    MEMBER_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionRecord,
    MessageRecord,
)

if TYPE_CHECKING:
    from .users import SimUser

MENTION = re.compile(r"<@!?(\d+)>")


class PayloadBuilder:
    """Payload methods of FakeDiscord (kept apart so the server module stays small)."""

    # what they read of the FakeDiscord they are part of (set and defined there)
    bot_user: FakeUser
    application_id: int
    users: dict[int, FakeUser]
    members: list[SimUser]
    interactions: dict[int, InteractionRecord]

    @property
    def text_channels(self) -> list[FakeChannel]:
        raise NotImplementedError

    def guilds_of(self, shard: list[int] | None) -> list[FakeGuild]:
        raise NotImplementedError

    def guild_locale_of(self, guild_id: int) -> str:
        raise NotImplementedError

    def member_payload(
        self, user: FakeUser, *, with_permissions: bool = False, with_user: bool = True
    ) -> dict[str, Any]:
        """A guild member object (``with_user=False``: the partial form beside a user object)."""
        data: dict[str, Any] = {
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
        }
        if with_permissions:
            data["permissions"] = str(user.permissions)
        if with_user:
            data["user"] = user.payload()
        return data

    def guild_create_payloads(
        self, intents: int, shard: list[int] | None = None
    ) -> list[dict[str, Any]]:
        """The GUILD_CREATE payloads of the guilds on ``shard`` ([i, n]; None: every guild).

        As on Discord, ``members`` lists everyone only with the presences intent; otherwise
        just the bot (a client with the members intent then asks for member chunks).
        """
        members = list(self.users.values())
        listed = members if intents & GUILD_PRESENCES else [self.bot_user]
        return [self._guild_create(guild, listed, len(members)) for guild in self.guilds_of(shard)]

    def _guild_create(
        self, guild: FakeGuild, listed: list[FakeUser], member_count: int
    ) -> dict[str, Any]:
        everyone = {
            "id": str(guild.id),
            "name": "@everyone",
            "permissions": str(MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(self.members[0].id if self.members else self.bot_user.id),
            "preferred_locale": guild.locale,
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [c.payload() for c in self.text_channels if c.guild_id == guild.id],
            "threads": [],
            "members": [self.member_payload(u) for u in listed],
            "member_count": member_count,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "large": False,
            "unavailable": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "system_channel_id": None,
            "verification_level": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "nsfw_level": 0,
        }

    def channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        """A channel object (DMs carry their recipient)."""
        recipient = self.users.get(channel.recipient_id) if channel.recipient_id else None
        return channel.payload(recipient)

    def message_payload(self, msg: MessageRecord) -> dict[str, Any]:
        """A message object (interaction replies carry ``interaction_metadata``)."""
        data = msg.payload(self.users[msg.author_id], self.application_id)
        mentioned = {int(i) for i in MENTION.findall(msg.content)}
        data["mentions"] = [u.payload() for u in self.users.values() if u.id in mentioned]
        rec = self.interactions.get(msg.interaction_id or 0)
        if rec is not None:
            data["type"] = 20 if rec.type == APPLICATION_COMMAND else 0
            data["interaction_metadata"] = {
                "id": str(rec.id),
                "type": rec.type,
                "user": self.users[rec.user_id].payload(),
                "authorizing_integration_owners": {"0": str(rec.guild_id or 0)},
            }
        return data

    def interaction_payload(
        self,
        rec: InteractionRecord,
        user: FakeUser,
        channel: FakeChannel,
        message: MessageRecord | None,
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE payload of ``rec``."""
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": rec.type,
            "data": rec.data,
            "token": rec.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": self.channel_payload(channel),
            "locale": user.locale,
            "app_permissions": str(self.bot_user.permissions),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.guild_id is not None:
            locale = self.guild_locale_of(channel.guild_id)
            payload.update(
                guild_id=str(channel.guild_id),
                guild_locale=locale,
                guild={"id": str(channel.guild_id), "locale": locale, "features": []},
                member=self.member_payload(user, with_permissions=True),
                context=0,
                authorizing_integration_owners={"0": str(channel.guild_id)},
            )
        else:
            payload.update(
                user=user.payload(), context=1, authorizing_integration_owners={"0": "0"}
            )
        if message is not None:
            payload["message"] = self.message_payload(message)

        return payload
