"""Simulated people: guild members who use slash commands, buttons and selects, and read DMs.

A SimUser sees only what Discord would show them: messages in the guild's text channels,
their own DM channel with the bot, and ephemeral messages meant for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DM,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    MessageRecord,
    walk_components,
)

if TYPE_CHECKING:
    from .server import FakeDiscord


class UserActionError(ValueError):
    """The user tried something Discord's client would not let them do."""


class SimUser:
    """One guild member, driven by a test."""

    def __init__(self, fake: FakeDiscord, user: FakeUser) -> None:
        self.fake = fake
        self.user = user

    def __repr__(self) -> str:
        return f"<SimUser {self.name} id={self.id} locale={self.locale}>"

    @property
    def id(self) -> int:
        """The user id."""
        return self.user.id

    @property
    def name(self) -> str:
        """The username."""
        return self.user.name

    @property
    def locale(self) -> str:
        """The client language sent with each interaction, e.g. ``zh-CN``."""
        return self.user.locale

    @locale.setter
    def locale(self, value: str) -> None:
        self.user.locale = value

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"

    def refuse_dms(self, refuse: bool = True) -> None:
        """Turn off (or back on) DMs from server members: the bot then gets 403 / 50007."""
        self.user.refuses_dms = refuse

    # ----- what the user sees ---------------------------------------------------------------
    def can_see(self, msg: MessageRecord) -> bool:
        """Whether Discord would show ``msg`` to this user."""
        if msg.deleted:
            return False
        if msg.visible_to is not None:
            return msg.visible_to == self.id
        channel = self.fake.channels[msg.channel_id]
        return channel.type != DM or channel.recipient_id == self.id

    def visible_messages(
        self, channel: FakeChannel | str | int | None = None
    ) -> list[MessageRecord]:
        """Messages this user can see, oldest first (optionally of one channel)."""
        if channel is not None and not isinstance(channel, FakeChannel):
            channel = self.fake.channel(channel)
        return [
            m
            for m in self.fake.messages.values()
            if self.can_see(m) and (channel is None or m.channel_id == channel.id)
        ]

    def dm_channel(self) -> FakeChannel | None:
        """The DM channel the bot opened with this user, if any."""
        return self.fake.dm_channels.get(self.id)

    def dms(self) -> list[MessageRecord]:
        """The bot's messages in this user's DM channel, oldest first."""
        channel = self.dm_channel()
        if channel is None:
            return []
        bot_id = self.fake.bot_user.id
        return [m for m in self.visible_messages(channel) if m.author_id == bot_id]

    def latest_dm(self, *, with_attachment: bool = False) -> MessageRecord | None:
        """The newest DM (with at least one attachment if asked)."""
        found = [m for m in self.dms() if m.attachments or not with_attachment]
        return found[-1] if found else None

    async def wait_dm(
        self, predicate: Callable[[MessageRecord], bool] = lambda m: True, timeout: float = 5.0
    ) -> MessageRecord:
        """Wait until a DM matching ``predicate`` exists; return the newest such."""

        def find() -> MessageRecord | None:
            found = [m for m in self.dms() if predicate(m)]
            return found[-1] if found else None

        return await self.fake.wait_for(find, timeout, f"a DM to {self.name}")

    def ephemerals(self) -> list[MessageRecord]:
        """Ephemeral messages shown to this user, oldest first."""
        return [
            m for m in self.fake.messages.values() if m.visible_to == self.id and self.can_see(m)
        ]

    # ----- what the user does ----------------------------------------------------------------
    def _where(self, channel: FakeChannel | str | int | None) -> FakeChannel:
        if channel is None:
            return self.fake.text_channels[0]
        if isinstance(channel, FakeChannel):
            return channel
        if channel == "dm":
            return self.fake.dm_channel_for(self.id)
        return self.fake.channel(channel)

    async def say(
        self, content: str, channel: FakeChannel | str | int | None = None
    ) -> MessageRecord:
        """Post a message in a text channel (default the first) or ``"dm"`` to the bot.

        The bot gets MESSAGE_CREATE; without the message-content intent its content is empty
        unless the bot is mentioned (``fake.bot_user`` as ``<@id>``) or it is a DM.
        """
        if not 1 <= len(content) <= 2000:
            raise UserActionError("a message has 1-2000 characters")
        where = self._where(channel)
        msg = MessageRecord(
            self.fake.ids.next(), where.id, where.guild_id, self.id, content=content
        )
        return await self.fake.add_message(msg)

    async def slash(
        self, *path: str, channel: FakeChannel | str | int | None = None, **options: Any
    ) -> InteractionRecord:
        """Run ``/path... option:value`` (e.g. ``slash("gouji", "play", cards="KK")``).

        ``channel`` is a text channel (name, id or FakeChannel; default the first) or
        ``"dm"``. Raises CommandUnavailable if the synced commands do not allow it.
        """
        where = self._where(channel)
        data = self.fake.commands.invocation(
            path, options, where.guild_id, self.fake.resolve_user, permissions=self.user.permissions
        )
        resolved = data.get("resolved", {})
        if (
            where.guild_id is not None and "users" in resolved
        ):  # users picked in a guild are members
            resolved["members"] = {
                uid: self.fake.member_payload(
                    self.fake.users[int(uid)], with_permissions=True, with_user=False
                )
                for uid in resolved["users"]
            }
        return await self.fake.create_interaction(self.user, APPLICATION_COMMAND, where, data)

    async def autocomplete(
        self,
        *path_and_option: str,
        typed: str = "",
        channel: FakeChannel | str | int | None = None,
        timeout: float = 5.0,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type ``typed`` into an option and return the bot's choices.

        ``autocomplete("gouji", "play", "cards", typed="K")``: the last name is the option;
        ``options`` are the other options already filled in.
        """
        if len(path_and_option) < 2:
            raise UserActionError("give the command path and the option name")
        *path, option = path_and_option
        where = self._where(channel)
        values = {**options, option: typed}
        data = self.fake.commands.invocation(
            tuple(path),
            values,
            where.guild_id,
            self.fake.resolve_user,
            focused=option,
            permissions=self.user.permissions,
        )
        rec = await self.fake.create_interaction(self.user, AUTOCOMPLETE, where, data)
        return await rec.autocomplete_choices(timeout)

    def _component(
        self, msg: MessageRecord, custom_id: str | None, label: str | None, kinds: tuple[int, ...]
    ) -> dict[str, Any]:
        if not self.can_see(msg):
            raise UserActionError(f"{self.name} cannot see message {msg.id}")
        current = self.fake.messages[msg.id]
        found = [
            c
            for c in (current.buttons() + current.selects())
            if c.get("type") in kinds
            and (custom_id is None or c.get("custom_id") == custom_id)
            and (label is None or c.get("label") == label)
        ]
        if not found:
            have = [
                (c.get("custom_id"), c.get("label")) for c in current.buttons() + current.selects()
            ]
            raise UserActionError(f"no such component on message {msg.id}; it has {have}")
        if len(found) > 1:
            raise UserActionError(f"{len(found)} components match; give custom_id")
        comp = found[0]
        if comp.get("disabled"):
            raise UserActionError(f"component {comp.get('custom_id')!r} is disabled")
        if "custom_id" not in comp:
            raise UserActionError("a link or premium button does not reach the bot")
        return comp

    async def click(
        self, message: MessageRecord, custom_id: str | None = None, *, label: str | None = None
    ) -> InteractionRecord:
        """Press a button on a message this user can see (by custom_id or label)."""
        if custom_id is None and label is None:
            raise UserActionError("click needs a custom_id or a label")
        comp = self._component(message, custom_id, label, (2,))
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        channel = self.fake.channels[message.channel_id]
        return await self.fake.create_interaction(
            self.user, MESSAGE_COMPONENT, channel, data, self.fake.messages[message.id]
        )

    async def select(
        self, message: MessageRecord, custom_id: str, values: list[str]
    ) -> InteractionRecord:
        """Choose ``values`` in a string select menu of a message this user can see."""
        comp = self._component(message, custom_id, None, (3,))
        allowed = [o["value"] for o in comp.get("options", [])]
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(values) <= high or any(v not in allowed for v in values):
            raise UserActionError(f"choose {low}-{high} of {allowed}, not {values}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        channel = self.fake.channels[message.channel_id]
        return await self.fake.create_interaction(
            self.user, MESSAGE_COMPONENT, channel, data, self.fake.messages[message.id]
        )

    async def submit_modal(
        self, shown_by: InteractionRecord, values: dict[str, str]
    ) -> InteractionRecord:
        """Fill in and submit the modal the bot showed in answer to ``shown_by``."""
        modal = shown_by.modal
        if modal is None or shown_by.user_id != self.id:
            raise UserActionError("no modal was shown to this user for that interaction")
        inputs = [c for c in walk_components(modal.get("components", [])) if c.get("type") == 4]
        ids = {c["custom_id"] for c in inputs}
        if set(values) - ids:
            raise UserActionError(f"the modal has text inputs {sorted(ids)}")
        for c in inputs:
            value = values.get(c["custom_id"], "")
            if c.get("required", True) and not value:
                raise UserActionError(f"text input {c['custom_id']!r} is required")
            if not c.get("min_length", 0) <= len(value) <= c.get("max_length", 4000):
                raise UserActionError(f"text input {c['custom_id']!r}: length out of bounds")

        def answered(comp: dict[str, Any]) -> dict[str, Any]:
            value = values.get(comp["custom_id"], "")
            return {"type": 4, "custom_id": comp["custom_id"], "value": value}

        rows = []
        for top in modal.get("components", []):  # answer in the modal's own layout
            if top.get("type") == 18 and top.get("component", {}).get("type") == 4:
                rows.append({"type": 18, "component": answered(top["component"])})
            elif top.get("type") == 1:
                kids = [answered(c) for c in top.get("components", []) if c.get("type") == 4]
                rows.append({"type": 1, "components": kids})
        data = {"custom_id": modal["custom_id"], "components": rows}
        channel = self.fake.channels[shown_by.channel_id]
        message = self.fake.messages.get(shown_by.message_id or 0)
        return await self.fake.create_interaction(self.user, MODAL_SUBMIT, channel, data, message)
