"""AI speed: hint decision time, rollouts per second before and after the simulator, and
the strong player's decision times.

    python -m bench.ai [--games N] [--rollouts N]

Prints microseconds per hint decision (the `/gouji hint` button); rollouts per second on the
same positions (one game played out by the expert policy for all six seats), *before* on
``engine.Game`` (observation-free views, as the strong player did until the simulator) and
*after* on :class:`engine.ai.sim.Sim`, from the deal and from mid-game (where a search
starts them); and the strong player's decision time p50 / p99 / max over N games against
the expert. Both sides use today's policy (engine/ai/hint.py), so the printed ratio is the
simulator's part alone: against the code before the simulator (ea3e1ca, its own policy
on ``engine.Game``) a rollout from the deal costs 10.2x fewer instructions (40.1M -> 3.92M,
``perf stat -e instructions``; engine/ai/strong.py lists the figures). Times are CPU
seconds of this one process (``time.process_time``), so other work on a shared machine
does not count.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from engine.actions import Action, IllegalActionError
from engine.ai import make_player, play_game, suggest
from engine.ai.hint import EXPERT, decide
from engine.ai.player import Player
from engine.ai.sim import Sim
from engine.ai.view import view_of_game
from engine.game import FINISHED, PLAY_PHASE, VOID, Game, Options
from engine.observation import Observation

clock = time.process_time


def hint_times(games: int) -> list[float]:
    """Seconds per suggest() over every decision of ``games`` hint games."""
    out = []
    for seed in range(games):
        game = Game.from_deal(seed, Options())
        while game.phase not in (FINISHED, VOID):
            for seat in list(game.to_act):
                if seat in game.to_act:
                    obs = game.observe(seat)
                    t = clock()
                    action = suggest(obs)
                    out.append(clock() - t)
                    game.apply(action)
    return out


def engine_rollout(game: Game) -> int:
    """A rollout on ``engine.Game`` (the way before the simulator): the actions used."""
    steps = 0
    while game.phase == PLAY_PHASE:
        for seat in list(game.to_act):
            if seat in game.to_act:
                action = decide(view_of_game(game, seat), EXPERT)
                try:
                    game.apply(action)
                except IllegalActionError:
                    game.apply(game.legal_actions(seat)[0])
                steps += 1
    return steps


def positions(n: int, midgame: int) -> list[Game]:
    """``n`` dealt games played by the expert to the play phase and ``midgame`` more steps."""
    out = []
    for seed in range(n):
        game = Game.from_deal(seed, Options())
        steps = 0
        while game.phase in (PLAY_PHASE, "declare", "revolt") and (
            game.phase != PLAY_PHASE or steps < midgame
        ):
            seat = game.to_act[0]
            game.apply(decide(view_of_game(game, seat), EXPERT) if game.phase == PLAY_PHASE
                       else suggest(game.observe(seat), EXPERT))  # fmt: skip
            steps += game.phase == PLAY_PHASE
        if game.phase == PLAY_PHASE:
            out.append(game)
    return out


def rollout_rates(games: Sequence[Game], repeat: int = 3) -> tuple[float, float, float]:
    """(rollouts/s on the engine, on the simulator, actions per rollout), same positions."""
    t = clock()
    steps = 0
    for _ in range(repeat):
        for g in games:
            steps += engine_rollout(g.copy())
    before = repeat * len(games) / (clock() - t)
    sims = [Sim.from_game(g) for g in games]
    t = clock()
    for _ in range(repeat):
        for s in sims:
            s.copy().rollout(EXPERT)
    after = repeat * len(games) / (clock() - t)
    return before, after, steps / (repeat * len(games))


class Timed:
    def __init__(self, player: Player, times: list[float]) -> None:
        self.player, self.times = player, times

    def act(self, obs: Observation) -> Action:
        t = clock()
        action = self.player.act(obs)
        self.times.append(clock() - t)
        return action

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        return self.player.choose_return(returnable, n)


def strong_times(games: int) -> list[float]:
    times: list[float] = []
    for seed in range(games):
        players: list[Player] = [
            Timed(make_player("strong", seed * 6 + s), times)
            if s % 2 == 0
            else make_player("expert", s)
            for s in range(6)
        ]
        play_game(Game.from_deal(1000 + seed, Options()), players)
    return times


def quantiles(xs: list[float], scale: float) -> str:
    xs = sorted(xs)

    def pick(q: float) -> float:
        return xs[min(len(xs) - 1, int(q * len(xs)))] * scale

    return f"p50 {pick(0.5):.3f}  p99 {pick(0.99):.3f}  max {xs[-1] * scale:.3f}  (n={len(xs)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="strong games to time")
    parser.add_argument("--rollouts", type=int, default=30, help="positions to roll out")
    args = parser.parse_args()
    random.seed(0)
    print("hint decision, µs:   ", quantiles(hint_times(20), 1e6))
    for label, midgame in (("from the deal", 0), ("from mid-game", 60)):
        before, after, steps = rollout_rates(positions(args.rollouts, midgame))
        print(
            f"rollouts/s {label}: before (engine.Game) {before:.0f}, after (Sim) {after:.0f}"
            f" — {after / before:.1f}x ({steps:.0f} actions a rollout)"
        )
    print("strong decision, ms: ", quantiles(strong_times(args.games), 1e3))


if __name__ == "__main__":
    main()
