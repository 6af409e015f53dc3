"""Replay (录像) and review (复盘) figures.

    python -m bench.review [--deals N] [--budget B] [--part replay|review|all]

replay: building the replay of a full game, one step's state (p50 / p99 / max over every
step), and one step's picture (PNG), on one core.
review: for N deals, each an expert game with one planted bad play (a low lead carrying
every 2 and joker of the seat, tests/replay/helpers.py), the review of the planted seat
and of the next seat with two seeds each: wall time per seat, whether the planted play is
the costliest mistake found, and how far the two seeds agree (same costliest mistake;
mistakes found by both / found by either).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.pictures.replay import replay_png
from engine.ai.review import DEFAULT_BUDGET, review
from engine.replay_steps import Replay
from tests.replay.helpers import expert_record, planted_game, record_of


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench_replay() -> None:
    record = expert_record(17)
    t = time.perf_counter()
    replay = Replay.from_record(record)
    build = time.perf_counter() - t
    times = []
    for step in range(replay.steps + 1):
        t = time.perf_counter()
        replay.game_at(step)
        times.append(time.perf_counter() - t)
    draws = []
    for step in range(0, replay.steps + 1, max(1, replay.steps // 10)):
        t = time.perf_counter()
        replay_png(replay, step)
        draws.append(time.perf_counter() - t)
    print(f"replay of a {replay.steps}-step game: built in {build * 1000:.1f} ms")
    print(
        f"one step's state: p50 {_pct(times, 0.5) * 1000:.2f} ms, p99 "
        f"{_pct(times, 0.99) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms"
    )
    print(
        f"one step's picture (PNG, every hand): p50 {_pct(draws, 0.5) * 1000:.0f} ms, "
        f"max {max(draws) * 1000:.0f} ms ({len(draws)} steps, first one warms the caches)"
    )


def bench_review(deals: int, budget: int) -> None:
    walls, cpus, top_hits, listed, planted_runs, same_top, overlap = [], [], 0, 0, 0, 0, []
    pairs = 0
    seed = 0
    done = 0
    while done < deals:
        seed += 1
        try:
            game, seat, index = planted_game(seed)
        except ValueError:
            continue
        done += 1
        replay = Replay.from_record(record_of(game))
        for who in (seat, (seat + 1) % 6):
            found = []
            for review_seed in (1, 2):
                t, c = time.perf_counter(), time.process_time()
                result = review(replay, who, seed=review_seed, budget=budget)
                walls.append(time.perf_counter() - t)
                cpus.append(time.process_time() - c)
                steps = [m.step for m in result.mistakes]
                found.append(steps)
                if who == seat:
                    planted_runs += 1
                    top_hits += bool(steps) and steps[0] == index
                    listed += index in steps
                print(
                    f"deal {seed} seat {who}{' (planted at ' + str(index) + ')' if who == seat else ''}"
                    f" seed {review_seed}: {walls[-1]:.1f} s ({cpus[-1]:.1f} s CPU), "
                    f"{result.rollouts} rollouts, "
                    f"{result.decisions} decisions, mistakes at steps {steps}",
                    flush=True,
                )
            pairs += 1
            a, b = set(found[0]), set(found[1])
            same_top += found[0][:1] == found[1][:1]
            overlap.append(len(a & b) / len(a | b) if a | b else 1.0)
    print(f"budget {budget} rollouts per seat, {len(walls)} reviews")
    print(
        f"time per seat: wall mean {statistics.mean(walls):.1f} s, max {max(walls):.1f} s; "
        f"CPU mean {statistics.mean(cpus):.1f} s, max {max(cpus):.1f} s (one process, one core)"
    )
    print(
        f"planted play found as the costliest: {top_hits}/{planted_runs}; "
        f"among the mistakes listed: {listed}/{planted_runs}"
    )
    print(
        f"two seeds: same costliest mistake (or both none) {same_top}/{pairs}; "
        f"mistakes found by both / by either: mean {statistics.mean(overlap):.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--part", choices=("replay", "review", "all"), default="all")
    args = parser.parse_args()
    if args.part in ("replay", "all"):
        bench_replay()
    if args.part in ("review", "all"):
        bench_review(args.deals, args.budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
