"""Standings: a fold over an event's results, so they are always a recomputation.

The order (docs/tournaments.md, "Ties"): players still in first (a knockout: the finalists,
then those out later before those out earlier; leavers last), then more points, then more
place points (the places' own points, 头科 +4 … 大落 −4, over the games played: who did
better at the table themselves), then more first places (头科), then the draw of the event
(its seed: a fixed, random order of the entrants).

>>> from engine.tournament.model import RoundPlan, TablePlan
>>> cfg = Config(name="x", format=Format.SWISS, rounds=1, seed=1)
>>> plan = RoundPlan(1, (TablePlan(1, (1, 2, 3, 4, 5, 6)),))
>>> places = {1: 1, 2: 4, 3: 2, 4: 5, 5: 3, 6: 6}  # seats 0, 2, 4 are a team
>>> res = tuple(SeatResult(p, 6 if p % 2 else -6, (places[p],)) for p in range(1, 7))
>>> [s.player for s in standings(cfg, range(1, 7), [Round(plan, {1: res})])]
[1, 3, 5, 2, 4, 6]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..scoring import PLACE_POINTS
from .model import Config, Format, Round, SeatResult

IN, OUT, LEFT = "in", "out", "left"


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: ``rank`` (1, 2, …), ``points``, ``rounds`` played at a table,
    ``place_points`` and ``firsts`` (the tie-breaks), ``byes``, ``absences`` (rounds an AI
    seat played for them), ``status`` (``in``, ``out``: below a knockout's line, ``left``)
    and ``out_round`` (the round after which they went out or left, 0: still in)."""

    player: int
    rank: int
    points: int
    rounds: int
    place_points: int
    firsts: int
    byes: int
    absences: int
    status: str
    out_round: int
    draw: int

    @property
    def active(self) -> bool:
        return self.status == IN


def draw_order(seed: int, entrants: Iterable[int]) -> dict[int, int]:
    """The event's draw: each entrant's place in a random order fixed by the seed."""
    players = sorted(set(entrants))
    random.Random(seed).shuffle(players)
    return {p: i for i, p in enumerate(players)}


def standings(
    config: Config,
    entrants: Iterable[int],
    rounds: Sequence[Round],
    left: Mapping[int, int] | None = None,
) -> list[Standing]:
    """Everyone's standing after ``rounds`` (the results so far), best first. ``left``:
    players who left the event → the number of rounds they were seated for (out after it)."""
    entrants = list(entrants)
    draw = draw_order(config.seed, entrants)
    start = config.start_points if config.format is Format.KNOCKOUT else 0
    lines = {p: Standing(p, 0, start, 0, 0, 0, 0, 0, IN, 0, draw[p]) for p in sorted(set(entrants))}
    left = dict(left or {})
    for p, at in left.items():
        if p in lines and at == 0:
            lines[p] = replace(lines[p], status=LEFT)
    for rnd in rounds:
        number = rnd.plan.number
        for p in rnd.plan.byes:
            lines[p] = replace(lines[p], byes=lines[p].byes + 1)
        for results in rnd.results.values():
            for r in results:
                lines[r.player] = _add(lines[r.player], r, number)
        if not rnd.over:
            break
        for p, at in left.items():
            if p in lines and at == number and lines[p].status == IN:
                lines[p] = replace(lines[p], status=LEFT, out_round=number)
        if config.format is Format.KNOCKOUT and number <= config.qualifying:
            _cut(config, lines, number)
    return ranked(config, lines.values())


def _add(line: Standing, result: SeatResult, number: int) -> Standing:
    line = replace(
        line,
        points=line.points + result.points,
        rounds=line.rounds + 1,
        place_points=line.place_points + sum(PLACE_POINTS[p] for p in result.places),
        firsts=line.firsts + sum(1 for p in result.places if p == 1),
        absences=line.absences + int(result.absent),
    )
    if result.left and line.status == IN:
        line = replace(line, status=LEFT, out_round=number)
    return line


def _cut(config: Config, lines: dict[int, Standing], number: int) -> None:
    """After qualifying round ``number``: out below the line (never fewer than the
    finalists left; without AI seats, a whole number of tables); after the last one, the
    finalists stay, carrying ``carry`` percent of their points (rounded down)."""
    active = [s for s in ranked(config, lines.values()) if s.active]
    if number < config.qualifying:
        line = config.start_points + (number - 1) * config.line_rise
        keep = sum(1 for s in active if s.points >= line)
        if not config.ai_fill:
            keep -= keep % 6
        keep = max(keep, config.finalists)
    else:
        keep = config.finalists
    for i, s in enumerate(active):
        if i >= keep:
            lines[s.player] = replace(s, status=OUT, out_round=number)
        elif number == config.qualifying:
            lines[s.player] = replace(s, points=s.points * config.carry // 100)


def _key(config: Config, s: Standing) -> tuple[int, int, int, int, int]:
    if s.status == IN:
        group = 0
    elif s.status == OUT:
        group = 1 + config.rounds - s.out_round
    else:
        group = 1 + 2 * config.rounds
    return (group, -s.points, -s.place_points, -s.firsts, s.draw)


def ranked(config: Config, lines: Iterable[Standing]) -> list[Standing]:
    """The lines in standing order, ranked 1, 2, …"""
    order = sorted(lines, key=lambda s: _key(config, s))
    return [replace(s, rank=i + 1) for i, s in enumerate(order)]
