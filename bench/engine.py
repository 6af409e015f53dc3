"""Speed of legal-play generation: ``python -m bench.engine``.

For 1,000 seeded 36-card hands (the seat hands of ``deal(1)``, ``deal(2)``, …) it times
``legal_plays`` as a lead and as an answer to a standing hand drawn (with a fixed seed)
from a mix of realistic standing hands — some the hand can beat, some it cannot — and
prints the median and 99th percentile against the targets (the bot's autocomplete calls
``legal_plays`` on every keystroke). Inputs are what the bot passes: the seat's cards and
an already-classified standing :class:`~engine.Play`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

from engine import classify, deal, legal_plays

HANDS = 1000
REPEATS = 5  # calls per hand; a hand's time is the mean of these
LEAD_TARGET_MS = 1.0
ANSWER_TARGET_MS = 0.2
STANDING_MIX = [
    "4", "9", "K", "A", "2", "B", "R",
    "66", "JJ", "AA", "22", "K2",
    "555", "QQQ", "A22",
    "8888", "TTTTT", "22777", "JJJJ2",
    "BB777", "R99", "QQQB", "RR22229999", "9999999",
]  # fmt: skip


def seat_hands(count: int) -> list:
    """The first ``count`` seat hands of deal(1), deal(2), …"""
    hands: list = []
    seed = 1
    while len(hands) < count:
        hands.extend(deal(seed))
        seed += 1
    return hands[:count]


def time_ms(call: Callable[[], object]) -> float:
    """Mean milliseconds of one call over REPEATS calls."""
    start = time.perf_counter()
    for _ in range(REPEATS):
        call()
    return (time.perf_counter() - start) * 1000 / REPEATS


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def main() -> int:
    """Run the benchmark and print its figures; exit status 0 even if a target is missed."""
    hands = seat_hands(HANDS)
    rng = random.Random(2024)
    standings = [classify(rng.choice(STANDING_MIX)) for _ in hands]
    lead_ms = [time_ms(partial(legal_plays, h)) for h in hands]
    pairs = list(zip(hands, standings, strict=True))
    answer_ms = [time_ms(partial(legal_plays, h, s)) for h, s in pairs]
    beatable = sum(1 for h, s in pairs if legal_plays(h, s))
    leads = [len(legal_plays(h)) for h in hands]

    print(f"legal_plays on {HANDS} seeded 36-card hands (mean of {REPEATS} calls each), one core")
    print(f"  leads per hand: median {statistics.median(leads):.0f}, max {max(leads)}")
    print(f"  answers: {beatable} of {HANDS} standing hands could be beaten")
    for name, values, target in [
        ("lead", lead_ms, LEAD_TARGET_MS),
        ("answer", answer_ms, ANSWER_TARGET_MS),
    ]:
        median = statistics.median(values)
        verdict = "met" if median <= target else "MISSED"
        print(
            f"  {name:<6}  median {median:.4f} ms   p99 {percentile(values, 99):.4f} ms"
            f"   target median <= {target} ms: {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
