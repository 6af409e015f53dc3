"""Counts over what the fake recorded: requests by route and token kind, 429s by scope, and
the bot's messages per channel (DM or guild channel): created, edited, deleted, lasting.

Everything is read from ``fake.requests`` and ``fake.messages`` (one record, no second
copy); ``since`` (a ``time.monotonic()`` value) keeps only what happened from then on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .limits import token_kind
from .model import LOADING, MessageRecord

if TYPE_CHECKING:
    from .server import FakeDiscord


@dataclass
class RequestTally:
    """Requests by ``"METHOD /route/{template}"``, split by token kind, and the 429s."""

    bot: Counter[str] = field(default_factory=Counter)  # bot-token routes
    interaction: Counter[str] = field(default_factory=Counter)  # callbacks and follow-ups
    throttled: Counter[tuple[str, str]] = field(default_factory=Counter)  # (route, scope)

    @property
    def bot_total(self) -> int:
        """Requests made with the bot's token (the ones the global limit counts)."""
        return sum(self.bot.values())

    @property
    def throttled_total(self) -> int:
        """429 answers of every scope."""
        return sum(self.throttled.values())

    def throttled_by_scope(self) -> Counter[str]:
        """429 answers by scope (``global``, ``user``, ``shared``)."""
        out: Counter[str] = Counter()
        for (_, scope), n in self.throttled.items():
            out[scope] += n
        return out


def request_tally(fake: FakeDiscord, since: float = 0.0) -> RequestTally:
    """Count the requests to known routes made from ``since`` on."""
    tally = RequestTally()
    for r in fake.requests:
        if r.at < since or r.route is None:
            continue
        name = f"{r.method} {r.route}"
        (tally.bot if token_kind(r.route) == "bot" else tally.interaction)[name] += 1
        if r.status == 429:
            tally.throttled[(name, r.scope or "?")] += 1
    return tally


@dataclass
class ChannelTally:
    """The bot's messages in one channel.

    ``posted`` are created with the bot's token (in a DM each one notifies the player),
    ``replies`` are interaction answers and follow-ups seen by everyone in the channel,
    ``ephemeral`` the ones seen by one user only. ``edits`` do not count a deferred answer
    being filled in; ``deleted`` counts non-ephemeral messages only.
    """

    channel_id: int
    recipient_id: int | None  # the user of a DM channel; None for a guild channel
    posted: int = 0
    replies: int = 0
    ephemeral: int = 0
    edits: int = 0
    deleted: int = 0

    @property
    def dm(self) -> bool:
        """Whether this is a DM channel."""
        return self.recipient_id is not None

    @property
    def created(self) -> int:
        """Non-ephemeral messages created (posted and interaction replies)."""
        return self.posted + self.replies

    @property
    def lasting(self) -> int:
        """Non-ephemeral messages still there."""
        return self.created - self.deleted


def _edits(msg: MessageRecord) -> int:
    """Edits of a message, not counting a deferred answer being filled in."""
    filled = 1 if msg.history and msg.history[0].flags & LOADING else 0
    return len(msg.history) - filled


def message_tally(fake: FakeDiscord, since: float = 0.0) -> dict[int, ChannelTally]:
    """The bot's messages created from ``since`` on, by channel id."""
    out: dict[int, ChannelTally] = {}
    for msg in fake.messages.values():
        if msg.author_id != fake.bot_user.id or msg.created_at < since:
            continue
        if msg.channel_id not in out:
            channel = fake.channels[msg.channel_id]
            out[msg.channel_id] = ChannelTally(msg.channel_id, channel.recipient_id)
        tally = out[msg.channel_id]
        tally.edits += _edits(msg)
        if msg.ephemeral:
            tally.ephemeral += 1
            continue
        if msg.interaction_id is None:
            tally.posted += 1
        else:
            tally.replies += 1
        tally.deleted += msg.deleted
    return out
