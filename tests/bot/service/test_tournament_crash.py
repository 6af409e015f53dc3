"""A tournament survives a SIGKILL mid-round: the child (tests/bot/service/tournament_child.py)
runs a three-round Swiss event of twelve over real tables and is killed after a table of the
second round was recorded, while the other plays; a restarted child restores the tables and
the event and finishes it. No game is lost or counted twice: every table of every round has
its results once, each from the one played-out series of its own game table, and the
standings equal a recomputation from the game records."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from data import Store
from engine.tournament import standings
from tests.data.conftest import raw_sql
from tests.data.crashkit import run_and_kill

from . import tournament_child as child

CHILD = "tests.bot.service.tournament_child"


@pytest.mark.parametrize(
    ("kill_after", "delay"),
    [(1, 0.0), (2, 0.002), (3, 0.0), (3, 0.01), (4, 0.005)],
)
async def test_a_sigkill_mid_round_loses_no_game_and_counts_none_twice(
    db_path, kill_after: int, delay: float
) -> None:
    db = str(db_path)
    acks = run_and_kill(CHILD, [db, "start"], kill_after_acks=kill_after, delay=delay)
    assert len(acks) >= kill_after
    async with await Store.open(db) as store:
        state = await store.load_tournament(1)
        assert state.tournament.status == "running"  # killed mid-event
        killed_at = sum(1 for t in state.tables if t.status == "finished")
        assert killed_at < 6
    # the restart, to the end (its own restore); a hang fails here, not in CI's timeout
    await asyncio.wait_for(child.main(db, False), 120)
    async with await Store.open(db) as store:
        state = await store.load_tournament(1)
        assert state.tournament.status == "finished"
        assert [len(r.plan.tables) for r in state.rounds] == [2, 2, 2]
        assert all(t.status == "finished" and t.result is not None for t in state.tables)
        table_ids = [t.table_id for t in state.tables]
        assert len(set(table_ids)) == 6  # one game table each
        points: Counter[int] = Counter()
        async with raw_sql(db) as conn:
            for table_id in table_ids:
                rows = await conn.fetch(
                    "SELECT s.status, r.updates FROM series AS s JOIN games AS g "
                    "ON g.series_id = s.id JOIN game_results AS r ON r.game_id = g.id "
                    "WHERE s.table_id = ?",
                    (table_id,),
                )
                assert len(rows) == 1 and rows[0][0] == "finished"  # one game, counted once
                for u in json.loads(rows[0][1]):
                    points[u["user_id"]] += u["score_delta"]
        final = standings(state.tournament.config, state.players, state.rounds, state.left)
        assert {s.player: s.points for s in final} == {p: points[p] for p in child.PEOPLE}
        assert sum(len(res) for r in state.rounds for res in r.results.values()) == 36
