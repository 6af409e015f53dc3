"""Seating a round: tables of six, by standing, partners rotating, byes fair.

Why by hand (docs/tournaments.md, "Seating"): the Swiss pairing libraries (bbpPairings,
swissdutch, the FIDE Dutch system) pair two players; a weighted matching (Edmonds' blossom,
networkx's ``max_weight_matching``) matches pairs too. Gouji seats six at a table in two
teams of three: grouping players into sixes that avoid repeats is a set-partition problem
no library solves, and exactly it is NP-hard. An event is small (a round of 60 players is 10
tables), so this module does what a tournament director does, deterministically:

1. **Byes** (no AI seats allowed and the players are not a multiple of six): the players
   with the fewest byes so far sit out, the lowest standing among them — nobody gets a
   second bye before everyone still in had one.
2. **Brackets**: the players in standing order are cut into as many tables as needed, of
   sizes as even as possible (the top tables full; AI seats fill the bottom ones).
3. **Swaps**: players are swapped between tables while that lowers the cost — a repeated
   partnership costs :data:`PARTNER`, a repeated opponent :data:`OPPONENT`, each player away
   from their bracket :data:`AWAY` per table — no player more than one table away from
   their bracket (similar standing together); only if a repeated partnership is left then,
   swaps may move players further (avoiding it comes first).
4. **Teams**: at each table the split into two teams of three with the fewest repeats (of
   the ten there are), the team with the best-placed player at seats 0, 2, 4.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from .model import SEATS, Config, Round, RoundPlan, TablePlan
from .standings import Standing

PARTNER = 1000
OPPONENT = 10
AWAY = 25

Pair = frozenset[int]


class History:
    """How often each two players were partners (same team) and opponents before."""

    def __init__(self, rounds: Sequence[Round] = ()) -> None:
        self.partners: Counter[Pair] = Counter()
        self.opponents: Counter[Pair] = Counter()
        for rnd in rounds:
            for table in rnd.plan.tables:
                self.add(table.seats)

    def add(self, seats: Sequence[int | None]) -> None:
        for a, b in combinations(range(SEATS), 2):
            pa, pb = seats[a], seats[b]
            if pa is None or pb is None:
                continue
            (self.partners if a % 2 == b % 2 else self.opponents)[frozenset((pa, pb))] += 1

    def repeats(self, team: Sequence[int | None], others: Sequence[int | None]) -> int:
        """The cost of seating two teams: their repeated partnerships and opponents."""
        cost = 0
        for side in (team, others):
            for x, y in combinations([p for p in side if p is not None], 2):
                cost += PARTNER * self.partners[frozenset((x, y))]
        for u in team:
            for v in others:
                if u is not None and v is not None:
                    cost += OPPONENT * self.opponents[frozenset((u, v))]
        return cost


def byes_for(active: Sequence[Standing], count: int) -> list[int]:
    """The ``count`` players who sit out: fewest byes first, then the lowest standing."""
    order = sorted(active, key=lambda s: (s.byes, -s.rank))
    return [s.player for s in order[:count]]


Split = tuple[int, list[int | None], list[int | None]]


def best_split(group: Sequence[int | None], history: History) -> Split:
    """The cheapest of the ten splits of a table into two teams of three (the first found
    among equals): (its repeats, one team, the other); empty seats are None."""
    slots = list(group) + [None] * (SEATS - len(group))
    best: Split | None = None
    for picked in combinations(range(1, SEATS), 2):
        team = [slots[0]] + [slots[i] for i in picked]
        others = [slots[i] for i in range(1, SEATS) if i not in picked]
        cost = history.repeats(team, others)
        if best is None or cost < best[0]:
            best = (cost, team, others)
    assert best is not None
    return best


def seats_of(
    group: Sequence[int | None], rank: dict[int, int], history: History
) -> tuple[int | None, ...]:
    """A table's seats: the best split, the team of the best-placed player at seats 0, 2,
    4, each team in standing order, AI seats last."""

    def order(team: Sequence[int | None]) -> list[int | None]:
        return sorted(team, key=lambda p: rank[p] if p is not None else len(rank) + 1)

    _, first, second = best_split(group, history)
    first, second = order(first), order(second)
    if first[0] is None or (second[0] is not None and rank[second[0]] < rank[first[0]]):
        first, second = second, first
    seats: list[int | None] = [None] * SEATS
    seats[0::2], seats[1::2] = first, second
    return tuple(seats)


def bracket_sizes(players: int, tables: int) -> list[int]:
    """Players at each table, as even as possible, the larger tables first."""
    base, extra = divmod(players, tables)
    return [base + (1 if i < extra else 0) for i in range(tables)]


def seat_round(
    config: Config, number: int, lines: Sequence[Standing], rounds: Sequence[Round]
) -> RoundPlan:
    """Seat round ``number`` from the standings ``lines`` (after ``rounds``): tables of the
    players still in, in standing order, each numbered 1, 2, …; no table (a plan without
    tables) when too few are left to fill one."""
    active = [s for s in lines if s.active]
    rank = {s.player: s.rank for s in lines}
    byes: list[int] = []
    if not config.ai_fill:
        byes = byes_for(active, len(active) % SEATS)
    players = [s.player for s in active if s.player not in byes]
    count = config.tables_for(len(players))
    if count == 0:
        return RoundPlan(number, (), tuple(sorted(byes)))
    groups: list[list[int]] = []
    home: dict[int, int] = {}
    at = 0
    for t, size in enumerate(bracket_sizes(len(players), count)):
        groups.append(players[at : at + size])
        home.update((p, t) for p in groups[-1])
        at += size
    history = History(rounds)
    _swap(groups, home, history, 1)
    if any(best_split(g, history)[0] >= PARTNER for g in groups):
        _swap(groups, home, history, len(groups))  # a repeated partner: look further
    tables = tuple(TablePlan(i + 1, seats_of(g, rank, history)) for i, g in enumerate(groups))
    return RoundPlan(number, tables, tuple(sorted(byes)))


def _swap(groups: list[list[int]], home: dict[int, int], history: History, reach: int) -> None:
    """Best-improvement swaps, no player more than ``reach`` tables from home, until none
    lowers the cost (deterministic)."""
    costs = [best_split(g, history)[0] for g in groups]

    def away(player: int, table: int) -> int:
        return AWAY * abs(table - home[player])

    for _ in range(200):
        best: tuple[int, int, int, int, int, int, int] | None = None
        for i in range(len(groups)):
            for j in range(i + 1, min(i + 2 * reach + 1, len(groups))):
                if costs[i] == 0 and costs[j] == 0:
                    continue
                for a, pa in enumerate(groups[i]):
                    if abs(j - home[pa]) > reach:
                        continue
                    for b, pb in enumerate(groups[j]):
                        if abs(i - home[pb]) > reach:
                            continue
                        gi = groups[i][:a] + [pb] + groups[i][a + 1 :]
                        gj = groups[j][:b] + [pa] + groups[j][b + 1 :]
                        ci, cj = best_split(gi, history)[0], best_split(gj, history)[0]
                        gain = (
                            costs[i]
                            + costs[j]
                            - ci
                            - cj
                            + away(pa, i)
                            + away(pb, j)
                            - away(pa, j)
                            - away(pb, i)
                        )
                        if gain > 0 and (best is None or gain > best[0]):
                            best = (gain, i, j, a, b, ci, cj)
        if best is None:
            return
        _, i, j, a, b, ci, cj = best
        groups[i][a], groups[j][b] = groups[j][b], groups[i][a]
        costs[i], costs[j] = ci, cj
