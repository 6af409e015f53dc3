"""``gouji top``: leaderboards from the database (SQLite or PostgreSQL)."""

from __future__ import annotations

import asyncio

from bot.cli import main
from data import ProfileUpdate, Store


def test_top_lists_the_demo_players_in_board_order(demo_dir, capsys):
    assert main(["top", "--db", str(demo_dir / "gouji.db"), "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Server 0 (gouji demo) leaderboard"
    assert lines[1].split() == ["rank", "player", "score", "title", "games", "头科"]
    rows = [line.split() for line in lines[2:]]
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    scores = [int(r[2]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert all(r[4] == "5" for r in rows)
    assert sum(int(r[5]) for r in rows) == 5  # one 头科 per game


def test_top_limit_and_unknown_server(demo_dir, capsys):
    assert main(["top", "--db", str(demo_dir / "gouji.db"), "--limit", "2", "--lang", "zh"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[0] == "名次" and len(out) == 4
    assert main(["top", "--db", str(demo_dir / "gouji.db"), "--server", "77", "--lang", "en"]) == 0
    assert "No finished games yet: server 77" in capsys.readouterr().out


async def _two_servers(path) -> None:
    async with await Store.open(path) as store:
        for guild, users, delta in ((111, (501, 502), 6), (222, (601,), -4)):
            table = await store.create_table(guild, 1, users[0], {})
            series = await store.start_series(table.id)
            game = await store.start_game(series.id, 1, ["3"] * 6)
            updates = [ProfileUpdate(u, delta + i, place=i + 1) for i, u in enumerate(users)]
            await store.record_game_result(guild, game.id, updates, {"places": []})


def test_top_shows_each_server_of_the_database(db_url, capsys):
    """Through the store: the same boards from SQLite and from PostgreSQL."""
    db = db_url
    asyncio.run(_two_servers(db))
    assert main(["top", "--db", str(db), "--lang", "en"]) == 0
    boards = capsys.readouterr().out.split("\n\n")
    assert boards[0].splitlines()[0] == "Server 111 leaderboard"
    assert [line.split()[1] for line in boards[0].splitlines()[2:]] == ["502", "501"]
    assert boards[1].splitlines()[0] == "Server 222 leaderboard"
    assert main(["top", "--db", str(db), "--server", "222", "--lang", "en"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split() == ["1", "601", "-4", "有点菜", "1", "1"]


def test_top_refuses_a_missing_or_foreign_file(tmp_path, capsys):
    assert main(["top", "--db", str(tmp_path / "none.db")]) == 2
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
    assert main(["top", "--db", f"sqlite:///{tmp_path / 'none.db'}"]) == 2
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
    other = tmp_path / "other.db"
    other.write_text("hello")
    assert main(["top", "--db", str(other)]) == 2
    assert "not a Gouji database" in capsys.readouterr().err
