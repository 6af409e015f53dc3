"""What the fake Discord knows and records: users, channels, messages, interactions.

Everything here is plain data plus the JSON payload each object has on the real Discord
API (v10). Times are ``time.monotonic()`` seconds unless a name ends in ``_iso``.
"""

from __future__ import annotations

import datetime
import io
import itertools
import struct
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6  # message flag
LOADING = 1 << 7  # message flag: "Bot is thinking..."

# Permission bits
ADMINISTRATOR = 1 << 3
# What a plain member may do in a text channel (view, send, embed, attach, history, commands).
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
ALL_PERMISSIONS = (1 << 51) - 1  # the guild owner

# Channel types
GUILD_TEXT = 0
DM = 1


class Snowflakes:
    """Increasing Discord-style ids (time-based, so ``created_at`` in discord.py is sane)."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def next(self) -> int:
        """Return a fresh id, larger than every id returned before."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (next(self._counter) & 0xFFF)
        self._last = max(self._last + 1, candidate)
        return self._last

    def advance_to(self, ident: int) -> None:
        """Never hand out ``ident`` or anything below it (an id chosen by hand)."""
        self._last = max(self._last, ident)


@dataclass(frozen=True)
class FakeGuild:
    """A guild (server) the bot is in."""

    id: int
    name: str
    locale: str


def iso_now() -> str:
    """The current UTC time as Discord formats it."""
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord account: a guild member or the bot itself."""

    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    refuses_dms: bool = False
    permissions: int = MEMBER_PERMISSIONS  # in the guild

    def payload(self) -> dict[str, Any]:
        """The user object as the API sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class FakeChannel:
    """A guild text channel or a DM channel (``recipient_id`` set)."""

    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    position: int = 0
    recipient_id: int | None = None

    def payload(self, recipient: FakeUser | None = None) -> dict[str, Any]:
        """The channel object as the API sends it."""
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "last_message_id": None}
        if self.type == DM:
            data["recipients"] = [recipient.payload()] if recipient else []
        else:
            data.update(
                name=self.name,
                guild_id=str(self.guild_id),
                position=self.position,
                permission_overwrites=[],
                nsfw=False,
                topic=None,
                rate_limit_per_user=0,
                parent_id=None,
            )
        return data


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG from its IHDR chunk, or None if ``data`` is not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    return None


@dataclass
class AttachmentRecord:
    """An uploaded file, with its bytes."""

    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        """The attachment object as the API sends it."""
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        size = png_size(self.data)
        if size:
            out["width"], out["height"] = size
        return out

    def image(self) -> Any:
        """The file opened with Pillow (``PIL.Image.Image``), for checking a picture."""
        from PIL import Image

        return Image.open(io.BytesIO(self.data))


@dataclass
class MessageVersion:
    """One state of a message; a message's ``history`` holds the states before an edit."""

    at: float
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[AttachmentRecord]
    flags: int


@dataclass
class MessageRecord:
    """A message as the fake stores it, with its edit history."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[AttachmentRecord] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None  # an ephemeral message is seen by this user only
    interaction_id: int | None = None  # set on interaction responses and follow-ups
    webhook_id: int | None = None
    created_at: float = field(default_factory=time.monotonic)
    created_iso: str = field(default_factory=iso_now)
    edited_iso: str | None = None
    edited_at: float | None = None
    deleted_at: float | None = None
    history: list[MessageVersion] = field(default_factory=list)
    notified: frozenset[int] = frozenset()  # whom it notified when it was created

    @property
    def ephemeral(self) -> bool:
        """Whether only ``visible_to`` sees this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still showing "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def deleted(self) -> bool:
        """Whether the message was deleted."""
        return self.deleted_at is not None

    def snapshot(self) -> MessageVersion:
        """The current state, for the history."""
        return MessageVersion(
            self.created_at if self.edited_at is None else self.edited_at,
            self.content,
            list(self.embeds),
            list(self.components),
            list(self.attachments),
            self.flags,
        )

    def buttons(self) -> list[dict[str, Any]]:
        """Every button (component type 2) in the message, in layout order."""
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        """Every select menu (component types 3, 5-8) in the message."""
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def payload(self, author: FakeUser, application_id: int | None = None) -> dict[str, Any]:
        """The message object as the API sends it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": author.payload(),
            "content": self.content,
            "timestamp": self.created_iso,
            "edited_timestamp": self.edited_iso,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 20 if self.interaction_id is not None else 0,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if application_id is not None and self.interaction_id is not None:
            data["application_id"] = str(application_id)
        return data


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """All components, depth first (action rows, containers, sections, and what they hold)."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(walk_components(comp.get("components", [])))
        if isinstance(comp.get("accessory"), dict):
            out.extend(walk_components([comp["accessory"]]))
        if isinstance(comp.get("component"), dict):  # label (modal) wrappers
            out.extend(walk_components([comp["component"]]))
    return out


@dataclass
class ResponseRecord:
    """One thing the bot did to answer an interaction: a callback or a webhook call."""

    kind: str  # "callback", "followup", "edit_original", "delete_original", "edit_followup", ...
    at: float
    type: int | None  # callback type (1, 4-9) for callbacks
    payload: dict[str, Any]
    message_id: int | None = None


# Interaction types
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5


@dataclass
class InteractionRecord:
    """An interaction a user made and everything the bot answered."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    message_id: int | None = None  # the message a component sits on
    created_at: float = field(default_factory=time.monotonic)
    dispatched_at: float | None = None  # when the gateway wrote INTERACTION_CREATE
    responses: list[ResponseRecord] = field(default_factory=list)
    callback_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete result
    modal: dict[str, Any] | None = None
    activity_instance_id: str | None = None  # launched or joined by a type-12 answer
    fake: Any = field(default=None, repr=False, compare=False)

    @property
    def acknowledged(self) -> bool:
        """Whether the interaction callback was made."""
        return self.callback_type is not None

    @property
    def first_response_at(self) -> float | None:
        """When the first answer (callback) arrived."""
        return self.responses[0].at if self.responses else None

    @property
    def latency(self) -> float | None:
        """Seconds from gateway dispatch to the first answer, if both happened."""
        if self.dispatched_at is None or not self.responses:
            return None
        return self.responses[0].at - self.dispatched_at

    async def response(self, timeout: float = 5.0) -> ResponseRecord:
        """Wait for the first answer to this interaction."""
        return await self.fake.wait_for(
            lambda: self.responses[0] if self.responses else None,
            timeout,
            f"a response to interaction {self.id}",
        )

    async def original(self, timeout: float = 5.0) -> MessageRecord:
        """Wait for the original response message, once it is no longer "thinking"."""

        def ready() -> MessageRecord | None:
            if self.original_message_id is None:
                return None
            msg = self.fake.messages.get(self.original_message_id)
            return msg if msg is not None and not msg.loading else None

        return await self.fake.wait_for(ready, timeout, f"the reply to interaction {self.id}")

    async def followup(self, index: int = 0, timeout: float = 5.0) -> MessageRecord:
        """Wait for follow-up message number ``index`` (0 = first)."""

        def ready() -> MessageRecord | None:
            if len(self.followup_ids) <= index:
                return None
            return self.fake.messages[self.followup_ids[index]]

        return await self.fake.wait_for(ready, timeout, f"follow-up {index} of {self.id}")

    async def autocomplete_choices(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Wait for the autocomplete result and return its choices."""
        await self.fake.wait_for(  # an empty list of choices is an answer too
            lambda: self.choices is not None, timeout, f"autocomplete choices for {self.id}"
        )
        assert self.choices is not None
        return self.choices


@dataclass
class RequestRecord:
    """One HTTP request the bot made."""

    at: float
    method: str
    path: str
    route: str | None  # the route template, None for unknown routes
    status: int
    fault: str | None = None  # "429", "500" ... when a planned fault answered
    scope: str | None = None  # of a 429: "global", "user" (a route's bucket) or "shared"
    # when the rate limits counted it (``at`` is when it was answered, its body handled)
    admitted: float | None = None
