"""Garbage collection in steps, for a long-running process holding many tables.

CPython's full collection looks at every object the process holds, with the event loop
stopped. At 500 tables a bot process held 676,000 objects, and its 52 full collections in
20 minutes each stopped it for 0.7 s (median; 0.95 s at most): every answer due then
waited (``python -m bench.discord_shards --shards 1 --tables 500``). With
:func:`collect_in_steps`, what survives a full collection is frozen (``gc.freeze``), so
the next ones look only at what is newer. Once every ``thaw_every`` seconds the frozen
objects are given back before the next full collection (a long pause, then), so that cycles
among them that became garbage are freed too.

    stop = collect_in_steps()   # at start-up
    stop()                      # back to CPython's own way (tests)
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

THAW_EVERY = 3600.0  # seconds between two full collections of everything
OLDEST = 2  # CPython's oldest generation: the one a full collection collects


def collect_in_steps(
    thaw_every: float = THAW_EVERY, clock: Callable[[], float] = time.monotonic
) -> Callable[[], None]:
    """Freeze what each full collection leaves, and give it back once ``thaw_every``
    seconds have passed since the last time; returns the function that stops it (and
    gives back what is frozen)."""
    thawed = clock()

    def after(phase: str, info: dict[str, Any]) -> None:
        nonlocal thawed
        if phase != "stop" or info["generation"] != OLDEST:
            return
        now = clock()
        if now - thawed >= thaw_every:
            thawed = now
            gc.unfreeze()  # the next full collection looks at everything again
        else:
            gc.freeze()

    def stop() -> None:
        gc.callbacks.remove(after)
        gc.unfreeze()

    gc.callbacks.append(after)
    return stop
