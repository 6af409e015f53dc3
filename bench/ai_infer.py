"""How well the hard AI guesses the hidden cards: the share of the other seats' cards its
guesses put in the right hand, on fixed positions of expert games.

    python -m bench.ai_infer [--games N] [--seed S] [--worlds W] [--model PATH | --no-model]

The positions: ``N`` deals from seed ``S`` on, each played by the expert policy in all six
seats; in deal ``i`` the observer is seat ``i % 6`` and every one of its play-phase
decisions with more than one legal action is a position (the decisions the hard AI
searches, give or take the ones its candidates make obvious). Printed, each the mean over
the positions of the share of hidden cards in the right hand (a rank count held by the
right seat, card for card):

- ``random``: a uniformly random split of the unseen cards (what the walk starts from);
- ``cold 400``: a fresh walk of 400 swaps at each position (the figure docs/ai.md quotes);
- ``played``: the worlds the hard AI searches, as it makes them — its belief carried from
  one of its decisions to the next, ``W`` worlds a decision, each the walk's guess 60
  swaps after the last (:meth:`~engine.ai.strong.StrongPlayer.prepare` and
  :meth:`~engine.ai.strong.StrongPlayer.world`);
- ``wild``: ``played`` for the 2s and jokers alone (the cards that win leads back);
- ``alike``: how alike those worlds are — the share of a world's hidden cards in the hand
  the world before put them in (the search needs worlds that differ: a few alike worlds
  are one world counted several times);
- with a model of the hidden cards (:mod:`engine.ai.cards`), ``model``: its expected share
  (each seat's predicted count of each rank against the true one).

The walk is the same code the player runs, so the figure moves with the player; everything
is seeded, so the same arguments print the same figures.

With ``--search``, the hard AI's decisions instead: at each position its search (the
belief carried from one position to the next) chooses among its candidates, and every
candidate is then played out in the **true** hands (the expert policy to the end, as the
search values a world): printed, the chosen candidate's true value minus the expert's
choice's (what the search gains, on average, where it could gain) and minus the best
candidate's, with 95% intervals over the decisions. The same positions with and without
the model make a paired comparison, far less noisy than an arena. ``--told wild`` or
``--told all`` tell the search's worlds the true 2s and jokers, or every card: where
knowing the cards pays, and how much; ``--blur K`` with ``--told all`` swaps K random
cards of the true hands between two other seats in each world (so many cards wrong).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai import make_player
from engine.ai.hint import EXPERT
from engine.ai.infer import Belief, right_share
from engine.ai.sim import Sim
from engine.ai.strong import StrongPlayer, candidates, play_out
from engine.ai.world import UnfitObservation, rebuild_with_evidence, sample_hands, with_hands
from engine.cards import TWO
from engine.game import Game, Options, Phase
from engine.observation import Observation


def expert_positions(seeds: Sequence[int]) -> Iterator[tuple[int, Game, Observation]]:
    """(deal, the game then — a copy —, the observer's observation) at each play-phase
    decision with more than one legal action of seat ``deal % 6``, all seats expert."""
    for seed in seeds:
        game = Game.from_deal(seed, Options())
        players = [make_player("expert", s) for s in range(6)]
        observer = seed % 6
        while game.phase not in (Phase.FINISHED, Phase.VOID):
            for seat in list(game.to_act):
                if seat not in game.to_act:
                    continue
                obs = game.observe(seat)
                if seat == observer and game.phase == Phase.PLAY and len(obs.legal_actions) > 1:
                    yield seed, game.copy(), obs
                game.apply(players[seat].act(obs))


class Oracle(StrongPlayer):
    """The hard AI whose worlds are told some of the truth (a diagnostic of where knowing
    the cards pays): ``told`` "all", every hidden card where it is; "wild", the 2s and
    jokers where they are, the other cards of each guess moved to keep the card counts.
    :attr:`truth` is set at each position."""

    told = ""
    truth: list[list[int]] = []
    blur = 0  # with "all": so many random swaps of two cards between two other seats

    def world(self, obs: Observation, base: Sim) -> Sim:
        world = super().world(obs, base)
        if self.told == "all":
            hands = [list(c) for c in self.truth]
            others = [
                s for s in range(6) if s != obs.seat and sum(hands[s]) > 0 and not obs.revolted[s]
            ]
            for _ in range(self.blur if len(others) > 1 else 0):
                a, b = self.rng.sample(others, 2)
                ra = self.rng.choice([r for r in range(15) if hands[a][r]])
                rb = self.rng.choice([r for r in range(15) if hands[b][r]])
                hands[a][ra] -= 1
                hands[a][rb] += 1
                hands[b][rb] -= 1
                hands[b][ra] += 1
            return with_hands(world, obs.seat, hands)
        if self.told == "wild":
            return with_hands(world, obs.seat, told_wild(world.counts, self.truth, obs.seat))
        return world


def told_wild(guess: list[list[int]], truth: list[list[int]], seat: int) -> list[list[int]]:
    """``guess`` with every other seat's 2s and jokers as in ``truth``, and its plain cards
    moved (the highest first out, to the seats short of cards, the lowest seat first) so
    each seat keeps its card count."""
    hands = [list(h) for h in guess]
    pool = [0] * TWO
    for s in range(6):
        if s == seat:
            continue
        hands[s][TWO:] = truth[s][TWO:]
        extra = sum(hands[s]) - sum(guess[s])
        for r in range(TWO - 1, -1, -1):
            while extra > 0 and hands[s][r]:
                hands[s][r] -= 1
                pool[r] += 1
                extra -= 1
    for s in range(6):
        if s == seat:
            continue
        for r in range(TWO):
            while sum(hands[s]) < sum(guess[s]) and pool[r]:
                hands[s][r] += 1
                pool[r] -= 1
    return hands


def with_players(
    games: int, seed: int, kwargs: dict[str, Any], told: str = "", blur: int = 0
) -> Iterator[tuple[StrongPlayer, int, Game, Observation]]:
    """:func:`expert_positions` of ``games`` deals from ``seed``, each with the observer's
    hard AI (one a deal, made with ``kwargs``: its belief carried from one position to the
    next; ``told``: an :class:`Oracle`'s)."""

    def make(deal: int) -> Oracle:
        player = Oracle(deal, **kwargs)
        player.told, player.blur = told, blur
        return player

    player, last = make(seed), seed
    for deal, game, obs in expert_positions(range(seed, seed + games)):
        if deal != last:
            player, last = make(deal), deal
        player.truth = [list(c) for c in game.counts]
        yield player, deal, game, obs


@dataclass
class Shares:
    """Sums of the shares over the positions, and their number."""

    random: float = 0.0
    cold: float = 0.0
    played: float = 0.0
    model: float = 0.0
    alike: float = 0.0  # a world's cards in the same hand as in the world before
    wild: float = 0.0  # played, for the 2s and jokers alone
    positions: int = 0


def measure(games: int, seed: int, worlds: int, **kwargs: Any) -> Shares:
    """The shares over the positions of ``games`` deals from ``seed`` (see the module doc);
    ``kwargs`` go to every :class:`StrongPlayer` (and its belief)."""
    out = Shares()
    for player, deal, game, obs in with_players(games, seed, kwargs):
        rng = random.Random(deal * 1000 + len(obs.history))
        try:
            base = player.prepare(obs)
        except UnfitObservation:
            continue
        played = alike = wild = 0.0
        last_world: list[list[int]] | None = None
        for _ in range(worlds):
            hands = player.world(obs, base).counts
            played += right_share(hands, game.counts, obs.seat)
            wild += right_share([h[TWO:] for h in hands], [c[TWO:] for c in game.counts], obs.seat)
            if last_world is not None:
                alike += right_share(hands, last_world, obs.seat)
            last_world = [list(h) for h in hands]
        out.played += played / worlds
        out.wild += wild / worlds
        out.alike += alike / max(1, worlds - 1)
        out.random += right_share(sample_hands(obs, rng), game.counts, obs.seat)
        cold_base, evidence = rebuild_with_evidence(obs, rng, 1 << 30)
        belief = Belief(EXPERT, rng, prior=player.belief.prior)
        belief.start(obs, cold_base, evidence)
        expected = belief.expected()
        if expected is not None:
            out.model += right_share(expected, game.counts, obs.seat)
        belief.walk(400)
        out.cold += right_share(belief.hands(), game.counts, obs.seat)
        out.positions += 1
    return out


@dataclass
class Choices:
    """The searched decisions, each judged in the true hands: the chosen candidate's value
    there (one play-out by the expert policy, as the search values a world) minus the
    expert's choice's (``gains``), and minus the best candidate's (``regrets``, <= 0)."""

    gains: list[float] = field(default_factory=list)
    regrets: list[float] = field(default_factory=list)
    deviated: int = 0


def judge_choices(games: int, seed: int, told: str = "", blur: int = 0, **kwargs: Any) -> Choices:
    """The hard AI's search at each position (its belief carried as in
    :func:`measure`), its choice judged in the true hands (:class:`Choices`): a paired
    figure of how well it decides, far less noisy than an arena's points."""
    out = Choices()
    for player, _deal, game, obs in with_players(games, seed, kwargs, told, blur):
        cands = candidates(obs, player.style)
        if len(cands) < 2:
            continue
        try:
            base = player.prepare(obs)
        except UnfitObservation:
            continue
        chosen = player._search(obs, base, cands)
        truth = []
        for action in cands:
            world = Sim.from_game(game)
            world.apply(action)
            truth.append(play_out(world, obs.seat)[0])
        out.gains.append(truth[chosen] - truth[0])
        out.regrets.append(truth[chosen] - max(truth))
        out.deviated += chosen != 0
    return out


def mean_ci(xs: Sequence[float]) -> str:
    """The mean and its 95% interval (normal)."""
    n = len(xs)
    mean = sum(xs) / n
    sd = (sum((x - mean) ** 2 for x in xs) / max(1, n - 1)) ** 0.5
    half = 1.96 * sd / n**0.5
    return f"{mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="deals (one observer each)")
    parser.add_argument("--seed", type=int, default=2000, help="the first deal's seed")
    parser.add_argument("--worlds", type=int, default=6, help="worlds a decision")
    parser.add_argument("--model", action="store_true", help="the walk weighs by the model")
    parser.add_argument("--weight", type=float, default=1.0, help="the model's weight")
    parser.add_argument("--world-swaps", type=int, default=60, help="swaps between worlds")
    parser.add_argument(
        "--search", action="store_true", help="judge the search's choices in the true hands"
    )
    parser.add_argument("--dump", default="", help="with --search: each decision's gain, JSON")
    parser.add_argument(
        "--told",
        choices=("", "wild", "all"),
        default="",
        help="with --search: the worlds told the 2s and jokers, or every card (a diagnostic)",
    )
    parser.add_argument("--blur", type=int, default=0, help="with --told all: random swaps")
    args = parser.parse_args()
    t = time.process_time()
    kwargs: dict[str, Any] = {"world_swaps": args.world_swaps}
    if args.model:
        from engine.ai.cardmodel import shipped

        kwargs |= {"model": shipped(), "model_weight": args.weight}
    if args.search:
        c = judge_choices(args.games, args.seed, args.told, args.blur, **kwargs)
        print(f"{len(c.gains)} searched decisions of {args.games} deals from seed {args.seed}")
        print(f"  gain over the expert's choice, in the true hands: {mean_ci(c.gains)}")
        print(f"  regret against the best candidate there:        {mean_ci(c.regrets)}")
        print(f"  left the expert's choice: {c.deviated}  ({time.process_time() - t:.0f} s CPU)")
        if args.dump:
            with open(args.dump, "w", encoding="utf-8") as f:
                json.dump(c.gains, f)
        return
    s = measure(args.games, args.seed, args.worlds, **kwargs)
    n = max(1, s.positions)
    print(f"{s.positions} positions of {args.games} deals from seed {args.seed}:")
    print(f"  random   {s.random / n:.4f}")
    print(f"  cold 400 {s.cold / n:.4f}")
    print(f"  played   {s.played / n:.4f}  ({args.worlds} worlds a decision)")
    print(f"  wild     {s.wild / n:.4f}  (played, the 2s and jokers alone)")
    print(f"  alike    {s.alike / n:.4f}  (a world's cards where the world before had them)")
    if args.model:
        print(f"  (the walk weighs by the model, weight {args.weight})")
    if s.model:
        print(f"  model    {s.model / n:.4f}")
    print(f"  ({time.process_time() - t:.0f} s CPU)")


if __name__ == "__main__":
    main()
