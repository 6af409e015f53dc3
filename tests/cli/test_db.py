"""``gouji db copy``: SQLite → PostgreSQL → SQLite through the command, every row kept but
the snapshots (a cache of the logs, never copied)."""

from __future__ import annotations

import asyncio

import pytest

from bot.cli import main
from data import Store
from data.copy import TABLES
from tests.data.test_copy import dump, fill


async def gouji(argv: list[str]) -> int:
    """``gouji ARGV`` (it runs its own event loop, so in a thread)."""
    return await asyncio.to_thread(main, argv)


async def test_gouji_db_copy_moves_a_database_there_and_back(tmp_path, pg_server, capsys) -> None:
    first, back = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    middle = pg_server.new_schema_url()
    async with await Store.open(first) as store:
        await fill(store)
    original = await dump(first)
    assert all(original[name] for name, _ in TABLES)

    kept = {**original, "snapshots": []}  # a cache of the logs: left behind
    rows = sum(len(r) for r in kept.values())
    for source, target in ((first, middle), (middle, back)):
        assert await gouji(["db", "copy", "--from", source, "--to", target]) == 0
        out = capsys.readouterr().out
        assert f"copied {rows} rows" in out and "snapshots" not in out
        assert await dump(target) == kept


async def test_gouji_db_copy_refuses_a_target_with_rows(tmp_path, capsys) -> None:
    source, target = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    for url in (source, target):
        async with await Store.open(url) as store:
            await fill(store)
    before = await dump(target)
    assert await gouji(["db", "copy", "--from", source, "--to", target]) == 1
    assert capsys.readouterr().err.startswith("gouji db copy: ")
    assert await dump(target) == before
    assert await gouji(["db", "copy", "--from", source, "--to", target, "--replace"]) == 0
    assert await dump(target) == {**await dump(source), "snapshots": []}


async def test_gouji_db_copy_refuses_a_missing_source_file(tmp_path, capsys) -> None:
    missing, target = tmp_path / "missing.db", f"sqlite:///{tmp_path / 'b.db'}"
    assert await gouji(["db", "copy", "--from", f"sqlite:///{missing}", "--to", target]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gouji db copy: there is no database at ") and str(missing) in err
    assert not missing.exists()
    assert not (tmp_path / "b.db").exists()  # nothing was opened on the target either


def test_gouji_db_knows_only_copy(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["db", "move"])
    assert "invalid choice" in capsys.readouterr().err
