"""Snapshots of the live engine (data/snapshots.py): a restart resumes a table from its
snapshot and the entries logged after it, to exactly the state a replay of the whole log
gives — and whenever the snapshot cannot be trusted, from the whole log instead."""

from __future__ import annotations

import copy
import io
import logging
import pickle
import random
import zlib
from typing import Any

import pytest

from data import ENGINE, ClaimLostError, InvalidInputError, Store
from data.snapshots import EngineUnpickler, _by_value, dump_series, load_series, logged_entries
from engine.actions import Verb
from engine.series import Series

from .conftest import raw_sql
from .game_child import snapshot
from .test_engine_roundtrip import (
    _store_partial,
    cut,
    engine_prefix,
    engine_walk,
    logged,
    played_series,
)


async def _stored_with_snapshot(
    store: Store,
    record: dict,
    game: int,
    at: int,
    keep: int,
    channel: int,
    at_state: Series | None = None,
) -> tuple[int, int]:
    """Deal ``game`` of ``record`` stored with ``keep`` log entries and a snapshot taken
    after the first ``at`` (of ``at_state``, the engine's series there, when the caller has
    it); returns (series id, the deal's game id)."""
    if at_state is None:
        at_state = engine_prefix(record, game, at)
    series_id, game_ids = await _store_partial(store, cut(record, game, at), at_state, channel)
    assert await store.save_snapshot(game_ids[-1], at_state) == at
    entry = record["games"][game]
    log = (entry.get("returns", []) + entry["actions"])[at:keep]
    if log:
        await store.append_actions(game_ids[-1], log, expected_index=at)
    return series_id, game_ids[-1]


async def _active(store: Store, series_id: int, engine: str | None = ENGINE):
    report = await store.load_active_tables(engine=engine)
    assert not report.broken
    (active,) = [a for a in report.tables if a.series and a.series.id == series_id]
    return active


@pytest.mark.parametrize(("kind", "seed"), [("random", 11), ("void", 12)])
async def test_a_table_resumed_from_its_snapshot_is_the_state_a_replay_gives(store, kind, seed):
    """Cut anywhere (before a return, between returns, mid-game, in a redeal), snapshot
    anywhere before the cut: the snapshot and the tail make the engine's own state."""
    _, record = played_series(kind, seed)
    rng = random.Random(seed)
    points = []
    for game in range(len(record["games"])):
        keep = min(rng.randint(0, 70), logged(record, game))
        points += [(game, 0, keep), (game, rng.randint(0, keep), keep), (game, keep, keep)]
    # the engine's own series at each snapshot point (a copy: the walk moves on) and its
    # state at each cut, from one walk through the record
    snapshotted = {(game, at) for game, at, _ in points}
    cuts = {(game, keep) for game, _, keep in points}
    at_states, expected = {}, {}
    for game, index, series in engine_walk(record):
        if (game, index) in snapshotted:
            at_states[game, index] = copy.deepcopy(series)
        if (game, index) in cuts:
            expected[game, index] = snapshot(series)
    for channel, (game, at, keep) in enumerate(points):
        series_id, game_id = await _stored_with_snapshot(
            store, record, game, at, keep, channel, at_states[game, at]
        )
        active = await _active(store, series_id)
        assert active.resume is not None and active.resume.game_id == game_id
        assert active.resume.idx == at and len(active.resume.tail) == keep - at
        assert all(log.actions == () for log in active.games)  # the snapshot covers them
        restored = await store.restore_series(active)
        assert snapshot(restored) == expected[game, keep], (game, at)
        # ended, so that the next load reads its own table only (not all the earlier ones)
        await store.set_table_status(active.table.id, "ended")


async def test_without_the_engine_the_load_gives_whole_logs(store) -> None:
    _, record = played_series("random", 13)
    series_id, _ = await _stored_with_snapshot(store, record, 1, 5, 20, 0)
    active = await _active(store, series_id, engine=None)
    assert active.resume is None and len(active.games[-1].actions) == 20
    assert snapshot(await store.restore_series(active)) == snapshot(engine_prefix(record, 1, 20))


async def test_a_snapshot_of_another_engine_is_not_used(store) -> None:
    _, record = played_series("random", 14)
    series_id, game_id = await _stored_with_snapshot(store, record, 0, 10, 30, 0)
    await store.save_snapshot(game_id, engine_prefix(record, 0, 30), engine="an older engine")
    active = await _active(store, series_id)
    assert active.resume is None and len(active.games[-1].actions) == 30
    assert snapshot(await store.restore_series(active)) == snapshot(engine_prefix(record, 0, 30))


async def test_a_snapshot_of_an_earlier_deal_is_stale(store) -> None:
    _, record = played_series("random", 15)
    entry = record["games"][0]
    whole = len(entry.get("returns", [])) + len(entry["actions"])
    series_id, game_id = await _stored_with_snapshot(store, record, 0, 40, whole, 0)
    await store.record_game_result(9, game_id, [], {"places": []})
    deal = record["games"][1]
    game = await store.start_game(series_id, deal["seed"], deal["hands"])
    log = (deal.get("returns", []) + deal["actions"])[:7]
    await store.append_actions(game.id, log, expected_index=0)
    active = await _active(store, series_id)
    assert active.resume is None and [len(g.actions) for g in active.games] == [whole, 7]
    assert snapshot(await store.restore_series(active)) == snapshot(engine_prefix(record, 1, 7))


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE snapshots SET state = ?",  # bytes that are not a snapshot
        "UPDATE snapshots SET idx = idx - 1",  # says it holds an entry fewer than it does
    ],
)
async def test_a_damaged_snapshot_means_a_replay_of_the_log(db_url, damage, caplog) -> None:
    _, record = played_series("random", 16)
    async with await Store.open(db_url) as store:
        series_id, _ = await _stored_with_snapshot(store, record, 2, 12, 25, 0)
    async with raw_sql(db_url) as conn:
        await conn.execute(damage, (b"not zlib",) if "?" in damage else ())
    async with await Store.open(db_url) as store:
        active = await _active(store, series_id)
        assert active.resume is not None
        with caplog.at_level(logging.WARNING, logger="gouji.data"):
            restored = await store.restore_series(active)
    assert snapshot(restored) == snapshot(engine_prefix(record, 2, 25))
    assert "replaying the whole log instead of its snapshot" in caplog.text


async def test_a_snapshot_ahead_of_its_log_is_not_used(db_url) -> None:
    _, record = played_series("random", 17)
    async with await Store.open(db_url) as store:
        series_id, game_id = await _stored_with_snapshot(store, record, 0, 30, 30, 0)
    async with raw_sql(db_url) as conn:  # the log lost its last entries
        await conn.execute("DELETE FROM actions WHERE game_id = ? AND idx >= 25", (game_id,))
    async with await Store.open(db_url) as store:
        active = await _active(store, series_id)
        assert active.resume is None and len(active.games[-1].actions) == 25
        restored = await store.restore_series(active)
    assert snapshot(restored) == snapshot(engine_prefix(record, 0, 25))


async def test_a_snapshot_that_does_not_match_the_log_is_refused(store) -> None:
    _, record = played_series("random", 18)
    series_id, game_id = await _stored_with_snapshot(store, record, 0, 10, 10, 0)
    with pytest.raises(InvalidInputError, match="10 entries logged"):
        await store.save_snapshot(game_id, engine_prefix(record, 0, 9))
    with pytest.raises(InvalidInputError, match="not the deal"):  # another deal's series
        await store.save_snapshot(game_id, engine_prefix(record, 1, 0))
    active = await _active(store, series_id)
    assert active.resume is not None and active.resume.idx == 10  # the old one stays


async def test_only_the_tables_holder_saves_its_snapshot(store) -> None:
    _, record = played_series("random", 19)
    series_id, game_id = await _stored_with_snapshot(store, record, 0, 4, 4, 0)
    table = (await _active(store, series_id)).table
    await store.claim_table(table.id, "shard 1")
    store.act_as("shard 0")
    with pytest.raises(ClaimLostError):
        await store.save_snapshot(game_id, engine_prefix(record, 0, 4))


def test_a_snapshot_round_trips_and_counts_the_logged_entries() -> None:
    _, record = played_series("void", 20)
    entry = record["games"][1]
    for keep in (0, 1, len(entry.get("returns", [])), 40):
        series = engine_prefix(record, 1, keep)
        assert logged_entries(series) == keep
        assert snapshot(load_series(dump_series(series))) == snapshot(series)


class _Noting(pickle.Unpickler):
    """An unpickler that notes every global a pickle names (and loads it as pickle does)."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.named: set[tuple[str, str]] = set()

    def find_class(self, module: str, name: str) -> Any:
        self.named.add((module, name))
        return super().find_class(module, name)


def test_a_snapshot_names_only_engine_classes_on_every_python() -> None:
    """Python 3.11.2 pickles some enum members by name through ``builtins.getattr``, which
    the loader refuses: a bot on that Python could not read back its own snapshots. Every
    global a snapshot names is one the loader admits; enum members go by value."""
    _, record = played_series("void", 20)
    noting = _Noting(zlib.decompress(dump_series(engine_prefix(record, 1, 40))))
    noting.load()
    admitted = set(EngineUnpickler.ADMITTED)
    assert ("engine.actions", "Verb") in noting.named
    assert noting.named <= admitted, noting.named - admitted
    assert _by_value(Verb.PLAY) == (Verb, ("play",))


class _RunsCode:
    """Pickles as a call of ``os.system`` (what a crafted row could hold)."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        import os

        return os.system, (self.command,)


@pytest.mark.parametrize("wrapped", [False, True])
async def test_a_snapshot_that_would_run_code_is_refused_and_the_log_restores(
    db_url, tmp_path, wrapped, caplog
) -> None:
    """A crafted snapshot row (right engine, right deal, right length) holding a pickle that
    calls a shell command: nothing runs, the table is rebuilt from its log. ``wrapped``: the
    call hidden inside the state of an engine object."""
    import pickle
    import zlib

    _, record = played_series("random", 21)
    marker = tmp_path / "ran"
    async with await Store.open(db_url) as store:
        series_id, _ = await _stored_with_snapshot(store, record, 1, 10, 18, 0)
    payload = _RunsCode(f"touch {marker}")
    if wrapped:  # a real Series whose deals are the call
        outer = Series()
        outer.deals = [payload]  # type: ignore[list-item]
        state = pickle.dumps(outer)
    else:
        state = pickle.dumps(payload)
    async with raw_sql(db_url) as conn:
        await conn.execute("UPDATE snapshots SET state = ?", (zlib.compress(state),))
    async with await Store.open(db_url) as store:
        active = await _active(store, series_id)
        assert active.resume is not None
        with caplog.at_level(logging.WARNING, logger="gouji.data"):
            restored = await store.restore_series(active)
    assert not marker.exists(), "the snapshot ran a shell command"
    assert snapshot(restored) == snapshot(engine_prefix(record, 1, 18))
    assert "replaying the whole log instead of its snapshot" in caplog.text


async def test_a_snapshot_that_inflates_past_the_limit_is_refused(db_url, caplog) -> None:
    """A few kilobytes that decompress to gigabytes are not decompressed."""
    import zlib

    _, record = played_series("random", 22)
    async with await Store.open(db_url) as store:
        series_id, _ = await _stored_with_snapshot(store, record, 0, 10, 12, 0)
    bomb = zlib.compress(b"\0" * (64 << 20), 9)
    async with raw_sql(db_url) as conn:
        await conn.execute("UPDATE snapshots SET state = ?", (bomb,))
    async with await Store.open(db_url) as store:
        active = await _active(store, series_id)
        with caplog.at_level(logging.WARNING, logger="gouji.data"):
            restored = await store.restore_series(active)
    assert snapshot(restored) == snapshot(engine_prefix(record, 0, 12))
    assert "larger than" in caplog.text
