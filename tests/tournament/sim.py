"""Playing a tournament's rounds without tables: each table's places drawn from a seeded
random generator, scored as the game scores a single game (the team's place points)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from engine.scoring import PLACE_POINTS
from engine.tournament import Config, Round, RoundPlan, SeatResult, seat_round, standings


def play_table(seats: tuple[int | None, ...], rng: random.Random) -> tuple[SeatResult, ...]:
    """A single game at a table: random places, each player scoring their team's points."""
    places = list(range(1, 7))
    rng.shuffle(places)
    team = [sum(PLACE_POINTS[places[s]] for s in range(6) if s % 2 == t) for t in (0, 1)]
    return tuple(
        SeatResult(p, team[s % 2], (places[s],)) for s, p in enumerate(seats) if p is not None
    )


def play_round(plan: RoundPlan, rng: random.Random) -> Round:
    return Round(plan, {t.number: play_table(t.seats, rng) for t in plan.tables})


def run_event(
    config: Config,
    entrants: Iterable[int],
    seed: int,
    left: Mapping[int, int] | None = None,
) -> list[Round]:
    """Every round of the event, seated from the standings after the one before."""
    entrants = list(entrants)
    rng = random.Random(seed)
    rounds: list[Round] = []
    for number in range(1, config.rounds + 1):
        lines = standings(config, entrants, rounds, left)
        plan = seat_round(config, number, lines, rounds)
        if not plan.tables:
            break
        rounds.append(play_round(plan, rng))
    return rounds
