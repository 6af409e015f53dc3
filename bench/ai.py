"""AI speed: hint decision time, rollouts per second before and after the simulator, and
the strong player's decision times and work on one core, alone or beside another
CPU-bound process.

    python -m bench.ai [--games N] [--rollouts N] [--load] [--strong-only] [--model]
        [--option K=V]

Prints microseconds per hint decision (the `/gouji hint` button); rollouts per second on the
same positions (one game played out by the expert policy for all six seats), *before* on
``engine.Game`` (observation-free views, as the strong player did until the simulator) and
*after* on :class:`engine.ai.sim.Sim`, from the deal and from mid-game (where a search
starts them); and the strong player's decisions over N games against the expert (seats 0,
2, 4), pinned to one core: CPU time (``time.process_time``: this process only), wall time
(what a player waits: with ``--load`` a busy-looping process shares the core, "one core
with another CPU-bound process beside it"), and the work of each decision — actions
simulated in rollouts and policy checks of the belief's walk — which the budgets fix, so
that a loaded machine makes a decision slower, never weaker. Other work on a shared
machine shows in the wall times too: the load average is printed. The figures measured,
and against the code before the simulator, are in docs/ai.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.cli.options import add_option_argument, options_from_args
from engine.actions import Action, IllegalActionError
from engine.ai import make_player, play_game, suggest
from engine.ai.cardmodel import CardModel, shipped
from engine.ai.hint import EXPERT, decide
from engine.ai.player import Player
from engine.ai.sim import Sim
from engine.ai.strong import StrongPlayer
from engine.ai.view import view_of_game
from engine.game import Game, Options, Phase
from engine.observation import Observation
from engine.state import QUESTIONS

clock = time.process_time


def hint_times(games: int) -> list[float]:
    """Seconds per suggest() over every decision of ``games`` hint games."""
    out = []
    for seed in range(games):
        game = Game.from_deal(seed, Options())
        while game.phase not in (Phase.FINISHED, Phase.VOID):
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
    while game.phase == Phase.PLAY:
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
        while (game.phase == Phase.PLAY or game.phase in QUESTIONS) and (
            game.phase != Phase.PLAY or steps < midgame
        ):
            seat = game.to_act[0]
            game.apply(decide(view_of_game(game, seat), EXPERT) if game.phase == Phase.PLAY
                       else suggest(game.observe(seat), EXPERT))  # fmt: skip
            steps += game.phase == Phase.PLAY
        if game.phase == Phase.PLAY:
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


@dataclass
class Decisions:
    """Each timed decision of the strong player: CPU and wall seconds, and its work —
    actions simulated in rollouts and policy checks of the belief's walk."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    simulated: list[int] = field(default_factory=list)
    checks: list[int] = field(default_factory=list)


class Timed:
    """A strong player whose decisions are timed and their work counted."""

    def __init__(self, player: StrongPlayer, out: Decisions) -> None:
        self.player, self.out = player, out

    def act(self, obs: Observation) -> Action:
        p = self.player
        simulated, checks = p.simulated, p.belief.work
        t, w = clock(), time.perf_counter()
        action = p.act(obs)
        self.out.cpu.append(clock() - t)
        self.out.wall.append(time.perf_counter() - w)
        self.out.simulated.append(p.simulated - simulated)
        self.out.checks.append(p.belief.work - checks)
        return action

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        return self.player.choose_return(returnable, n)


def strong_decisions(games: int, options: Options, model: CardModel | None = None) -> Decisions:
    """The strong player's decisions on seats 0, 2, 4 against the expert, ``games`` deals
    (its walk weighing its guesses by ``model``, if given)."""
    out = Decisions()
    for seed in range(games):
        players: list[Player] = [
            Timed(StrongPlayer(seed * 6 + s, model=model), out)
            if s % 2 == 0
            else make_player("expert", s)
            for s in range(6)
        ]
        play_game(Game.from_deal(1000 + seed, options), players)
    return out


def _busy() -> None:  # pragma: no cover - runs in the load process
    while True:
        pass


def pinned_load(cpu: int) -> multiprocessing.process.BaseProcess:
    """A CPU-bound process on ``cpu`` (this process is pinned there too): "one core with
    another CPU-bound process beside it"."""
    load = multiprocessing.get_context("fork").Process(target=_busy, daemon=True)
    load.start()
    assert load.pid is not None
    os.sched_setaffinity(load.pid, {cpu})
    return load


def quantiles(xs: Sequence[float], scale: float) -> str:
    xs = sorted(xs)

    def pick(q: float) -> float:
        return xs[min(len(xs) - 1, int(q * len(xs)))] * scale

    return f"p50 {pick(0.5):.3f}  p99 {pick(0.99):.3f}  max {xs[-1] * scale:.3f}  (n={len(xs)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="strong games to time")
    parser.add_argument("--rollouts", type=int, default=30, help="positions to roll out")
    parser.add_argument(
        "--load",
        action="store_true",
        help="pin to one core and run a CPU-bound process beside the strong games",
    )
    parser.add_argument("--strong-only", action="store_true", help="time only the strong player")
    parser.add_argument(
        "--model", action="store_true", help="the walk weighs by the model of the hidden hands"
    )
    add_option_argument(parser)
    args = parser.parse_args()
    options = options_from_args(args)
    random.seed(0)
    if not args.strong_only:
        print("hint decision, µs:   ", quantiles(hint_times(20), 1e6))
        for label, midgame in (("from the deal", 0), ("from mid-game", 60)):
            before, after, steps = rollout_rates(positions(args.rollouts, midgame))
            print(
                f"rollouts/s {label}: before (engine.Game) {before:.0f}, after (Sim) {after:.0f}"
                f" — {after / before:.1f}x ({steps:.0f} actions a rollout)"
            )
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    load = pinned_load(cpu) if args.load else None
    try:
        d = strong_decisions(args.games, options, shipped() if args.model else None)
    finally:
        if load is not None:
            load.terminate()
            load.join()
    where = f"core {cpu}" + (", a CPU-bound process beside it" if load else ", alone")
    rules = f"{options.changed() or 'default rules'}{', with the model' if args.model else ''}"
    print(f"strong decisions on {where} ({rules}; load average {os.getloadavg()[0]:.1f}):")
    print("  CPU ms:            ", quantiles(d.cpu, 1e3))
    print("  wall ms:           ", quantiles(d.wall, 1e3))
    print("  actions simulated: ", quantiles(d.simulated, 1))
    print("  policy checks:     ", quantiles(d.checks, 1))


if __name__ == "__main__":
    main()
