"""bench.store and bench.restore run, on SQLite and on PostgreSQL, and print their figures."""

from __future__ import annotations

import sys

import pytest

from bench import restore, store


@pytest.fixture(params=["sqlite", "postgresql"])
def database_args(request: pytest.FixtureRequest) -> list[str]:
    if request.param == "sqlite":
        return []
    return ["--database-url", request.getfixturevalue("pg_server").url()]


async def test_bench_store_prints_appends_and_load(monkeypatch, capsys, database_args) -> None:
    args = ["--appends", "5", "--tables", "3", "--actions", "4", *database_args]
    monkeypatch.setattr(sys, "argv", ["bench.store", *args])
    await store.main()
    out = capsys.readouterr().out
    assert "append_action (durable, one commit each):" in out
    assert "load_active_tables: 3 tables × 4 actions (12 actions)" in out


async def test_bench_restore_prints_restore_and_appends(monkeypatch, capsys, database_args) -> None:
    args = ["--tables", "2", "--actions", "5", "--runs", "1", "--appends", "3", *database_args]
    monkeypatch.setattr(sys, "argv", ["bench.restore", *args])
    await restore.main()
    out = capsys.readouterr().out
    assert "2 open tables in game 1" in out and "restore (open + load_active_tables" in out
    assert "append_action (durable, one commit each), median of 1:" in out


def test_bench_store_takes_only_postgresql_urls(monkeypatch) -> None:
    monkeypatch.setattr(sys, "argv", ["bench.store", "--database-url", "sqlite:///x.db"])
    with pytest.raises(SystemExit):
        store.asyncio.run(store.main())
