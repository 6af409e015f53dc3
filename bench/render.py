"""Render speed and PNG size: ``python -m bench.render [--repeat N]``.

Pins itself to one core, draws each picture once cold (fonts and card art not yet cached),
then N times warm, and prints the median render+encode time and the PNG size. Targets
(issue 6): hand ≤ 30 ms, table ≤ 60 ms, hand PNG ≤ 300 KB. The targets are checked on CPU
time (``time.process_time``), which other processes on a busy machine do not inflate; the
wall-clock median is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

TARGETS_MS = {"hand": 30.0, "table": 60.0}
HAND_PNG_LIMIT = 300 * 1024


def _cases() -> dict[str, Callable[[], Image.Image]]:
    from engine.cards import deal
    from render import demo
    from render.hand import render_hand
    from render.profile import render_leaderboard, render_profile
    from render.series import render_series
    from render.table import render_table

    hands = deal(2026)
    hand, highlight = hands[0], [c for c in hands[0] if c.rank >= 12][:3]
    table, series, profile, board = (
        demo.demo_table(),
        demo.demo_series(),
        demo.demo_profile(),
        demo.demo_leaderboard(),
    )
    return {
        "hand": lambda: render_hand(hand, highlight=highlight, mapped=True),
        "table": lambda: render_table(table),
        "series": lambda: render_series(series),
        "profile": lambda: render_profile(profile),
        "leaderboard": lambda: render_leaderboard(board, server="bench"),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="warm runs per picture (default 30)")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    from render.encode import to_png

    ok = True
    print(
        f"{'picture':<12} {'cold ms':>8} {'CPU median':>10} {'wall median':>11} {'wall p90':>8}"
        f" {'PNG KB':>7} {'size':>10}  target (on CPU time)"
    )
    for name, draw in _cases().items():
        t0 = time.perf_counter()
        data = to_png(draw())
        cold = (time.perf_counter() - t0) * 1000
        walls, cpus = [], []
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            image = draw()
            data = to_png(image)
            walls.append((time.perf_counter() - t0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
        median, wall = statistics.median(cpus), statistics.median(walls)
        p90 = sorted(walls)[int(len(walls) * 0.9) - 1]
        target = TARGETS_MS.get(name)
        verdict = ""
        if target is not None:
            good = median <= target and (name != "hand" or len(data) <= HAND_PNG_LIMIT)
            ok &= good
            limit = " and ≤ 300 KB" if name == "hand" else ""
            verdict = f"≤ {target:.0f} ms{limit}: {'ok' if good else 'MISSED'}"
        size = f"{image.width}x{image.height}"
        print(
            f"{name:<12} {cold:>8.1f} {median:>10.1f} {wall:>11.1f} {p90:>8.1f}"
            f" {len(data) / 1024:>7.1f} {size:>10}  {verdict}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
