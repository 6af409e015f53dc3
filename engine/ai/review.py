"""复盘 (review): the costliest decisions one seat made in a finished game.

For every decision of the seat that had a choice (plays, passes, yields, burns and
no-burns, declaring), from that seat's :class:`~engine.observation.Observation` at the time
— never the hidden cards:

1. the actions worth comparing: the strong player's candidates (the expert policy's choice
   first, :func:`engine.ai.strong.candidates`) plus the action actually taken;
2. determinized worlds: the other seats' hands guessed from what the seat saw, as the
   strong player guesses them (:meth:`engine.ai.strong.StrongPlayer.prepare` and
   :meth:`~engine.ai.strong.StrongPlayer.world`: hands that explain the other seats'
   decisions, :mod:`engine.ai.infer`), the same worlds for every action (paired);
3. each action played in each world and the game played out as the strong player values a
   world (:func:`engine.ai.strong.play_out`: its rollout policy, the seat's team points
   plus its weight per tribute card the game leaves owing);
4. what the strongest AI would do: the strong player's decision rule
   (:class:`engine.ai.strong.DecisionRule`) over these worlds; the cost of the taken
   action is that choice's mean gain over it, with a 99% interval (99%, not 95%: a seat
   has some twenty decisions, each one a test).

A game whose table options set a rule the simulator does not play is not reviewed:
:func:`review` raises :class:`~engine.ai.sim.UnsimulatedOptions` (naming them) before any
work, rather than value its decisions under rules that are not the game's.

The budget is a number of rollouts for the whole seat: a first pass gives every decision a
few worlds, the rest goes to the decisions that look costliest. A decision is reported only
when it was seen in at least ``REPORT_WORLDS`` worlds, the suggestion differs from what was
played and the interval's lower end is above 0; the five costliest are kept. The same
record, seat, seed and budget give the same review.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Verb
from ..cards import NUM_RANKS, Card
from ..game import Game, Phase
from ..observation import Observation
from ..replay_steps import Replay
from .hint import decide, suggest
from .sim import Sim, require_simulated
from .strong import ROLLOUT_STYLE, StrongPlayer, candidates
from .strong import play_out as strong_play_out
from .view import view_of_game
from .world import UnfitObservation, sample_hands

DEFAULT_BUDGET = 2000  # rollouts per reviewed seat
FIRST_PASS = 0.4  # share of the budget spread over every decision
FIRST_WORLDS = (3, 12)  # worlds per decision in the first pass: at least, at most
MAX_WORLDS = 256  # worlds per decision in all
REPORT_WORLDS = 8  # a decision seen in fewer worlds is never reported: too little evidence
SECOND_PASS = 8  # decisions that get the rest of the budget
TOP = 5  # mistakes reported
Z_INTERVAL = 2.58  # 99%: two seeds then agree on the costliest mistake 6/8, not 4/8
REVIEWED = (Verb.PLAY, Verb.PASS, Verb.YIELD, Verb.BURN, Verb.NOBURN, Verb.DECLARE, Verb.NODECLARE)


World = Game | Sim  # a guessed deal: a game before play (declaring), else the simulator


def play_out(world: World, seat: int) -> float:
    """The value of ``world`` for ``seat``'s team as the strong player values a world
    (:func:`engine.ai.strong.play_out`); a deal before play is first brought to play by
    the rollout policy."""
    if isinstance(world, Game):
        while world.phase != Phase.PLAY and world.to_act:
            for s in list(world.to_act):
                if s in world.to_act:
                    world.apply(decide(view_of_game(world, s), ROLLOUT_STYLE))
        if world.phase != Phase.PLAY:
            return 0.0  # a void deal: nobody scores
        world = Sim.from_game(world)
    return strong_play_out(world, seat)[0]


@dataclass(frozen=True, slots=True)
class Mistake:
    """A costly decision. ``step``: the replay step the decision was faced at (the action
    taken leads to ``step + 1``); ``cost`` ± ``margin``: team points lost against
    ``suggested`` (99% interval), over ``worlds`` guessed deals; ``hand`` the seat's cards
    then (canonical), ``standing`` the hand it faced and who played it (None on a lead)."""

    step: int
    action: Action
    suggested: Action
    cost: float
    margin: float
    worlds: int
    hand: str
    standing: str | None
    standing_seat: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "action": str(self.action),
            "suggested": str(self.suggested),
            "cost": round(self.cost, 2),
            "margin": round(self.margin, 2),
            "worlds": self.worlds,
            "hand": self.hand,
            "standing": self.standing,
            "standing_seat": self.standing_seat,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one seat: its costliest ``mistakes`` (at most five, costliest first),
    out of ``decisions`` reviewed, using ``rollouts`` of the ``budget``."""

    seat: int
    seed: int
    budget: int
    rollouts: int
    decisions: int
    mistakes: tuple[Mistake, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": True,
            "seat": self.seat,
            "seed": self.seed,
            "budget": self.budget,
            "rollouts": self.rollouts,
            "decisions": self.decisions,
            "mistakes": [m.to_json() for m in self.mistakes],
        }


@dataclass(slots=True)
class _Decision:
    """One decision under review and the values its actions got, world by world."""

    step: int
    obs: Observation
    taken: Action
    actions: list[Action]  # the candidates (the expert's choice first), then the taken one
    n_candidates: int
    rng: random.Random
    player: StrongPlayer  # whose worlds, rule and candidates the review uses
    base: Sim | None = None
    values: list[list[float]] = field(default_factory=list)  # per world, per action

    @property
    def worlds(self) -> int:
        return len(self.values)

    def add_worlds(self, n: int) -> int:
        """Play ``n`` more worlds; the rollouts used."""
        for world in self._worlds(n):
            row = []
            for action in self.actions:
                g = world.copy()
                g.apply(action)
                row.append(play_out(g, self.obs.seat))
            self.values.append(row)
        return n * len(self.actions)

    def _worlds(self, n: int) -> Sequence[World]:
        if self.obs.phase == Phase.PLAY:
            if self.base is None:
                self.base = self.player.prepare(self.obs)
            return [self.player.world(self.obs, self.base) for _ in range(n)]
        return [_prelude_world(self.obs, self.rng) for _ in range(n)]

    def gain(self, i: int, j: int) -> tuple[float, float]:
        """Mean value of action ``i`` minus action ``j`` and its standard error (paired,
        as the strong player's rule has it)."""
        return self.player.rule.gain([row[i] - row[j] for row in self.values])

    def suggestion(self) -> int:
        """Index of what the strong player would do: its rule over these worlds."""
        return self.player.rule.choose(
            [[row[i] - row[0] for row in self.values] for i in range(self.n_candidates)]
        )

    def screen_cost(self) -> float:
        """The best candidate's mean gain over the taken action (for the second pass)."""
        taken = self.actions.index(self.taken)
        return max(self.gain(i, taken)[0] for i in range(self.n_candidates))

    def mistake(self) -> Mistake | None:
        if self.worlds < REPORT_WORLDS:
            return None
        best = self.suggestion()
        taken = self.actions.index(self.taken)
        if best == taken:
            return None
        cost, se = self.gain(best, taken)
        if cost - Z_INTERVAL * se <= 0:
            return None
        standing = self.obs.standing
        return Mistake(
            step=self.step,
            action=self.taken,
            suggested=self.actions[best],
            cost=cost,
            margin=Z_INTERVAL * se,
            worlds=self.worlds,
            hand=self.obs.hand,
            standing=None if standing is None else str(standing),
            standing_seat=self.obs.standing_seat,
        )


def _prelude_world(obs: Observation, rng: random.Random) -> Game:
    """A guessed deal for a decision before play (declaring): the seat's own cards, the
    others' from what it has not seen, and the public answers so far."""
    hands = sample_hands(obs, rng)
    cards = [[Card(r) for r in range(NUM_RANKS) for _ in range(h[r])] for h in hands]
    cards[obs.seat] = list(obs.cards)
    game = Game(cards, options=obs.options, seed=rng.randrange(2**31))
    for text in obs.history:
        game.apply_text(text)
    return game


def _compared(obs: Observation, taken: Action) -> tuple[list[Action], int]:
    """(the actions to compare, how many of them are the AI's candidates)."""
    if obs.phase == Phase.PLAY:
        cands = candidates(obs, ROLLOUT_STYLE)
    else:
        first = suggest(obs, ROLLOUT_STYLE)
        cands = [first] + [a for a in obs.legal_actions if a != first]
    n = len(cands)
    return (cands if taken in cands else cands + [taken]), n


def decisions_of(replay: Replay, seat: int, seed: int = 0) -> list[_Decision]:
    """Every decision of ``seat`` with something to compare, in order, up to the seat's
    leaving (if it left)."""
    out = []
    game = replay.game_at(0)
    for index, action in enumerate(replay.actions):
        if action.seat == seat and action.verb == Verb.LEAVE:
            break  # the seat's later actions were taken for it (docs/record.md)
        if action.seat == seat and action.verb in REVIEWED:
            obs = game.observe(seat)
            if len(obs.legal_actions) > 1 and obs.phase in (Phase.PLAY, Phase.DECLARE):
                actions, n = _compared(obs, action)
                if len(actions) > 1:
                    key = f"review:{seed}:{seat}:{index}"
                    player = StrongPlayer(key)
                    out.append(
                        _Decision(index, obs, action, actions, n, random.Random(key), player)
                    )
        game.apply(action)
    return out


def review(replay: Replay, seat: int, *, seed: int = 0, budget: int = DEFAULT_BUDGET) -> Review:
    """The review of ``seat`` in a finished game (see the module doc)."""
    if not 0 <= seat <= 5:
        raise ValueError(f"there is no seat {seat}: seats are 0 to 5")
    require_simulated(replay.final.options)
    decisions = decisions_of(replay, seat, seed)
    used = 0
    width = sum(len(d.actions) for d in decisions) or 1
    lo, hi = FIRST_WORLDS
    first = max(lo, min(hi, int(budget * FIRST_PASS) // width))
    live = []
    for d in decisions:
        try:
            used += d.add_worlds(first)
            live.append(d)
        except UnfitObservation:
            continue  # the position could not be rebuilt from the seat's view: not reviewed
    ranked = sorted(live, key=lambda d: (-d.screen_cost(), d.step))
    second = [d for d in ranked[:SECOND_PASS] if d.screen_cost() > 0]
    rest = max(0, budget - used)
    width2 = sum(len(d.actions) for d in second) or 1
    more = min(MAX_WORLDS - first, rest // width2)
    if more > 0:
        for d in second:
            used += d.add_worlds(more)
    found = [m for d in live if (m := d.mistake()) is not None]
    found.sort(key=lambda m: (-m.cost, m.step))
    return Review(seat, seed, budget, used, len(live), tuple(found[:TOP]))


def review_record(
    data: Any, seat: int, *, game: int | None = None, seed: int = 0, budget: int = DEFAULT_BUDGET
) -> Review:
    """:func:`review` of a record (docs/record.md; ``game`` picks one of a series)."""
    return review(Replay.from_record(data, game), seat, seed=seed, budget=budget)


__all__ = [
    "DEFAULT_BUDGET",
    "Mistake",
    "Review",
    "decisions_of",
    "play_out",
    "review",
    "review_record",
]
