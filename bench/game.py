"""Random self-play throughput of the Gouji engine, against RLCard's Dou Dizhu as a yardstick.

Run ``python -m bench.game [--games N] [--seed S] [--bie-san] [--json] [--profile]``.

Both games are played with uniformly random legal actions, in one process on one core.
A *decision* is one choice among the legal actions of a seat to act: a forced pass counts,
and in Gouji's simultaneous phases (declare, revolt, burn windows) each seat's answer is one
decision. A side's play time covers, for every decision, generating the legal actions and
applying the choice (and the random choice itself, the same ``random.Random.choice`` on both
sides). The deal/setup is excluded from the play time on both sides and timed apart:

- Gouji setup: ``Game.from_deal(seed, options)`` (shuffle, deal, sort hands). Declaring and
  revolting are decisions, so they are play time.
- Dou Dizhu setup: ``DoudizhuGame.init_game()`` (shuffle, deal, landlord by hand score, the
  judger's playable-card sets, a first state). RLCard 1.2's game has no
  ``get_legal_actions()``: the legal actions of the seat to act are ``state['actions']``,
  built by ``get_state`` inside ``step``. The first decision's are built again in the timed
  loop with ``get_state``, so each decision's legal actions are timed exactly once.

Times are the process's CPU time (``time.process_time``), not wall time: the figures are per
second of one core and do not drop when other processes share the machine. Games per second
are reported including setup. Gouji and Dou Dizhu games are run in
alternating chunks, so a change in machine load falls on both sides alike.

Dou Dizhu's lead actions come from a Python ``set`` of strings, whose order depends on
``PYTHONHASHSEED``: its random games repeat only under a fixed ``PYTHONHASHSEED``. Gouji's
repeat from ``--seed`` alone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from time import perf_counter, process_time

# One core: keep numpy (imported by rlcard) from starting BLAS/OpenMP threads.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from engine.game import Game, Options, Phase  # noqa: E402

DEFAULT_GAMES = 2500  # each side; about 20–30 s in all on the development machine
DEFAULT_CHUNK = 100  # games of one side before switching to the other
CLOCK = process_time  # CPU seconds of this process: one core's work, whatever else runs
MAX_DECISIONS = 20000  # a random game longer than this means the engine does not end games
INSTALL_HINT = "pip install -e '.[bench]'"


@dataclass
class SideResult:
    """Counts and times of one side (one game kind) of the benchmark."""

    name: str
    games: int = 0
    decisions: int = 0
    play_seconds: float = 0.0
    setup_seconds: float = 0.0
    void_games: int = 0  # Gouji deals voided by two revolutionaries (still counted as games)

    def count_game(self, decisions: int, setup: float, play: float, void: bool = False) -> None:
        """Count one more game of ``decisions`` decisions and its times in seconds."""
        self.games += 1
        self.decisions += decisions
        self.setup_seconds += setup
        self.play_seconds += play
        self.void_games += void

    def add(self, other: SideResult) -> None:
        """Add the counts and times of ``other`` (the same side, more games) to these."""
        if other.name != self.name:
            raise ValueError(f"cannot add {other.name} results to {self.name} results")
        self.games += other.games
        self.decisions += other.decisions
        self.play_seconds += other.play_seconds
        self.setup_seconds += other.setup_seconds
        self.void_games += other.void_games

    @property
    def decisions_per_second(self) -> float:
        """Decisions per second of play time (setup excluded)."""
        return self.decisions / self.play_seconds if self.play_seconds else 0.0

    @property
    def decisions_per_second_with_setup(self) -> float:
        """Decisions per second when setup time is counted too."""
        total = self.play_seconds + self.setup_seconds
        return self.decisions / total if total else 0.0

    @property
    def games_per_second(self) -> float:
        """Whole games (setup included) per second."""
        total = self.play_seconds + self.setup_seconds
        return self.games / total if total else 0.0

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games if self.games else 0.0

    def to_json(self) -> dict:
        """The figures as a plain dict (for ``--json``)."""
        return {
            "games": self.games,
            "decisions": self.decisions,
            "decisions_per_game": round(self.decisions_per_game, 2),
            "play_seconds": round(self.play_seconds, 4),
            "setup_seconds": round(self.setup_seconds, 4),
            "decisions_per_second": round(self.decisions_per_second, 1),
            "decisions_per_second_with_setup": round(self.decisions_per_second_with_setup, 1),
            "games_per_second": round(self.games_per_second, 2),
            "void_games": self.void_games,
        }


def _endless(kind: str, deal_seed: int) -> RuntimeError:
    return RuntimeError(f"{kind} deal {deal_seed} did not end in {MAX_DECISIONS} decisions")


def _check_games(games: int) -> None:
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")


def play_gouji(games: int, seed: int = 0, bie_san: bool = False) -> SideResult:
    """Play ``games`` random Gouji games (deal seeds ``seed``, ``seed + 1``, …) and time them.

    Each game picks a random waiting seat, then a random legal action of that seat, as
    ``tests/game/randomplay.py`` does.
    """
    _check_games(games)
    result = SideResult("gouji")
    options = Options(bie_san=bie_san)
    done = (Phase.FINISHED, Phase.VOID)
    for deal_seed in range(seed, seed + games):
        choice = random.Random(deal_seed).choice
        t0 = CLOCK()
        game = Game.from_deal(deal_seed, options)
        t1 = CLOCK()
        n = 0
        while game.phase not in done:
            seat = choice(game.to_act)
            game.apply(choice(game.legal_actions(seat)))
            n += 1
            if n > MAX_DECISIONS:
                raise _endless("Gouji", deal_seed)
        t2 = CLOCK()
        result.count_game(n, t1 - t0, t2 - t1, game.phase == Phase.VOID)
    return result


def rlcard_available() -> bool:
    """Whether RLCard (the ``bench`` extra) can be imported."""
    try:
        import rlcard.games.doudizhu.game  # noqa: F401
    except ImportError:
        return False
    return True


def play_doudizhu(games: int, seed: int = 0) -> SideResult:
    """Play ``games`` random RLCard Dou Dizhu games at the game level and time them.

    Deals come from ``np_random = RandomState(seed + i)``; actions are picked by
    ``random.Random(seed + i).choice``. Raises ImportError (naming the extra) without RLCard.
    """
    _check_games(games)
    try:
        import numpy as np
        from rlcard.games.doudizhu.game import DoudizhuGame
    except ImportError as exc:
        raise ImportError(f"RLCard is not installed: {INSTALL_HINT}") from exc
    result = SideResult("doudizhu")
    game = DoudizhuGame()
    for deal_seed in range(seed, seed + games):
        choice = random.Random(deal_seed).choice
        game.np_random = np.random.RandomState(deal_seed)  # init_game hands it to the dealer
        t0 = CLOCK()
        _, player = game.init_game()
        t1 = CLOCK()
        actions = game.get_state(player)["actions"]
        n = 0
        while not game.is_over():
            state, _ = game.step(choice(actions))
            actions = state["actions"]
            n += 1
            if n > MAX_DECISIONS:
                raise _endless("Dou Dizhu", deal_seed)
        t2 = CLOCK()
        result.count_game(n, t1 - t0, t2 - t1)
    return result


def run_benchmark(
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    *,
    bie_san: bool = False,
    with_doudizhu: bool | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> dict:
    """Play ``games`` games of each side in alternating chunks; return the figures.

    ``with_doudizhu`` None means "if RLCard is installed". The result has ``gouji``,
    ``doudizhu`` (None when not run) and ``ratio`` (Gouji ÷ Dou Dizhu decisions per second,
    None when Dou Dizhu was not run).
    """
    _check_games(games)
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    if with_doudizhu is None:
        with_doudizhu = rlcard_available()
    gouji = SideResult("gouji")
    ddz = SideResult("doudizhu") if with_doudizhu else None
    wall = perf_counter()
    for start in range(0, games, chunk):
        n = min(chunk, games - start)
        gouji.add(play_gouji(n, seed + start, bie_san))
        if ddz is not None:
            ddz.add(play_doudizhu(n, seed + start))
    wall = perf_counter() - wall
    ratio = None
    if ddz is not None and ddz.decisions_per_second:
        ratio = gouji.decisions_per_second / ddz.decisions_per_second
    return {
        "seed": seed,
        "games_each": games,
        "bie_san": bie_san,
        "clock": "process CPU time",
        "setup": "excluded from decisions/s (timed apart); included in games/s",
        "gouji": gouji.to_json(),
        "doudizhu": ddz.to_json() if ddz is not None else None,
        "ratio": None if ratio is None else round(ratio, 3),
        "target_ratio": 1.0,
        "python": sys.version.split()[0],
        "wall_seconds": round(wall, 2),
    }


def format_report(figures: dict) -> str:
    """The figures of :func:`run_benchmark` as readable lines."""
    lines = [
        f"Random self-play, {figures['games_each']} games each, seed {figures['seed']}, "
        f"one core, Python {figures['python']}; CPU time, {figures['wall_seconds']:.1f} s wall"
        + (" (bie-san)" if figures["bie_san"] else "")
    ]
    for title, side in (("Gouji", figures["gouji"]), ("Dou Dizhu (RLCard)", figures["doudizhu"])):
        if side is None:
            lines.append(f"{title}: not run — RLCard is not installed: {INSTALL_HINT}")
            continue
        void = f", {side['void_games']} void" if side["void_games"] else ""
        lines.append(
            f"{title}: {side['decisions_per_second']:,.0f} decisions/s "
            f"({side['decisions_per_second_with_setup']:,.0f} with setup), "
            f"{side['games_per_second']:,.1f} games/s with setup; "
            f"{side['decisions']:,} decisions in {side['games']} games{void} "
            f"({side['decisions_per_game']:.1f}/game), "
            f"play {side['play_seconds']:.2f} s + setup {side['setup_seconds']:.2f} s"
        )
    if figures["ratio"] is not None:
        verdict = "meets" if figures["ratio"] >= figures["target_ratio"] else "misses"
        lines.append(
            f"Ratio Gouji ÷ Dou Dizhu decisions/s (setup excluded): {figures['ratio']:.2f} "
            f"({verdict} the target ≥ {figures['target_ratio']:.1f})"
        )
    return "\n".join(lines)


def profile_gouji(games: int, seed: int = 0, bie_san: bool = False, top: int = 15) -> str:
    """cProfile ``games`` random Gouji games; the top functions by cumulative and own time."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.runcall(play_gouji, games, seed, bie_san)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    for key in ("cumulative", "tottime"):
        out.write(f"--- top {top} by {key} ---\n")
        stats.sort_stats(key).print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.game", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games of each side")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--bie-san", action="store_true", help="play Gouji with the bie-san option")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="cProfile the Gouji side only and print the top functions",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if args.profile:
        print(profile_gouji(args.games, args.seed, args.bie_san))
        return 0
    have_rlcard = rlcard_available()
    if not have_rlcard:
        print(f"RLCard is not installed, Dou Dizhu is skipped: {INSTALL_HINT}", file=sys.stderr)
    figures = run_benchmark(args.games, args.seed, bie_san=args.bie_san, with_doudizhu=have_rlcard)
    print(json.dumps(figures) if args.json else format_report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
