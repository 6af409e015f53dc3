"""The strong player: determinized Monte Carlo search over the hint policy.

For a decision with more than one sensible answer, the player

1. picks a few candidate actions — pass/yield/no-burn, the hint's choice, the cheapest
   beats, the lowest sets (as leads) and the safest burns;
2. guesses the hidden hands: ``worlds`` times, the other seats' cards are dealt at random
   from ``obs.unseen`` by ``obs.card_counts`` onto a game rebuilt from the public history
   (:mod:`engine.ai.world`);
3. plays every candidate in every world and the game to its end with the hint policy for
   all six seats (each seat using only its own cards), and scores the end by the team's
   points: place points plus a weight on the tribute the game leaves owing (so 开点,
   burns and stifles count);
4. takes the candidate with the best total (the same worlds for every candidate, so the
   comparison is paired; ties go to the hint's order).

Why this method: the hint policy already encodes the team play (never beat a teammate,
yield, answer as the opposite), so rollouts with it are realistic, and a one-step policy
improvement over a sound policy is the classic, robust gain in imperfect-information card
games (flat determinized Monte Carlo, as in Skat and Bridge programs); it needs no training
data and is deterministic given the seed. ISMCTS with deeper trees would need several
hundred rollouts per decision to pay off, which the time limits (p50 ≤ 50 ms on one core,
a table of humans waits on it) do not allow in pure Python. The figures measured with
`gouji arena` are in the report of this module's commit and in bench/ai.py's output.

Work is bounded by simulated actions, not by the clock: a decision stops adding worlds
once the rollouts have used ``budget`` actions (after at least ``min_worlds``), so the same
seed and observation always give the same decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import BURN, NOBURN, PASS, PLAY, YIELD, Action, IllegalActionError
from ..game import DECLARE_PHASE, PLAY_PHASE, REVOLT_PHASE, Game
from ..observation import Observation
from ..scoring import team_of, team_scores
from .hint import EXPERT, Style, choose_return, decide, lead_candidates, play_cost, suggest
from .view import view_of_game, view_of_observation
from .world import ReplayError, deal_worlds, rebuild

TRIBUTE_WEIGHT = 0.5  # points per tribute card the game leaves owing (paid next game)


def rollout(game: Game, style: Style = EXPERT, limit: int = 5000) -> int:
    """Play ``game`` to its end with the policy ``style`` for every seat; the actions used."""
    steps = 0
    while game.phase == PLAY_PHASE and steps < limit:
        for seat in list(game.to_act):
            if seat not in game.to_act:
                continue
            action = decide(view_of_game(game, seat), style)
            try:
                game.apply(action)
            except IllegalActionError:
                game.apply(game.legal_actions(seat)[0])
            steps += 1
    return steps


def evaluate(game: Game, seat: int, tribute_weight: float = TRIBUTE_WEIGHT) -> float:
    """The team points of ``seat`` in a finished game, plus ``tribute_weight`` per tribute
    card its team receives (minus per card it pays) at the start of the next game."""
    points = game.points()
    if points is None:
        return 0.0
    value = float(team_scores(points)[seat])
    if tribute_weight:
        team = team_of(seat)
        for owed in game.tribute() or ():
            if team_of(owed.payer) != team_of(owed.receiver):
                value += tribute_weight * owed.count * (1 if team_of(owed.receiver) == team else -1)
    return value


def candidates(obs: Observation, style: Style = EXPERT, width: int = 4) -> list[Action]:
    """The actions worth searching, the policy's own choice first."""
    legal = obs.legal_actions
    seat = obs.seat
    hint = suggest(obs, style)
    out = [hint]
    q = obs.standing_seat
    if q is not None and team_of(q) == team_of(seat) and obs.places[q] is None:
        return out  # a teammate's hand: beat it only to go out (the hint does that)
    verbs = {a.verb for a in legal}
    v = view_of_observation(obs)
    if NOBURN in verbs:
        out.append(Action(seat, NOBURN))
        burns = sorted(
            (a.cards for a in legal if a.verb == BURN), key=lambda p: play_cost(p, v.counts)
        )
        out += [Action(seat, BURN, p) for p in burns[:width]]
    elif obs.standing is None:
        out += [Action(seat, PLAY, p) for p in lead_candidates(v, style)[: width + 1]]
    else:
        out.append(Action(seat, PASS))
        if YIELD in verbs:
            out.append(Action(seat, YIELD))
        plays = sorted(
            (a.cards for a in legal if a.verb == PLAY), key=lambda p: play_cost(p, v.counts)
        )
        out += [Action(seat, PLAY, p) for p in _spread(plays, width)]
    legal_set = set(legal)
    return [a for a in dict.fromkeys(out) if a in legal_set]


def _spread(plays: Sequence, width: int) -> list:
    """The cheapest plays, one per (jokers, 2s) class, up to ``width``."""
    out, seen = [], set()
    for p in plays:
        key = (p.jokers, p.twos > 0)
        if key not in seen:
            seen.add(key)
            out.append(p)
        if len(out) >= width:
            break
    return out


class StrongPlayer:
    """Flat determinized Monte Carlo over expert rollouts (see the module doc)."""

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: int = 2500,
        lead_budget: int = 10000,
        min_worlds: int = 4,
        max_worlds: int = 32,
        z: float = 1.0,
        margin: float = 0.25,
        style: Style = EXPERT,
        tribute_weight: float = TRIBUTE_WEIGHT,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.lead_budget = lead_budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.z = z
        self.margin = margin
        self.style = style
        self.tribute_weight = tribute_weight
        self.searched = 0  # decisions searched, and how many left the policy's choice
        self.deviated = 0

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if obs.phase in (DECLARE_PHASE, REVOLT_PHASE):
            return suggest(obs, self.style)
        cands = candidates(obs, self.style)
        if len(cands) == 1:
            return cands[0]
        try:
            base = rebuild(obs, self.rng)
        except ReplayError:
            return cands[0]
        best = self._search(obs, base, cands)
        self.searched += 1
        self.deviated += best != 0
        return cands[best]

    def _search(self, obs: Observation, base: Game, cands: list[Action]) -> int:
        """Index of the candidate to play: the policy's own (0) unless another one gains
        more than ``margin`` points and ``z`` standard errors over the same worlds."""
        diffs: list[list[float]] = [[] for _ in cands]
        used = worlds = 0
        big = obs.standing is None or any(a.verb == BURN for a in cands)
        budget = self.lead_budget if big else self.budget
        while worlds < self.max_worlds and (worlds < self.min_worlds or used < budget):
            (world,) = deal_worlds(base, obs, 1, self.rng)
            values = []
            for action in cands:
                g = world.copy()
                g.apply(action)
                used += rollout(g, self.style) + 1
                values.append(evaluate(g, obs.seat, self.tribute_weight))
            for i, v in enumerate(values):
                diffs[i].append(v - values[0])
            worlds += 1
        best, best_gain = 0, 0.0
        for i in range(1, len(cands)):
            gain = sum(diffs[i]) / worlds
            var = sum((d - gain) ** 2 for d in diffs[i]) / max(1, worlds - 1)
            se = (var / worlds) ** 0.5
            if gain > self.margin and gain > self.z * se and gain > best_gain:
                best, best_gain = i, gain
        return best

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        return choose_return(returnable, n)
