"""Garbage collection in steps (bot/cli/collector.py): a full collection freezes what it
leaves; the frozen objects are given back once in a while, and their garbage then goes."""

from __future__ import annotations

import gc
import weakref

from bot.cli.collector import collect_in_steps


class Node:
    """An object in a reference cycle with itself: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_a_full_collection_freezes_what_it_leaves_and_thaws_it_in_a_while() -> None:
    now = [0.0]
    stop = collect_in_steps(thaw_every=60.0, clock=lambda: now[0])
    try:
        node = Node()
        gone = weakref.ref(node)
        gc.collect()
        assert gc.get_freeze_count() > 0  # what survived is frozen
        del node
        gc.collect()
        assert gone() is not None  # frozen: the next full collections do not look at it
        now[0] += 60.0
        gc.collect()  # the hour is up: given back after this collection
        assert gc.get_freeze_count() == 0 and gone() is not None
        gc.collect()
        assert gone() is None  # looked at again, and freed
        assert gc.get_freeze_count() > 0  # and what is left is frozen again
    finally:
        stop()
    assert gc.get_freeze_count() == 0
    node = Node()
    gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is None  # stopped: CPython's own way again
