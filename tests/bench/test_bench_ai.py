"""The AI benchmark's functions: counts of decisions and of their work, never time."""

from __future__ import annotations

import os

from bench.ai import pinned_load, strong_decisions
from engine.game import Options


def test_strong_decisions_are_timed_and_their_work_counted() -> None:
    d = strong_decisions(1, Options(gou_si_ji=True))
    assert len(d.cpu) == len(d.wall) == len(d.simulated) == len(d.checks) > 20
    assert sum(d.simulated) > 0 and sum(d.checks) > 0  # searched, with the belief's walk
    assert all(x >= 0 for x in d.simulated + d.checks)


def test_the_load_runs_on_the_chosen_core_until_ended() -> None:
    cpu = max(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {cpu})
        load = pinned_load(cpu)
        assert load.is_alive() and load.pid is not None
        assert os.sched_getaffinity(load.pid) == {cpu}
        load.terminate()
        load.join(5)
        assert not load.is_alive()
    finally:
        os.sched_setaffinity(0, before)
