"""What the table service tells the outside world, without knowing about Discord.

The service calls a :class:`Presenter` while it holds a table's lock, so every method only
*schedules* work and returns at once (the Discord presenter queues it per table, in order).
Announcement parameters may hold :class:`Who` (a seat, shown as its player's name),
:class:`Place` (头科 … 大落) and lists of either; the presenter formats them in the server's
language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.service.live import LiveTable

# prompt kinds: what a seat is asked in its DMs
DECLARE, REVOLT, RETURN, BURN, TURN = "declare", "revolt", "return", "burn", "turn"
HEAD = "head"  # 要头 / 无头: the revolutionary's opposite (够死级 on)


@dataclass(frozen=True, slots=True)
class Who:
    """A seat, to be named by its player (or as the AI)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Mention:
    """A user by id, to be named (without a notification)."""

    user_id: int


@dataclass(frozen=True, slots=True)
class Place:
    """A place 1 (头科) … 6 (大落)."""

    place: int


@dataclass(frozen=True, slots=True)
class Acted:
    """An action (its verb and cards), to be worded: "出 777 + 22 → 五张 7", "过牌"."""

    verb: str
    cards: str | None = None


class Presenter(Protocol):
    """The service's events. Implementations must not raise and must not block."""

    def table_changed(self, live: LiveTable) -> None:
        """The table's state changed: redraw the table message (coalescing is allowed)."""

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        """A short channel announcement (catalog ``key``)."""

    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        """Mention these seats' players (a notification): their turn, or a question."""

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        """The clock runs out for these seats in ``seconds``."""

    def hand_changed(self, live: LiveTable, seat: int) -> None:
        """This seat's cards changed: DM its player the new hand."""

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        """Ask this seat's player by DM (``kind``: declare, revolt, head, return, burn, turn)."""

    def answered(self, live: LiveTable, seat: int) -> None:
        """The seat's question was answered (by any means): its DM prompt is done."""

    def closed(self, live: LiveTable, key: str) -> None:
        """The table ended (``key``: ended, ended_idle)."""

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        """A table could not be restored and was set aside (its channel is told why)."""


class RecordingPresenter:
    """A presenter that only records what it was told (for tests and headless runs)."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def table_changed(self, live: LiveTable) -> None:
        self.events.append(("table", live.id))

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        self.events.append(("announce", live.id, key, params))

    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        self.events.append(("ping", live.id, tuple(seats), key))

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        self.events.append(("warn", live.id, tuple(seats), seconds))

    def hand_changed(self, live: LiveTable, seat: int) -> None:
        self.events.append(("hand", live.id, seat))

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        self.events.append(("prompt", live.id, seat, kind))

    def answered(self, live: LiveTable, seat: int) -> None:
        self.events.append(("answered", live.id, seat))

    def closed(self, live: LiveTable, key: str) -> None:
        self.events.append(("closed", live.id, key))

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        self.events.append(("broken", table_id, reason))

    def of(self, kind: str) -> list[tuple[Any, ...]]:
        """The recorded events of one kind."""
        return [e for e in self.events if e[0] == kind]

    def announced(self) -> list[str]:
        """The announcement keys, in order."""
        return [e[2] for e in self.events if e[0] == "announce"]
