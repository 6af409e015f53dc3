"""Skill ratings (技术分): who plays well, not who plays often — the Weng–Lin Bayesian
rating of ``openskill``'s ``PlackettLuce`` model, computed here in a few tight loops.

A rating is a belief about a player's skill: a mean ``mu`` and an uncertainty ``sigma``
(both start at openskill's defaults, 25 and 25/3). What people are shown is the
conservative figure ``mu - 3 * sigma`` (openskill's ``ordinal``): it starts at 0 and rises as
the games make the rating surer.

A finished game is rated from its :class:`Lineup` entries — who sat in each seat, the place
they took, whether they left (中途强退). The model (:data:`MODE`) is **places**: the six
players ranked by their places, 头科 first. A leaver's team loses the game: its three players
are ranked behind the other team's three, each team in its places' order (leavers on both
teams: the places alone).

The other mode, **teams** — the two teams of three ranked by the sum of their place points
(docs/rules.en.md §8.6; equal sums draw) — was measured against it on 6,000 games the AI played
against itself, 16 and 24 simulated players of known strength (``python -m
bench.rating_models``): the places rank the next game's winning team better (AUC 0.765
against 0.758, and 0.762 against 0.754; log loss once each model's margins are rescaled
0.580 against 0.589, both differences outside their 95% intervals), and the places
themselves better (Spearman 0.380 against 0.368). A team result says less: a fifth of the
games are drawn, and a team's three players share one outcome. (Read as openskill's
two-team win probability without rescaling, the places model is overconfident — its mu
spread is wider — so the bot shows figures and ranks, never win probabilities.)

A player may fill several seats of one game (each AI level is one player of a server):
each seat is rated as a copy of the player, and the player takes the sum of the copies'
changes of ``mu`` and the product of their shrinkings of the variance.

:func:`plackett_luce` is openskill's ``PlackettLuce().rate(teams, ranks=ranks)`` (the tests
check it against the library on many cases) without the library's argument checks and
copies: about 16 µs of CPU for six players where the library takes 35, which keeps
rebuilding the ratings of 100,000 games within seconds.

>>> new = rate_game({}, [Entry("a", 1), Entry("b", 2), Entry("c", 3),
...                      Entry("d", 4), Entry("e", 5), Entry("f", 6)])
>>> round(new["a"].mu, 3), round(new["f"].mu, 3), new["a"].games
(27.536, 20.588, 1)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .scoring import PLACE_POINTS, team_of

#: openskill's PlackettLuce defaults: prior mean and spread, performance spread ``beta``,
#: the floor ``kappa`` of a variance's shrinking factor, the dynamics ``tau`` added each game.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0
#: the conservative figure is ``mu - Z * sigma``
Z = 3.0
#: a rating from fewer games than this is provisional (shown, marked as such)
PROVISIONAL_GAMES = 10

TEAMS, PLACES = "teams", "places"
#: the model the bot rates with (chosen by measurement: see the module's docstring)
MODE = PLACES


class Rating(NamedTuple):
    """A player's rating: ``mu`` ± ``sigma`` after ``games`` rated games. (Named tuples,
    this and :class:`Entry`: a rebuild makes hundreds of thousands of them.)"""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure shown to people: ``mu - 3 sigma`` (openskill's ordinal)."""
        return self.mu - Z * self.sigma

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` games rated."""
        return self.games < PROVISIONAL_GAMES


class Entry(NamedTuple):
    """One seat of a finished game: its ``player`` (any key), ``place`` 1 (头科) … 6 (大落)
    and whether the player left the game (中途强退)."""

    player: str
    place: int
    left: bool = False


Lineup = Sequence[Entry]  # six entries, seat 0 to 5


def figure_text(figure: float) -> str:
    """A conservative rating as people see it: one decimal, a real minus sign.

    >>> figure_text(21.34), figure_text(-1.96), figure_text(-0.04)
    ('21.3', '−2.0', '0.0')
    """
    text = f"{abs(figure):.1f}"
    return f"−{text}" if figure < 0 and text != "0.0" else text


def change_text(change: float) -> str:
    """A rating's change as people see it, signed: +1.2, −0.4, 0.0."""
    text = f"{abs(change):.1f}"
    if text == "0.0":
        return text
    return f"+{text}" if change > 0 else f"−{text}"


@dataclass(frozen=True, slots=True)
class Model:
    """The Plackett–Luce parameters (openskill's defaults unless given)."""

    mu: float = MU
    sigma: float = SIGMA
    beta: float = BETA
    kappa: float = KAPPA
    tau: float = TAU
    mode: str = MODE

    @property
    def name(self) -> str:
        """What a stored rating was computed with: ratings of another name are rebuilt."""
        return (
            f"plackett-luce/{self.mode} mu={self.mu!r} sigma={self.sigma!r} beta={self.beta!r} "
            f"kappa={self.kappa!r} tau={self.tau!r}"
        )

    def initial(self) -> Rating:
        """A new player's rating."""
        return Rating(self.mu, self.sigma, 0)


DEFAULT = Model()


def is_lineup(lineup: Sequence[Entry]) -> bool:
    """Whether a game can be rated: six seats whose places are 1 … 6, each once."""
    return len(lineup) == 6 and sorted(e.place for e in lineup) == [1, 2, 3, 4, 5, 6]


def team_ranks(lineup: Lineup) -> tuple[int, int]:
    """The ranks (1 wins, equal ranks draw) of team 0 (seats 0, 2, 4) and team 1: a
    leaver's team loses; else the team with more place points wins.

    >>> team_ranks([Entry(str(s), p) for s, p in enumerate([1, 2, 3, 4, 5, 6])])
    (1, 2)
    >>> team_ranks([Entry(str(s), p, left=s == 0) for s, p in enumerate([1, 2, 3, 4, 5, 6])])
    (2, 1)
    """
    left = {team_of(s) for s, e in enumerate(lineup) if e.left}
    if len(left) == 1:
        return (2, 1) if 0 in left else (1, 2)
    points = [0, 0]
    for s, e in enumerate(lineup):
        points[team_of(s)] += PLACE_POINTS[e.place]
    if points[0] == points[1]:
        return 1, 1
    return (1, 2) if points[0] > points[1] else (2, 1)


def seat_ranks(lineup: Lineup, mode: str = MODE) -> list[int]:
    """Each seat's rank under ``mode``: its team's rank (teams), or its place, pushed behind
    the other team's six places if its team lost by leaving (places)."""
    if mode == TEAMS:
        ranks = team_ranks(lineup)
        return [ranks[team_of(s)] for s in range(6)]
    if mode != PLACES:
        raise ValueError(f"unknown rating mode {mode!r}: use {TEAMS!r} or {PLACES!r}")
    if not any(e.left for e in lineup):
        return [e.place for e in lineup]
    lost_by_leaving = {team_of(s) for s, e in enumerate(lineup) if e.left}
    behind = lost_by_leaving if len(lost_by_leaving) == 1 else set()
    return [e.place + (6 if team_of(s) in behind else 0) for s, e in enumerate(lineup)]


def rate_game(
    ratings: Mapping[str, Rating], lineup: Lineup, model: Model = DEFAULT
) -> dict[str, Rating]:
    """The new ratings of the players of a finished game (``ratings``: what they had; a
    player missing from it is new). ValueError if the lineup cannot be rated."""
    if not is_lineup(lineup):
        raise ValueError(f"a rated game needs six seats with places 1 to 6, not {lineup!r}")
    ranks = seat_ranks(lineup, model.mode)
    initial = model.initial()
    before = {e.player: ratings.get(e.player, initial) for e in lineup}
    if model.mode == PLACES and len(before) == 6:
        return _six_places(before, [e.player for e in lineup], ranks, model)
    seats = [before[e.player][:2] for e in lineup]
    if model.mode == TEAMS:
        teams = [[seats[0], seats[2], seats[4]], [seats[1], seats[3], seats[5]]]
        rated = plackett_luce(teams, [ranks[0], ranks[1]], model)
        after = [rated[team_of(s)][s // 2] for s in range(6)]
    else:
        rated = plackett_luce([[seat] for seat in seats], ranks, model)
        after = [team[0] for team in rated]
    return merge_copies(before, [e.player for e in lineup], after, model)


def merge_copies(
    before: Mapping[str, Rating],
    players: Sequence[str],
    after: Sequence[tuple[float, float]],
    model: Model = DEFAULT,
) -> dict[str, Rating]:
    """Each player's new rating from the seats they filled (``players[s]``, rated
    ``after[s]``): one seat's result as it is; several seats' summed changes of ``mu`` and
    multiplied shrinkings of the variance (each after the dynamics ``tau``)."""
    if len(set(players)) == len(players):
        return {
            player: Rating(mu, sigma, before[player].games + 1)
            for player, (mu, sigma) in zip(players, after, strict=True)
        }
    tau2 = model.tau * model.tau
    mu = {player: before[player].mu for player in players}
    variance = {player: before[player].sigma ** 2 + tau2 for player in players}
    single = {player: (0.0, 0.0) for player in players if players.count(player) == 1}
    for player, (seat_mu, seat_sigma) in zip(players, after, strict=True):
        if player in single:
            single[player] = (seat_mu, seat_sigma)
            continue
        old = before[player]
        mu[player] += seat_mu - old.mu
        variance[player] *= seat_sigma * seat_sigma / (old.sigma * old.sigma + tau2)
    return {
        player: Rating(
            *(single[player] if player in single else (mu[player], math.sqrt(variance[player]))),
            before[player].games + 1,
        )
        for player in mu
    }


def plackett_luce(
    teams: Sequence[Sequence[tuple[float, float]]],
    ranks: Sequence[float],
    model: Model = DEFAULT,
) -> list[list[tuple[float, float]]]:
    """openskill's ``PlackettLuce(...).rate(teams, ranks=ranks)`` with (mu, sigma) pairs:
    the new (mu, sigma) of every player, teams and players in the order given. A lower
    rank is better; equal ranks tie (as in openskill 6, a tie's changes are not averaged).
    Algorithm 4 of Weng & Lin (2011), with the dynamics ``tau`` added first.

    >>> [[(round(m, 4), round(s, 4)) for m, s in t] for t in plackett_luce([[(25, 25 / 3)], [(25, 25 / 3)]], [1, 2])]
    [[(27.6354, 8.0659)], [(22.3646, 8.0659)]]
    """
    tau2 = model.tau * model.tau
    kappa = model.kappa
    k = len(teams)
    variances = []  # each player's variance, the dynamics added
    team_mu = []
    team_var = []
    for team in teams:
        row = []
        team_m = team_v = 0.0
        for mu, sigma in team:
            v = sigma * sigma + tau2
            row.append(v)
            team_m += mu
            team_v += v
        variances.append(row)
        team_mu.append(team_m)
        team_var.append(team_v)
    c = math.sqrt(sum(team_var) + k * model.beta * model.beta)
    strength = [math.exp(m / c) for m in team_mu]
    # The teams from the best rank down (positions); a position's group: the teams tied
    # with it; its sum: the strengths of its group and of every team ranked below.
    order = sorted(range(k), key=ranks.__getitem__)
    if len(set(ranks)) == k:
        return _untied(teams, variances, team_var, strength, order, c, kappa)
    group_end = [0] * k
    tied = [1] * k
    q = 0
    while q < k:
        last = q
        while last + 1 < k and ranks[order[last + 1]] == ranks[order[q]]:
            last += 1
        for x in range(q, last + 1):
            group_end[x] = last
            tied[x] = last - q + 1
        q = last + 1
    below = [0.0] * (k + 1)
    for q in range(k - 1, -1, -1):
        below[q] = below[q + 1] + strength[order[q]]
    sums = [below[group_end[q] - tied[q] + 1] for q in range(k)]
    out: list[list[tuple[float, float]]] = [[] for _ in range(k)]
    for j, i in enumerate(order):
        mine = strength[i]
        omega = delta = 0.0
        for q in range(group_end[j] + 1):
            p = mine / sums[q]
            t = tied[q]
            delta += p * (1 - p) / t
            omega += ((1 - p) if q == j else -p) / t
        var = team_var[i]
        omega *= var / c
        delta *= var * math.sqrt(var) / (c * c * c)  # with gamma = sigma_team / c
        out[i] = [
            (mu + v / var * omega, math.sqrt(v * max(1 - v / var * delta, kappa)))
            for (mu, _), v in zip(teams[i], variances[i], strict=True)
        ]
    return out


def _untied(
    teams: Sequence[Sequence[tuple[float, float]]],
    variances: list[list[float]],
    team_var: list[float],
    strength: list[float],
    order: list[int],
    c: float,
    kappa: float,
) -> list[list[tuple[float, float]]]:
    """:func:`plackett_luce` when no two teams tie (every game rated by places): each
    group is one team, so omega is 1 minus its shares of the sums down to its own, and
    delta the sum of those shares' p (1 - p)."""
    k = len(order)
    below = [0.0] * (k + 1)
    for q in range(k - 1, -1, -1):
        below[q] = below[q + 1] + strength[order[q]]
    out: list[list[tuple[float, float]]] = [[] for _ in range(k)]
    c3 = c * c * c
    for j, i in enumerate(order):
        mine = strength[i]
        omega, delta = 1.0, 0.0
        for q in range(j + 1):
            p = mine / below[q]
            omega -= p
            delta += p * (1 - p)
        var = team_var[i]
        omega *= var / c
        delta *= var * math.sqrt(var) / c3
        out[i] = [
            (mu + v / var * omega, math.sqrt(v * max(1 - v / var * delta, kappa)))
            for (mu, _), v in zip(teams[i], variances[i], strict=True)
        ]
    return out


def _six_places(
    before: Mapping[str, Rating], players: Sequence[str], ranks: Sequence[int], model: Model
) -> dict[str, Rating]:
    """:func:`plackett_luce` of six one-player teams in six different places (a game of
    six different players, rated by places: the common case, spelt out for speed), the
    same arithmetic as the general path."""
    tau2 = model.tau * model.tau
    mus = [before[p].mu for p in players]
    variances = [before[p].sigma * before[p].sigma + tau2 for p in players]
    c = math.sqrt(sum(variances) + 6 * model.beta * model.beta)
    c3 = c * c * c
    strength = [math.exp(mu / c) for mu in mus]
    order = sorted(range(6), key=ranks.__getitem__)
    below = [0.0] * 7
    for q in range(5, -1, -1):
        below[q] = below[q + 1] + strength[order[q]]
    out = {}
    for j, i in enumerate(order):
        mine = strength[i]
        omega, delta = 1.0, 0.0
        for q in range(j + 1):
            p = mine / below[q]
            omega -= p
            delta += p * (1 - p)
        v = variances[i]
        omega *= v / c
        delta *= v * math.sqrt(v) / c3
        player = players[i]
        # a team of one: its variance is the player's, whose share of it is 1 exactly
        out[player] = Rating(
            mus[i] + omega,
            math.sqrt(v * max(1 - delta, model.kappa)),
            before[player].games + 1,
        )
    return {p: out[p] for p in players}
