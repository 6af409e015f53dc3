"""The strong player: the expert policy, corrected by determinized Monte Carlo search on a
fast simulator, over guessed hands that agree with what the other seats have done.

Two layers:

- **The expert policy** (:data:`engine.ai.hint.EXPERT`): the hint's rules with knobs tuned
  by duplicate matches against the hint (never beat a teammate, yield, take on an opponent
  close to going out at any cost, answer a gouji hand only while it costs at most half the
  wildcards, save aces, lead more cards than a short opponent holds). Alone it scores
  +1.54 team points per game against the hint (95% CI [+1.24, +1.84], 200 deals, seed 1)
  and +1.55 ± 0.16 on 1000 other deals, at hint speed (< 0.1 ms).
- **The search**, for a play-phase decision with more than one sensible answer:

  1. a few candidate actions — the expert's choice, pass/yield/no-burn, the cheapest beat
     of each (jokers, 2s) class, the lowest sets (as leads), the cheapest burns;
  2. worlds: the public history replayed on the simulator (:mod:`engine.ai.sim`,
     :func:`engine.ai.world.rebuild`), the other seats' current cards guessed from
     ``obs.unseen`` so that everything certain holds (a revolutionary has no 2 or joker,
     a burner can finish its burn, a seat a burn window asks holds a burning play), and
     each world the *least surprising* of ``informed`` guesses: the one under which the
     expert policy would have taken most of the other seats' last 24 decisions (leads,
     beats, passes, yields — what a seat declined to beat, what it chose to lead);
  3. every candidate still in the race played in every world, and the game to its end by
     the expert policy for all six seats (each using only its own cards), scored by the
     team's points: place points plus ``tribute_weight`` per tribute card the game leaves
     owing (so 开点, burns and stifles count);
  4. candidates whose gain cannot plausibly reach ``margin`` leave the race after
     ``min_worlds``; the expert's choice is kept unless another candidate gains more than
     ``margin`` points and ``z`` standard errors over the same worlds (paired), with the
     variance shrunk toward ``prior_var`` (a rollout's outcome varies by several points).

  Declaring, revolting and returning tribute are the expert's (a single game's place
  points do not depend on them); under house rules other than bie-san (which the
  simulator does not know) the strong player plays the expert policy without search.

Why this method: a one-step policy improvement over a sound policy by flat determinized
Monte Carlo is the classic, robust gain in imperfect-information card games (Skat, Bridge);
it needs no training data and is deterministic given the seed. Before the simulator a
rollout cost 2–3 ms on ``engine.Game`` and 10–40 fit in a decision: the search then scored
−0.25 [−0.77, +0.27] against the expert (100 deals) — a safeguard, not a gain. The
simulator is about 10x faster (``python -m bench.ai``, figures below), and informed
worlds make each rollout count: with random guesses the other seats' recorded decisions
disagree with the policy 6.7 times in 24 on average, with the true hands never (against
expert play).

Work is bounded by simulated actions, not by the clock: a decision stops adding worlds
once the rollouts have used ``budget`` actions (``lead_budget`` for leads and burns, where
choices matter most), after at least ``min_worlds`` and at most ``max_worlds``, so the same
seed and observation always give the same decision.

Measured with this module's defaults (budgets 1500 / 9000 actions) in duplicate matches
(every deal played twice, the strong team on seats 0, 2, 4 and then on 1, 3, 5; team
points per game, 95% CI over deals). The matches ran one JSON line per deal
(``bot.cli.arena.play_deal``, the same games as ``gouji arena``, ``nice -n 10``, two
worker processes) on two cores shared with other agents (load 5–9):

- strong − expert (``gouji arena --a strong --b expert
  --games 300 --seed 5000 --jobs 2``): **+0.80 [+0.52, +1.08]** over 300 deals (600
  games), the strong team winning 48% of games;
- strong − hint (``gouji arena --a strong --b hint --games 100 --seed 6000 --jobs 2``):
  **+2.37 [+1.84, +2.90]** over 100 deals (200 games), the strong team winning 58% of
  games (before: +1.59, then +1.81 over 26 deals);
- ``python -m bench.ai --games 3`` (CPU time of one process): decision p50 23 ms, p99
  117 ms, max 132 ms (before the simulator's last speed-up: p50 41 ms, p99 208 ms, max
  236 ms; the arenas' wall-clock times — p50 57 ms, p99 692 ms, max 1.8 s — include
  waiting for a busy machine's CPU); rollouts from the deal: the code before the
  simulator (ea3e1ca) 70–112/s, the simulator 390–710/s at first, now 930–1060/s on the
  same deals (the machine's load moves all of them); counted in instructions (``perf
  stat -e instructions``, load-independent, deals 0–29 brought to play by the hint
  player, expert rollouts) a rollout costs 40.1M before the simulator, 6.07M with its
  first version and 3.92M now: 10.2x. The speed-up left every choice as it was (the
  digest of 430 rollouts in ``tests/ai/test_sim.py``), so the arena figures above hold.

What each part added: the simulator made rollouts about 10x cheaper;
informed worlds make the guesses agree with the other seats' decisions (a random guess
contradicts 6.7 of their 24 recent decisions, the true hands none); with the cheaper
rollouts the budgets grew 1.5x (1000 / 6000 before): strong − expert went from +0.43
[−0.01, +0.88] (127 deals, the old budgets) to +0.80 [+0.52, +1.08] (300 deals). The
parts were measured together: the machine left no CPU for a separate arena of each.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import BURN, NOBURN, PASS, PLAY, YIELD, Action
from ..game import PLAY_PHASE
from ..hands import Play
from ..observation import Observation
from ..scoring import team_of
from .hint import EXPERT, Style, choose_return, lead_candidates, play_cost, suggest
from .infer import Belief
from .sim import ImpossibleWorld, Sim
from .view import plays_of, view_of_observation
from .world import ReplayError, rebuild_with_evidence, with_hands

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
    if NOBURN in verbs:
        out.append(Action(seat, NOBURN))
        burns = sorted(plays_of(legal, BURN), key=lambda p: play_cost(p, v.counts))
        out += [Action(seat, BURN, p) for p in burns[:width]]
    elif obs.standing is None:
        out += [Action(seat, PLAY, p) for p in lead_candidates(v, style)[: width + 1]]
    else:
        out.append(Action(seat, PASS))
        if YIELD in verbs:
            out.append(Action(seat, YIELD))
        plays = sorted(plays_of(legal, PLAY), key=lambda p: play_cost(p, v.counts))
        out += [Action(seat, PLAY, p) for p in _spread(plays, width)]
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
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.lead_budget = lead_budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.rule = rule
        self.style = style
        self.tribute_weight = tribute_weight
        self.belief = Belief(style, self.rng, temperature)
        self.cold_swaps = cold_swaps  # swaps of the walk at a decision: from a random split,
        self.warm_swaps = warm_swaps  # from the guess of the player's last decision,
        self.world_swaps = world_swaps  # and between two worlds
        self.searched = 0  # decisions searched, and how many left the policy's choice
        self.deviated = 0
        self.simulated = 0  # work so far: actions simulated (and belief.work: policy checks)

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if obs.phase != PLAY_PHASE:  # declare, revolt, 要头
            return suggest(obs, self.style)
        cands = candidates(obs, self.style)
        if len(cands) == 1:
            return cands[0]
        try:
            base = self.prepare(obs)
        except ReplayError:
            return cands[0]
        best = self._search(obs, base, cands)
        self.searched += 1
        self.deviated += best != 0
        return cands[best]

    def prepare(self, obs: Observation) -> Sim:
        """The state ``obs`` shows, rebuilt (the other seats' hands still to be guessed),
        with the belief set up and walked for this decision; :class:`ReplayError` if the
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
        big = obs.standing is None or any(a.verb == BURN for a in cands)
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
            except (ReplayError, ImpossibleWorld):
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
