"""What a front end reads of a table: plain, typed, JSON-ready snapshots taken under the
table's lock (``bot/service/front.py`` builds them).

- :class:`TableInfo`: where the table is, its options and its six seats (who sits, AI,
  托管, left) — no game state.
- :class:`PublicView`: what everyone may know (a channel, a spectator): the table info,
  the deal being played, whose turn, the clock, the burn window, the standing play and who
  played it, each seat's card count and marks (开点, 宣点, 无头, 托管), the 记牌器 when
  the table shows it, the series scoreboard and the recent announcements. Never a card of
  anyone's hand.
- :class:`PrivateView`: one seat's view: its hand, the question it is asked
  (:class:`~bot.service.questions.Question`) and the public view. Never another seat's
  cards.

The table and the scoreboard are the render models the pictures are drawn from
(:mod:`render.models`), without names: a front end names the seats its own way
(``bot.pictures.views.named``). :func:`to_json` turns any of these into JSON values.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot.service.live import LiveTable, TableOptions
from bot.service.presenter import Listener
from bot.service.questions import Prompt, Question, QuestionKind
from bot.text.params import Param
from engine.cards import Card
from engine.events import TributePaid
from engine.hands import Play
from render.models import SeriesView, TableView

#: Announcements kept per table for its views (the newest last).
LOG_KEEP = 20


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat: who sits (``user_id``; None: an AI seat or empty), the AI's kind, whether
    the AI decides for it now (``ai_plays``: an AI seat, 托管, or a player who left),
    ``standin`` (托管: the AI plays for the person until they come back), ``left`` (the
    person left this game, −10; the AI plays on) and ``dm_refused`` (the person's Discord
    DMs are closed)."""

    seat: int
    user_id: int | None
    ai_kind: str | None
    ai_plays: bool
    standin: bool = False
    left: bool = False
    dm_refused: bool = False

    @property
    def team(self) -> int:
        """The team (联邦): 0 for seats 0, 2, 4; 1 for seats 1, 3, 5."""
        return self.seat % 2

    @property
    def empty(self) -> bool:
        return self.user_id is None and self.ai_kind is None

    @property
    def stood_in(self) -> bool:
        """托管: a person the AI plays for (what the table marks)."""
        return self.ai_plays and self.user_id is not None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table without its game: its ids, where it is (``guild_id``, ``channel_id``), who
    opened it, the message that shows it (Discord), its options and seats, and whether it is
    still open."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    message_id: int | None
    options: TableOptions
    seats: tuple[SeatInfo, ...]
    open: bool = True

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds, or None."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def users(self) -> list[int]:
        """The people seated, in seat order."""
        return [s.user_id for s in self.seats if s.user_id is not None]


@dataclass(frozen=True, slots=True)
class Announcement:
    """One announcement (a catalog ``key`` and its typed parameters, :mod:`bot.text.params`),
    as the service made it."""

    key: str
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as everyone may see it.

    ``deal`` counts the deals so far (a void deal is dealt again), ``number`` is the game
    number of the current one (None before the first), out of ``games_total``; ``phase`` is
    ``"return"`` while tribute is returned (还贡), else the game's phase (``declare``,
    ``revolt``, ``head``, ``play``, ``finished``, ``void``). ``asking``: the kind of question
    the table waits on now, put to the seats ``to_act`` (None: nobody). ``deadline``: when
    the clock runs out for them (unix time; None: no clock runs). ``burn_window``: the
    standing gouji hand may be burnt now. ``table``: the render model of the table (card
    counts, marks, last actions, the standing play, melee, 记牌器 if on) — it does not show
    who is asked in a burn window; ``scoreboard``: the series so far. Both without names."""

    info: TableInfo
    playing: bool
    deal: int
    number: int | None
    games_total: int
    phase: str | None
    asking: QuestionKind | None
    to_act: tuple[int, ...]
    deadline: float | None
    burn_window: bool
    standing: Play | None
    standing_seat: int | None
    table: TableView
    scoreboard: SeriesView | None
    log: tuple[Announcement, ...]
    result_waiting: tuple[int, ...] = ()  # a finished game's result held for these seats
    # the tribute of this deal (进贡, as announced: the cards' ranks) and its returns (还贡):
    # (giver, taker, how many, made yet) — the returned cards are the two seats' own
    paid: tuple[TributePaid, ...] = ()
    # once the series is over: each seat's player's title after it (None: an AI seat)
    titles: tuple[str | None, ...] = ()
    returns: tuple[tuple[int, int, int, bool], ...] = ()

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def in_game(self) -> bool:
        """A game is being played or just over (not during 还贡, not before a deal)."""
        return self.phase is not None and self.phase != Prompt.RETURN

    def card_counts(self) -> tuple[int, ...]:
        """The cards each seat holds."""
        return tuple(seat.cards_left for seat in self.table.seats)


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What ``seat`` sees: its ``hand`` (cards with suits, ``""`` with no deal), the question
    it is asked now (None: none, or the AI answers for it) and the public view."""

    seat: int
    hand: str
    question: Question | None
    public: PublicView
    received: str = ""  # the cards (with suits) it was paid as tribute this deal


class RecentLog(Listener):
    """The service's own listener: the last :data:`LOG_KEEP` announcements of each table,
    for its views."""

    def __init__(self) -> None:
        self._tables: dict[int, deque[Announcement]] = {}

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        kept = self._tables.get(live.id)
        if kept is None:
            kept = self._tables[live.id] = deque(maxlen=LOG_KEEP)
        kept.append(Announcement(key, dict(params)))

    def of(self, table_id: int) -> tuple[Announcement, ...]:
        return tuple(self._tables.get(table_id, ()))

    def closed(self, live: LiveTable, key: str) -> None:
        self._tables.pop(live.id, None)

    def broken(self, table_id: int, channel_id: int, reason: str) -> None:
        self._tables.pop(table_id, None)


def to_json(value: Any) -> Any:
    """A view, question or announcement as JSON values: dataclasses become objects (an
    announcement parameter carries its ``"type"``), plays their notation (``"77722"``),
    enums their value, tuples lists.

    >>> from bot.text.params import Who
    >>> to_json(Announcement("ev_open", {"user": Who(3)}))
    {'key': 'ev_open', 'params': {'user': {'type': 'Who', 'seat': 3}}}
    """
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, str):
        return value
    if isinstance(value, Play | Card):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"type": type(value).__name__} if isinstance(value, Param) else {}
        for f in dataclasses.fields(value):
            out[f.name] = to_json(getattr(value, f.name))
        return out
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple | deque | frozenset | set):
        return [to_json(v) for v in value]
    raise TypeError(f"{type(value).__name__} is not part of a view")
