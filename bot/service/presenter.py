"""What the table service tells the outside world, without knowing about Discord.

The service calls its :class:`Presenter` while it holds a table's lock, so every method only
*schedules* work and returns at once (the Discord presenter queues it per table, in order).
The service's presenter is a :class:`Listeners`: it tells each front end listening (the
Discord presenter, a browser's sockets, a recording in tests) in turn, so that several front
ends follow the same table at once; ``service.listen(listener)`` adds one. A listener may
take a view of the table in its callback (``service.public_view_locked(live)``): the lock
is held there, so the view is consistent.

Announcement parameters are the typed values of :mod:`bot.text.params` (``Who``, ``Place``,
``Acted``, ``PlaceLine``, ``TributeLine`` …); a front end words them in its players'
language.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, Protocol

from bot.service.live import LiveTable
from bot.service.questions import QuestionKind
from bot.text.params import Acted, Mention, Place, Who

log = logging.getLogger("gouji.bot")


class Presenter(Protocol):
    """The service's events. Implementations must not raise and must not block. (Each event
    does nothing by default, so that a :class:`Listener` overrides only those it needs.)"""

    def table_changed(self, live: LiveTable) -> None:
        """The table's state changed: show it anew (coalescing is allowed)."""
        return None

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        """A short announcement to the table (catalog ``key``, typed ``params``)."""
        return None

    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        """Mention these seats' players (a notification): their turn, or a question."""
        return None

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        """The clock runs out for these seats in ``seconds``."""
        return None

    def hand_changed(self, live: LiveTable, seat: int) -> None:
        """This seat's cards changed: show its player the new hand."""
        return None

    def prompt(self, live: LiveTable, seat: int, kind: QuestionKind) -> None:
        """Ask this seat's player (``kind``: what it is asked)."""
        return None

    def answered(self, live: LiveTable, seat: int) -> None:
        """The seat's question was answered (by any means): its prompt is done."""
        return None

    def series_over(self, live: LiveTable) -> None:
        """The series (or, without series, the single game) is over and its results were
        announced: the table waits for another. Each front end says how to go on (Discord:
        ``/gouji again``; the browser: its button)."""
        return None

    def closed(self, live: LiveTable, key: str) -> None:
        """The table ended (``key``: ended, ended_idle)."""
        return None

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        """A table could not be restored, or failed, and was set aside (tell its players)."""
        return None

    def moved(self, live: LiveTable) -> None:
        """Another process serves the table now (this one lost its claim): it is coming
        back there."""
        return None


class Listener(Presenter):
    """A :class:`Presenter` that ignores every event: subclass it and override the events a
    front end cares about (a browser table: ``table_changed``, ``prompt``, ``answered``,
    ``closed``)."""


class Listeners:
    """The presenters listening to the service, told each event in the order they were
    added. A listener that raises is logged and the others are still told."""

    def __init__(self, *listeners: Presenter) -> None:
        self._listeners: list[Presenter] = list(listeners)

    def add(self, listener: Presenter) -> None:
        """Tell ``listener`` every event from now on (once, however often it is added)."""
        if not any(known is listener for known in self._listeners):
            self._listeners.append(listener)

    def remove(self, listener: Presenter) -> None:
        """Stop telling ``listener`` (a closed socket); one never added is ignored."""
        self._listeners = [known for known in self._listeners if known is not listener]

    def __iter__(self) -> Iterator[Presenter]:
        return iter(list(self._listeners))

    def _tell(self, event: str, *args: Any, **params: Any) -> None:
        for listener in list(self._listeners):
            try:
                getattr(listener, event)(*args, **params)
            except Exception:
                log.exception("a listener (%s) failed on %s", type(listener).__name__, event)

    def table_changed(self, live: LiveTable) -> None:
        self._tell("table_changed", live)

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        self._tell("announce", live, key, **params)

    def ping(self, live: LiveTable, seats: list[int], key: str) -> None:
        self._tell("ping", live, seats, key)

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        self._tell("warn", live, seats, seconds)

    def hand_changed(self, live: LiveTable, seat: int) -> None:
        self._tell("hand_changed", live, seat)

    def prompt(self, live: LiveTable, seat: int, kind: QuestionKind) -> None:
        self._tell("prompt", live, seat, kind)

    def answered(self, live: LiveTable, seat: int) -> None:
        self._tell("answered", live, seat)

    def series_over(self, live: LiveTable) -> None:
        self._tell("series_over", live)

    def closed(self, live: LiveTable, key: str) -> None:
        self._tell("closed", live, key)

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        self._tell("broken", table_id, channel_id, reason)

    def moved(self, live: LiveTable) -> None:
        self._tell("moved", live)


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

    def prompt(self, live: LiveTable, seat: int, kind: QuestionKind) -> None:
        self.events.append(("prompt", live.id, seat, kind))

    def answered(self, live: LiveTable, seat: int) -> None:
        self.events.append(("answered", live.id, seat))

    def series_over(self, live: LiveTable) -> None:
        self.events.append(("series_over", live.id))

    def closed(self, live: LiveTable, key: str) -> None:
        self.events.append(("closed", live.id, key))

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        self.events.append(("broken", table_id, reason))

    def moved(self, live: LiveTable) -> None:
        self.events.append(("moved", live.id))

    def of(self, kind: str) -> list[tuple[Any, ...]]:
        """The recorded events of one kind."""
        return [e for e in self.events if e[0] == kind]

    def announced(self) -> list[str]:
        """The announcement keys, in order."""
        return [e[2] for e in self.events if e[0] == "announce"]


__all__ = [
    "Acted",
    "Listener",
    "Listeners",
    "Mention",
    "Place",
    "Presenter",
    "RecordingPresenter",
    "Who",
]
