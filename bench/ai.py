"""AI speed: hint decision time, rollout speed, and the strong player's decision times.

    python -m bench.ai [--games N]

Prints microseconds per hint decision (the `/gouji hint` button), milliseconds per rollout
(one game played out by the expert policy from the deal), and the strong player's decision
time p50 / p99 / max over N games against the hint (one core).
"""

from __future__ import annotations

import argparse
import random
import time

from engine.ai import make_player, play_game, suggest
from engine.ai.strong import rollout
from engine.game import FINISHED, VOID, Game, Options


def hint_times(games: int) -> list[float]:
    """Seconds per suggest() over every decision of ``games`` hint games."""
    out = []
    for seed in range(games):
        game = Game.from_deal(seed, Options())
        while game.phase not in (FINISHED, VOID):
            for seat in list(game.to_act):
                if seat in game.to_act:
                    obs = game.observe(seat)
                    t = time.perf_counter()
                    action = suggest(obs)
                    out.append(time.perf_counter() - t)
                    game.apply(action)
    return out


def rollout_times(n: int) -> list[float]:
    out = []
    for seed in range(n):
        game = Game.from_deal(seed, Options())
        players = [make_player("hint", s) for s in range(6)]
        while game.phase != "play":
            seat = game.to_act[0]
            game.apply(players[seat].act(game.observe(seat)))
        t = time.perf_counter()
        rollout(game)
        out.append(time.perf_counter() - t)
    return out


class Timed:
    def __init__(self, player, times: list[float]) -> None:
        self.player, self.times = player, times

    def act(self, obs):
        t = time.perf_counter()
        action = self.player.act(obs)
        self.times.append(time.perf_counter() - t)
        return action


def strong_times(games: int) -> list[float]:
    times: list[float] = []
    for seed in range(games):
        players = [
            Timed(make_player("strong", seed * 6 + s), times)
            if s % 2 == 0
            else make_player("hint", s)
            for s in range(6)
        ]
        play_game(Game.from_deal(1000 + seed, Options()), players)
    return times


def quantiles(xs: list[float], scale: float) -> str:
    xs = sorted(xs)
    pick = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))] * scale  # noqa: E731
    return f"p50 {pick(0.5):.3f}  p99 {pick(0.99):.3f}  max {xs[-1] * scale:.3f}  (n={len(xs)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    random.seed(0)
    print("hint decision, µs:   ", quantiles(hint_times(20), 1e6))
    print("rollout from deal, ms:", quantiles(rollout_times(30), 1e3))
    print("strong decision, ms: ", quantiles(strong_times(args.games), 1e3))


if __name__ == "__main__":
    main()
