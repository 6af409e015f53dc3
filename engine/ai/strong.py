"""The strong player (困难): the expert policy, corrected by determinized Monte Carlo search
over worlds whose hidden hands explain what the other seats have done.

For a play-phase decision with more than one sensible answer:

1. a few candidate actions (:func:`candidates`) — the expert policy's choice
   (:data:`engine.ai.hint.EXPERT`) first, then pass/yield/no-burn, the cheapest beat of
   each (jokers, 2s) class, the lowest sets (as leads), the cheapest burns;
2. worlds (:meth:`StrongPlayer.prepare`, :meth:`StrongPlayer.world`): the public history
   replayed on the simulator (:mod:`engine.ai.sim`, :func:`engine.ai.world.rebuild`), and
   the other seats' current cards guessed by :class:`engine.ai.infer.Belief` — a walk over
   splits of the unseen cards toward guesses under which the policy would have taken the
   other seats' recorded decisions, carried from one decision to the next; each world is
   the walk's guess ``world_swaps`` swaps after the last one;
3. every candidate still in the race played in every world, and the game to its end by
   the expert policy for all six seats (:func:`play_out`: team points plus
   ``tribute_weight`` per tribute card the game leaves owing, so 开点, burns and stifles
   count);
4. the :class:`DecisionRule`: candidates that cannot plausibly gain its margin leave the
   race after ``min_worlds``; the expert's choice is kept unless another one gains more
   than the margin and ``z`` standard errors over the same worlds.

Declaring, revolting, 要头 and returning tribute are the expert's. A game whose table
options set a rule the simulator does not play (:func:`engine.ai.sim.unsimulated`) is not
searched: every decision is the expert's, through the engine's legal actions, and the
player names those options in :attr:`StrongPlayer.unsearched`.

Work is bounded by work done, never by the clock, so the same seed and observations give
the same decisions and a loaded machine makes a decision slower, not weaker: the walk's
swaps (``cold_swaps`` at a player's first search of a game, ``warm_swaps`` when the last
guess is carried over, ``world_swaps`` between worlds), and the actions simulated —
worlds are added until the rollouts have used ``budget`` actions (``lead_budget`` for
leads and burns), at least ``min_worlds`` and at most ``max_worlds``.

``model``: a learned model of the hidden hands (:mod:`engine.ai.cardmodel`) for the walk
to weigh its guesses by (``model_weight``); off by default, as measured in docs/ai.md.

Why this method, and how strong it is: docs/ai.md (the measurements, the commands, what
each part added); ``python -m bench.ai`` times the decisions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import Action, Verb
from ..game import Phase
from ..hands import Play
from ..observation import Observation
from ..scoring import team_of
from .hint import EXPERT, Style, choose_return, lead_candidates, play_cost, suggest
from .infer import Belief
from .sim import ImpossibleWorld, Sim, unsimulated
from .view import plays_of, view_of_observation
from .world import UnfitObservation, rebuild_with_evidence, with_hands

if TYPE_CHECKING:
    from .cardmodel import CardModel

TRIBUTE_WEIGHT = 0.5  # points per tribute card the game leaves owing (paid next game)
ROLLOUT_STYLE = EXPERT  # the policy every seat plays in a rollout
ALL_DECISIONS = 1 << 30  # the other seats' decisions a guess is checked against: all


def play_out(
    world: Sim, seat: int, style: Style = ROLLOUT_STYLE, tribute_weight: float = TRIBUTE_WEIGHT
) -> tuple[float, int]:
    """Play ``world`` to its end by ``style`` for all six seats: (the team points of
    ``seat``, plus ``tribute_weight`` per tribute card its team receives — minus per card it
    pays — at the start of the next game; the actions simulated). The search's one value
    of a world."""
    steps = world.rollout(style)
    return world.value(seat, tribute_weight), steps


@dataclass(frozen=True, slots=True)
class DecisionRule:
    """When the search plays another candidate than the policy's own: it gains more than
    ``margin`` points and ``z`` standard errors over the same worlds (paired), the variance
    shrunk toward ``prior_var`` with weight ``prior_n`` (a rollout's outcome varies by
    several points, so a few lucky worlds must not decide).

    >>> RULE.choose([[], [2.0] * 30, [1.0] * 30])
    1
    >>> RULE.choose([[], [2.0, -1.0]])  # too few worlds for so much spread
    0
    """

    z: float = 1.5
    margin: float = 0.5
    prior_var: float = 12.0
    prior_n: int = 4

    def gain(self, diffs: Sequence[float]) -> tuple[float, float]:
        """Mean gain and its standard error over the worlds ``diffs`` (a candidate's value
        minus another's in each world); (0, inf) without worlds."""
        n = len(diffs)
        if not n:
            return 0.0, float("inf")
        gain = sum(diffs) / n
        ss = sum((d - gain) ** 2 for d in diffs) + self.prior_n * self.prior_var
        var = ss / max(1, n - 1 + self.prior_n)
        return gain, (var / n) ** 0.5

    def plausible(self, diffs: Sequence[float]) -> bool:
        """Could more worlds still show this candidate gaining more than ``margin``?"""
        gain, se = self.gain(diffs)
        return gain + self.z * se > self.margin

    def choose(self, diffs: Sequence[Sequence[float]]) -> int:
        """The candidate to play: ``diffs[i]`` holds candidate ``i``'s value minus the
        policy's (candidate 0) in each world; 0 unless another one clears the rule (the
        one that gains most)."""
        best, best_gain = 0, 0.0
        for i in range(1, len(diffs)):
            gain, se = self.gain(diffs[i])
            if gain > self.margin and gain > self.z * se and gain > best_gain:
                best, best_gain = i, gain
        return best


RULE = DecisionRule()


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
    if Verb.NOBURN in verbs:
        out.append(Action(seat, Verb.NOBURN))
        burns = sorted(plays_of(legal, Verb.BURN), key=lambda p: play_cost(p, v.counts))
        out += [Action(seat, Verb.BURN, p) for p in burns[:width]]
    elif obs.standing is None:
        out += [Action(seat, Verb.PLAY, p) for p in lead_candidates(v, style)[: width + 1]]
    else:
        out.append(Action(seat, Verb.PASS))
        if Verb.YIELD in verbs:
            out.append(Action(seat, Verb.YIELD))
        plays = sorted(plays_of(legal, Verb.PLAY), key=lambda p: play_cost(p, v.counts))
        out += [Action(seat, Verb.PLAY, p) for p in _spread(plays, width)]
    legal_set = set(legal)
    return [a for a in dict.fromkeys(out) if a in legal_set]


def _spread(plays: Sequence[Play], width: int) -> list[Play]:
    """The cheapest plays, one per (jokers, 2s) class, up to ``width``."""
    out: list[Play] = []
    seen: set[tuple[int, bool]] = set()
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
        seed: int | str = 0,
        *,
        budget: int = 1500,
        lead_budget: int = 9000,
        min_worlds: int = 6,
        max_worlds: int = 32,
        rule: DecisionRule = RULE,
        style: Style = ROLLOUT_STYLE,
        tribute_weight: float = TRIBUTE_WEIGHT,
        cold_swaps: int = 400,
        warm_swaps: int = 40,
        world_swaps: int = 60,
        temperature: float = 0.3,
        model: CardModel | None = None,
        model_weight: float = 1.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.lead_budget = lead_budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.rule = rule
        self.style = style
        self.tribute_weight = tribute_weight
        self.belief = Belief(style, self.rng, temperature, model, model_weight)
        self.cold_swaps = cold_swaps  # swaps of the walk at a decision: from a random split,
        self.warm_swaps = warm_swaps  # from the guess of the player's last decision,
        self.world_swaps = world_swaps  # and between two worlds
        self.searched = 0  # decisions searched, and how many left the policy's choice
        self.deviated = 0
        self.simulated = 0  # work so far: actions simulated (and belief.work: policy checks)
        self.unsearched: tuple[str, ...] = ()  # the options of the last game it could not search

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if obs.phase != Phase.PLAY:  # declare, revolt, 要头
            return suggest(obs, self.style)
        names = unsimulated(obs.options)
        if names:  # the simulator would play these rules wrong: the expert's choice
            self.unsearched = tuple(names)
            return suggest(obs, self.style)
        cands = candidates(obs, self.style)
        if len(cands) == 1:
            return cands[0]
        try:
            base = self.prepare(obs)
        except UnfitObservation:
            return cands[0]
        best = self._search(obs, base, cands)
        self.searched += 1
        self.deviated += best != 0
        return cands[best]

    def prepare(self, obs: Observation) -> Sim:
        """The state ``obs`` shows, rebuilt (the other seats' hands still to be guessed),
        with the belief set up and walked for this decision; :class:`UnfitObservation` if the
        observation cannot be reproduced."""
        base, evidence = rebuild_with_evidence(obs, self.rng, ALL_DECISIONS)
        warm = self.belief.start(obs, base, evidence)
        self.belief.walk(self.warm_swaps if warm else self.cold_swaps)
        return base

    def world(self, obs: Observation, base: Sim) -> Sim:
        """One more guessed world for the decision :meth:`prepare` set up: the belief's
        guess, ``world_swaps`` further on."""
        self.belief.walk(self.world_swaps)
        return with_hands(base.copy(), obs.seat, self.belief.hands())

    def _search(self, obs: Observation, base: Sim, cands: list[Action]) -> int:
        """Index of the candidate to play (:class:`DecisionRule`): the policy's own (0)
        unless another one clearly gains more over the same worlds.

        Every world plays the policy's choice and each candidate still in the race; after
        ``min_worlds`` a candidate whose gain cannot plausibly reach the rule's margin
        leaves the race, and the search ends when none is left or the budget (simulated
        actions) is spent."""
        diffs: list[list[float]] = [[] for _ in cands]
        alive = list(range(1, len(cands)))
        used = worlds = 0
        big = obs.standing is None or any(a.verb == Verb.BURN for a in cands)
        budget = self.lead_budget if big else self.budget
        while alive and worlds < self.max_worlds and (worlds < self.min_worlds or used < budget):
            worlds += 1
            try:
                world = self.world(obs, base)
                values = {}
                for i in [0, *alive]:
                    g = world.copy()
                    g.apply(cands[i])
                    values[i], steps = play_out(g, obs.seat, self.style, self.tribute_weight)
                    used += steps + 1
            except (UnfitObservation, ImpossibleWorld):
                used += 1  # counted, so an impossible position cannot loop forever
                continue
            for i in alive:
                diffs[i].append(values[i] - values[0])
            if worlds >= self.min_worlds:
                alive = [i for i in alive if self.rule.plausible(diffs[i])]
        self.simulated += used
        return self.rule.choose(diffs)

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        return choose_return(returnable, n)
