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
- with a model of the hidden cards (:mod:`engine.ai.cards`), ``model``: its expected share
  (each seat's predicted count of each rank against the true one).

The walk is the same code the player runs, so the figure moves with the player; everything
is seeded, so the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai import make_player
from engine.ai.hint import EXPERT
from engine.ai.infer import Belief, right_share
from engine.ai.strong import StrongPlayer
from engine.ai.world import UnfitObservation, rebuild_with_evidence, sample_hands
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


@dataclass
class Shares:
    """Sums of the shares over the positions, and their number."""

    random: float = 0.0
    cold: float = 0.0
    played: float = 0.0
    model: float = 0.0
    positions: int = 0


def measure(games: int, seed: int, worlds: int, **kwargs: Any) -> Shares:
    """The shares over the positions of ``games`` deals from ``seed`` (see the module doc);
    ``kwargs`` go to every :class:`StrongPlayer` (and its belief)."""
    out = Shares()
    player: StrongPlayer | None = None
    last = -1
    for deal, game, obs in expert_positions(range(seed, seed + games)):
        if deal != last:
            player, last = StrongPlayer(deal, **kwargs), deal
        assert player is not None
        rng = random.Random(deal * 1000 + len(obs.history))
        try:
            base = player.prepare(obs)
        except UnfitObservation:
            continue
        played = 0.0
        for _ in range(worlds):
            played += right_share(player.world(obs, base).counts, game.counts, obs.seat)
        out.played += played / worlds
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="deals (one observer each)")
    parser.add_argument("--seed", type=int, default=2000, help="the first deal's seed")
    parser.add_argument("--worlds", type=int, default=6, help="worlds a decision")
    parser.add_argument("--model", action="store_true", help="the walk weighs by the model")
    parser.add_argument("--weight", type=float, default=1.0, help="the model's weight")
    args = parser.parse_args()
    t = time.process_time()
    kwargs: dict[str, Any] = {}
    if args.model:
        from engine.ai.cardmodel import shipped

        kwargs = {"model": shipped(), "model_weight": args.weight}
    s = measure(args.games, args.seed, args.worlds, **kwargs)
    n = max(1, s.positions)
    print(f"{s.positions} positions of {args.games} deals from seed {args.seed}:")
    print(f"  random   {s.random / n:.4f}")
    print(f"  cold 400 {s.cold / n:.4f}")
    print(f"  played   {s.played / n:.4f}  ({args.worlds} worlds a decision)")
    if args.model:
        print(f"  (the walk weighs by the model, weight {args.weight})")
    if s.model:
        print(f"  model    {s.model / n:.4f}")
    print(f"  ({time.process_time() - t:.0f} s CPU)")


if __name__ == "__main__":
    main()
