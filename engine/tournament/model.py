"""A tournament (比赛) as data: its settings, each round's seating and each table's results.

Everything here is a plain, frozen value with a JSON form, so the store keeps an event as
rows of JSON and any process rebuilds it (:mod:`engine.tournament.standings` folds the
results; :mod:`engine.tournament.seating` seats the next round). Players are user ids; an AI
seat is ``None`` and never has a standing.

>>> Config(name="周赛", format=Format.SWISS, rounds=4).to_json()["format"]
'swiss'
>>> Config.from_json(Config(name="x", format="knockout", rounds=3).to_json()).format
<Format.KNOCKOUT: 'knockout'>
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

SEATS = 6


class Format(StrEnum):
    """瑞士移位 (Swiss over individuals) or 打立出局 then 定局 (``knockout``)."""

    SWISS = "swiss"
    KNOCKOUT = "knockout"


class ConfigError(ValueError):
    """Settings that cannot make an event (the message names the setting)."""


@dataclass(frozen=True, slots=True)
class Config:
    """An event's settings, fixed when it is created.

    ``rounds``: all rounds (a knockout's qualifying rounds and its ``final_rounds``);
    ``games``: games a round (1, or 5: a five-game tribute series); ``ai_fill``: AI seats may
    fill a table (else players sit out a round: a bye); ``gap``: seconds between a round's
    last game and the next round at the latest; ``show_up``: seconds a seated player has
    to join before an AI seat plays for them; ``table``: the tables' options (JSON).
    Knockout only: ``start_points`` everyone starts with; ``line_rise``: the line rises by
    this after each qualifying round (the first line is ``start_points``: below it, out);
    ``finalists`` go to the final rounds carrying ``carry`` percent of their points.
    ``channels``: where its tables play, table 1 in the first (the front end's ids)."""

    name: str
    format: Format
    rounds: int
    games: int = 1
    ai_fill: bool = True
    gap: int = 60
    show_up: int = 120
    table: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    start_points: int = 0
    line_rise: int = 0
    finalists: int = SEATS
    final_rounds: int = 1
    carry: int = 50
    channels: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "format", Format(self.format))
        object.__setattr__(self, "channels", tuple(int(c) for c in self.channels))
        if len(set(self.channels)) != len(self.channels):
            raise ConfigError("channels")
        if not self.name.strip() or len(self.name) > 100:
            raise ConfigError("name")
        if not 1 <= self.rounds <= 20:
            raise ConfigError("rounds")
        if self.games not in (1, 5):
            raise ConfigError("games")
        if not 0 <= self.gap <= 7 * 24 * 3600 or not 10 <= self.show_up <= 3600:
            raise ConfigError("gap")
        if self.format is Format.KNOCKOUT:
            if not 1 <= self.final_rounds < self.rounds:
                raise ConfigError("final_rounds")
            if self.finalists < SEATS or self.finalists % SEATS:
                raise ConfigError("finalists")
            if not 0 <= self.carry <= 100:
                raise ConfigError("carry")

    @property
    def qualifying(self) -> int:
        """Rounds before the final (a knockout's 打立出局); a Swiss event: all of them."""
        return self.rounds - self.final_rounds if self.format is Format.KNOCKOUT else self.rounds

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "format": self.format.value,
            "rounds": self.rounds,
            "games": self.games,
            "ai_fill": self.ai_fill,
            "gap": self.gap,
            "show_up": self.show_up,
            "table": dict(self.table),
            "seed": self.seed,
            "start_points": self.start_points,
            "line_rise": self.line_rise,
            "finalists": self.finalists,
            "final_rounds": self.final_rounds,
            "carry": self.carry,
            "channels": list(self.channels),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return cls(**{key: data[key] for key in cls.__slots__ if key in data})

    def tables_for(self, players: int) -> int:
        """The tables a round of ``players`` needs (AI seats fill, or byes)."""
        return -(-players // SEATS) if self.ai_fill else players // SEATS


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table of a round: ``seats[i]`` is the player at seat i, None an AI seat."""

    number: int
    seats: tuple[int | None, ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in self.seats if p is not None)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seats": list(self.seats)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TablePlan:
        return cls(int(data["number"]), tuple(data["seats"]))


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """A round's seating: its tables (1, 2, …) and who sits out (a bye)."""

    number: int
    tables: tuple[TablePlan, ...]
    byes: tuple[int, ...] = ()

    def table_of(self, player: int) -> TablePlan | None:
        return next((t for t in self.tables if player in t.seats), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "tables": [t.to_json() for t in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundPlan:
        tables = tuple(TablePlan.from_json(t) for t in data["tables"])
        return cls(int(data["number"]), tables, tuple(data.get("byes", ())))


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What one player took from a round's table: ``points`` (the sum over the round's games
    of the game's own score: the team's points plus their own penalties), the ``places``
    (1 头科 … 6 大落) of each game, ``absent``: they never showed up (an AI seat played for
    them; they score nothing), ``left``: they left mid-game (中途强退, then out)."""

    player: int
    points: int
    places: tuple[int, ...] = ()
    absent: bool = False
    left: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "points": self.points,
            "places": list(self.places),
            "absent": self.absent,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatResult:
        return cls(
            int(data["player"]),
            int(data["points"]),
            tuple(int(p) for p in data.get("places", ())),
            bool(data.get("absent", False)),
            bool(data.get("left", False)),
        )


@dataclass(frozen=True, slots=True)
class Round:
    """A round as played so far: its plan, and the results of the tables that finished
    (by table number). A round is over when every table has its results."""

    plan: RoundPlan
    results: Mapping[int, tuple[SeatResult, ...]] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return all(t.number in self.results for t in self.plan.tables)


def absent_result(player: int) -> SeatResult:
    """A no-show's result: nothing."""
    return SeatResult(player, 0, (), absent=True)


def check_round(plan: RoundPlan, players: Sequence[int]) -> None:
    """Raise ValueError unless ``plan`` seats each of ``players`` once (at a table or out on
    a bye) at tables of six seats."""
    seen = [p for t in plan.tables for p in t.players] + list(plan.byes)
    if len(seen) != len(set(seen)) or sorted(seen) != sorted(players):
        raise ValueError(f"round {plan.number} does not seat each player once")
    if any(len(t.seats) != SEATS for t in plan.tables):
        raise ValueError(f"round {plan.number} has a table without six seats")
