"""``gouji arena``: measure two AI players against each other in duplicate matches.

Every deal is played twice, program A on seats 0, 2, 4 and then on 1, 3, 5, so the luck of
the cards cancels out. The figure is A's team points per game, with a 95% confidence
interval computed over deals (the two games of a deal averaged into one number), A's share
of won games, and each program's decision time (p50 / p99 / max, in milliseconds).

    gouji arena --a strong --b hint --games 200 --seed 1 --jobs 2
    gouji arena --a hint --b random --games 50 --json
    gouji arena --a expert --b hint --games 200 --ratings   # + both rated as players

``--ratings`` (:mod:`bot.cli.arena_ratings`): A and B rated as the bot rates players.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bot.cli import AI_HELP, CommandError, ai_kind_arg
from bot.cli.options import add_option_argument, options_from_args

if TYPE_CHECKING:  # the engine loads only when a match is played
    from engine.actions import Action
    from engine.ai import Player
    from engine.observation import Observation

# z is close enough to Student's t from about 30 deals on; below, use t (two-sided 95%).
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
        10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04}  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's options."""
    parser.add_argument(
        "--a", type=ai_kind_arg, default="strong", help=f"program A: {AI_HELP} or random"
    )
    parser.add_argument(
        "--b", type=ai_kind_arg, default="hint", help=f"program B: {AI_HELP} or random"
    )
    parser.add_argument("--games", type=int, default=20, help="deals to play (each twice)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed (reproducible)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--series", action="store_true", help="five-game tribute series")
    parser.add_argument("--bie-san", action="store_true", help="the bie-san (憋三) variant")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1 or 2)")
    parser.add_argument(
        "--ratings",
        action="store_true",
        help="also rate A and B as the bot rates players (each one player, on its places)",
    )
    add_option_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Play the match and print the figures; 2 on bad arguments."""
    if args.games < 1 or args.jobs < 1:
        raise CommandError("--games and --jobs must be at least 1")
    cores = max(2, os.cpu_count() or 1)
    if args.jobs > cores:  # --jobs 100000 --games 100000 forked 100,000 processes
        raise CommandError(f"--jobs must be 1 to {cores}: more processes than cores share them")
    if args.series:
        try:
            import engine.series  # noqa: F401
        except ImportError:
            print(
                "gouji arena: --series needs engine/series.py, which is not there yet",
                file=sys.stderr,
            )
            return 2
    progress = _progress if sys.stderr.isatty() else None
    deals = play_match(
        args.a, args.b, args.games, args.seed,
        series=args.series, options=options_from_args(args).to_json(), jobs=args.jobs,
        progress=progress,
    )  # fmt: skip
    if progress:
        print(file=sys.stderr)
    summary = summarize(deals)
    if args.ratings:
        from bot.cli.arena_ratings import match_ratings

        summary["ratings"] = match_ratings(deals, args.a, args.b)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary, args))
    return 0


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    print(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals", end="", file=sys.stderr
    )


def t95(n: int) -> float:
    """Two-sided 95% quantile of Student's t with ``n`` degrees of freedom."""
    if n > 30:
        return 1.96
    key = max(k for k in _T95 if k <= n)
    return _T95[key]


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def summarize(deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a match from its deals (each: A's team ``points`` in every game of
    the deal — two single games, or two series of five — and the decision times ``ms_a``,
    ``ms_b``). The confidence interval is over deals: a deal's games are averaged first."""
    per_deal = [sum(d["points"]) / len(d["points"]) for d in deals]
    games = [p for d in deals for p in d["points"]]
    n = len(per_deal)
    mean = sum(per_deal) / n
    if n > 1:
        sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (n - 1))
        half = t95(n - 1) * sd / math.sqrt(n)
    else:
        half = math.inf
    times: dict[str, dict[str, float]] = {}
    for side in ("a", "b"):
        ms = sorted(t for d in deals for t in d[f"ms_{side}"])
        times[side] = {
            "p50": round(percentile(ms, 50), 3),
            "p99": round(percentile(ms, 99), 3),
            "max": round(ms[-1] if ms else 0.0, 3),
        }
    return {
        "deals": n,
        "games": len(games),
        "mean": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)] if n > 1 else [None, None],
        "win_rate": round(sum(1 for p in games if p > 0) / len(games), 4),
        "decision_ms": times,
    }


def format_summary(s: dict[str, Any], args: argparse.Namespace) -> str:
    """The figures as a few lines of text."""
    lo, hi = s["ci95"]
    ci = f"[{lo:+.2f}, {hi:+.2f}]" if lo is not None else "(needs two deals)"
    unit = "series game" if args.series else "game"
    lines = [
        f"{args.a} (A) vs {args.b} (B): {s['deals']} deals, {s['games']} games, seed {args.seed}",
        f"A's team points per {unit}: {s['mean']:+.2f}  95% CI {ci}",
        f"A's share of won games: {100 * s['win_rate']:.1f}%",
    ]
    for side, name in (("a", args.a), ("b", args.b)):
        t = s["decision_ms"][side]
        lines.append(
            f"decision time {side.upper()} ({name}): p50 {t['p50']:.2f} ms, "
            f"p99 {t['p99']:.2f} ms, max {t['max']:.2f} ms"
        )
    if "ratings" in s:
        from bot.cli.arena_ratings import format_ratings

        lines.append(format_ratings(s["ratings"]))
    return "\n".join(lines)


# --------------------------------------------------------------------------- the match
class TimedPlayer:
    """A player whose every decision is timed (the arena may read the clock: it is not
    the engine)."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.times = times

    def act(self, obs: Observation) -> Action:
        import time

        start = time.perf_counter()
        action: Action = self.player.act(obs)
        self.times.append((time.perf_counter() - start) * 1000)
        return action

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        cards: str = self.player.choose_return(returnable, n)
        return cards


def player_seed(seed: int, deal: int, swap: int, seat: int) -> int:
    """A distinct, reproducible seed for each player of each game of a match."""
    return ((seed * 1_000_003 + deal) * 2 + swap) * 6 + seat


def _players(
    a: str, b: str, seed: int, deal: int, swap: int, times: dict[str, list[float]]
) -> list[TimedPlayer]:
    from engine.ai import make_player

    players = []
    for s in range(6):
        side = "a" if s % 2 == swap else "b"
        kind = a if side == "a" else b
        players.append(
            TimedPlayer(make_player(kind, player_seed(seed, deal, swap, s)), times[side])
        )
    return players


def play_single(
    a: str,
    b: str,
    seed: int,
    deal: int,
    swap: int,
    options: dict[str, Any],
    times: dict[str, list[float]],
    places: list[list[int]] | None = None,
) -> list[int]:
    """One game of deal ``deal``, A on the team ``swap``: [A's team points]. A void deal
    (two revolted) is dealt again from a seed derived from the deal's."""
    from engine.ai import play_game
    from engine.game import Game, Options, Phase
    from engine.scoring import team_scores

    players = _players(a, b, seed, deal, swap, times)
    for attempt in range(100):
        game = Game.from_deal(seed + deal + 1_000_000 * attempt, Options.from_json(options))
        play_game(game, players)
        points = game.points()
        if game.phase != Phase.VOID and points is not None:
            if places is not None:
                places.append([p or 0 for p in game.places])
            return [team_scores(points)[swap]]
    raise RuntimeError(f"deal {deal} was void 100 times")


def play_series(
    a: str,
    b: str,
    seed: int,
    deal: int,
    swap: int,
    options: dict[str, Any],
    times: dict[str, list[float]],
    places: list[list[int]] | None = None,
) -> list[int]:
    """A five-game tribute series from deal ``deal``, A on the team ``swap``: A's team
    points (place and tribute points) in each game."""
    from engine.ai import play_series_game
    from engine.game import Options
    from engine.scoring import team_totals
    from engine.series import Series

    players = _players(a, b, seed, deal, swap, times)
    series = Series(Options.from_json(options))
    out = []
    k = 0
    while not series.finished:
        k += 1
        current = play_series_game(series, players, (seed + deal) * 1000 + k)
        if current.void:
            continue
        score = current.score()
        out.append(team_totals(score)[swap])
        if places is not None and current.game is not None:
            places.append([p or 0 for p in current.game.places])
    return out


def play_deal(task: tuple[str, str, int, int, bool, dict[str, Any]]) -> dict[str, Any]:
    """Both games of one deal (the unit of work of a worker process)."""
    a, b, seed, deal, series, options = task
    times: dict[str, list[float]] = {"a": [], "b": []}
    play = play_series if series else play_single
    places: list[list[int]] = []
    points = [p for swap in (0, 1) for p in play(a, b, seed, deal, swap, options, times, places)]
    return {"points": points, "ms_a": times["a"], "ms_b": times["b"], "places": places}


def play_match(
    a: str,
    b: str,
    deals: int,
    seed: int,
    *,
    series: bool = False,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Play ``deals`` deals twice each under the house rules ``options`` (a record's
    ``options`` object); the per-deal results, in deal order."""
    # made as they are played: a list of them all took memory in proportion to --games
    # before a deal was played (--games 1000000000: more than the machine has)
    tasks = ((a, b, seed, d, series, dict(options or {})) for d in range(deals))
    results = []
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(min(jobs, deals)) as pool:
            for r in pool.imap(play_deal, tasks):
                results.append(r)
                if progress:
                    progress(len(results), deals)
    else:
        for task in tasks:
            results.append(play_deal(task))
            if progress:
                progress(len(results), deals)
    return results
