"""The typed rows the store returns. Frozen: change the database through the store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.rating import Rating

TableStatus = Literal["lobby", "playing", "finished", "ended", "broken"]
SeriesStatus = Literal["playing", "finished", "abandoned"]
GameStatus = Literal["playing", "finished", "void", "abandoned"]
AiKind = Literal["hint", "expert", "strong"]

TABLE_STATUSES: tuple[str, ...] = ("lobby", "playing", "finished", "ended", "broken")
ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "playing")
AI_KINDS: tuple[str, ...] = ("hint", "expert", "strong")


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings. ``channels`` empty: tables may open in any channel."""

    guild_id: int
    language: str
    table_defaults: dict[str, Any]
    channels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """A table (牌桌). ``turn_deadline`` is a unix time, None when no clock runs.
    ``owner``: the process that claimed it (:mod:`data.claims`), until ``owner_until``."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    options: dict[str, Any]
    status: TableStatus
    broken_reason: str | None
    message_id: int | None
    turn_deadline: float | None
    created_at: float
    updated_at: float
    owner: str | None = None
    owner_until: float | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """One of a table's six seats. Empty: no user and no AI. ``standin``: the AI of
    ``ai_kind`` plays for ``user_id`` (托管). ``timeouts``: turns timed out in a row."""

    table_id: int
    seat: int
    user_id: int | None
    ai_kind: AiKind | None
    standin: bool
    timeouts: int
    dm_refused: bool

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and self.ai_kind is None


@dataclass(frozen=True, slots=True)
class Series:
    """A series of games at a table; ``totals`` (six seat totals) once it is over."""

    id: int
    table_id: int
    number: int
    options: dict[str, Any]
    status: SeriesStatus
    totals: list[int] | None
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class Game:
    """One deal of a game. A void deal (two revolts) has status ``void`` and is followed by
    a deal of the same ``number`` with ``deal`` one higher. ``hands`` are as dealt."""

    id: int
    series_id: int
    number: int
    deal: int
    seed: int
    hands: tuple[str, ...]
    status: GameStatus
    result: dict[str, Any] | None
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class GameLog:
    """A deal with its whole action log, in order (index = position)."""

    game: Game
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Resume:
    """A series' snapshot (:mod:`data.snapshots`) to resume from: the engine's state
    ``state`` in deal ``game_id`` after its first ``idx`` log entries, and ``tail``, the
    entries logged after those."""

    game_id: int
    idx: int
    state: bytes
    tail: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ActiveTable:
    """Everything needed to rebuild a lobby or playing table: the table, its six seats,
    its latest series (None if it never started one) and every deal of that series with
    its log — or, when ``resume`` is set, the deals without their logs (``actions`` empty:
    the snapshot covers them) and the snapshot with the entries logged after it."""

    table: Table
    seats: tuple[Seat, ...]
    series: Series | None
    games: tuple[GameLog, ...]
    resume: Resume | None = None


@dataclass(frozen=True, slots=True)
class BrokenTable:
    """A table set aside as broken, with the reason in words."""

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class LoadReport:
    """What :meth:`Store.load_active_tables` found: the tables to rebuild and those it had
    to mark broken."""

    tables: list[ActiveTable] = field(default_factory=list)
    broken: list[BrokenTable] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished deal and where it was played (for 录像 and 复盘): the deal ``game_id`` is
    game ``number`` of series ``series_id`` at ``table_id`` in ``channel_id``."""

    game_id: int
    series_id: int
    number: int
    table_id: int
    guild_id: int
    channel_id: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class ProfileUpdate:
    """One player's profile change for one finished game. ``score_delta`` is the whole
    change (the team's game score plus the player's own penalties, e.g. −10 for leaving);
    ``place`` 1 (头科) … 6 (大落), None if the game gave them none."""

    user_id: int
    score_delta: int
    place: int | None
    opens: int = 0
    burns: int = 0
    stifles: int = 0
    leaves: int = 0


@dataclass(frozen=True, slots=True)
class Profile:
    """A player's profile on one server. ``places[k]`` counts finishes in place k + 1.
    The title is the caller's to compute from ``score`` (``engine.title_for``)."""

    guild_id: int
    user_id: int
    score: int
    games: int
    places: tuple[int, int, int, int, int, int]
    opens: int
    burns: int
    stifles: int
    leaves: int


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's skill rating on one server (:mod:`data.ratings`): ``player`` is a user id
    in digits or ``ai:KIND`` (an AI level); ``rank`` 1 is the best of the ``players`` rated
    on the server (people and AI levels together)."""

    guild_id: int
    player: str
    rating: Rating
    rank: int
    players: int

    @property
    def user_id(self) -> int | None:
        return None if self.player.startswith("ai:") else int(self.player)

    @property
    def ai_kind(self) -> str | None:
        return self.player[3:] if self.player.startswith("ai:") else None


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a series did to a player's rating: ``change`` of the conservative figure over
    its ``games`` rated games, and the figure ``after`` the player's last one."""

    player: str
    change: float
    after: float
    games: int


@dataclass(frozen=True, slots=True)
class RebuildReport:
    """What :meth:`Store.rebuild_ratings` did: servers, their results, the games rated."""

    guilds: int
    results: int
    rated: int
