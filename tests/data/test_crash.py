"""Durability at the storage level: a writer killed with SIGKILL at seeded random moments
loses nothing it acknowledged; the log stays contiguous and in order. On both backends."""

from __future__ import annotations

import random

from data import Store

from .crash_child import action_for
from .crashkit import run_and_kill

KILL_POINTS = 24


async def test_acknowledged_actions_survive_sigkill(db_url) -> None:
    db = db_url
    rng = random.Random(20261129)
    acked: dict[int, str] = {}
    game_ids = set()
    for point in range(KILL_POINTS):
        during_start = point in (0, 9)  # kill while the store opens (first time: migrating)
        acks = run_and_kill(
            "tests.data.crash_child",
            [db, "append", str(point)],
            kill_after_acks=0 if during_start else rng.randint(1, 60),
            delay=rng.uniform(0, 0.15) if during_start else rng.choice([0.0, rng.uniform(0, 0.01)]),
        )
        for ack in acks:
            acked[ack.index] = ack.action
            game_ids.add(ack.game_id)
        async with await Store.open(db) as store:
            report = await store.load_active_tables()
            assert report.broken == []
            if not acked:
                continue
            (game_id,) = game_ids
            log = await store.get_actions(game_id)  # raises on any gap
            assert len(log) >= max(acked) + 1, f"kill point {point}: acknowledged actions lost"
            assert all(log[i] == a for i, a in acked.items()), f"kill point {point}: log differs"
            # whatever committed without being acknowledged is still the writer's, in order
            assert log == [action_for(i) for i in range(len(log))]
    assert len(acked) > KILL_POINTS  # the children really wrote
