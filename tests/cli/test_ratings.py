"""``gouji ratings``: rebuild, show and check the skill ratings (SQLite or PostgreSQL)."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from bot.cli import main
from data import ProfileUpdate, Store


def test_the_demo_players_are_rated_and_a_rebuild_changes_nothing(demo_dir, tmp_path, capsys):
    db = tmp_path / "gouji.db"
    shutil.copy(demo_dir / "gouji.db", db)
    assert main(["ratings", "show", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    lines = shown.splitlines()
    assert lines[0] == "server 0: 6 rated players"
    assert lines[1].split() == ["rank", "player", "rating", "mu", "±", "sigma", "games"]
    rows = [line.split() for line in lines[2:]]
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    assert all(r[-1] == "5" and r[2].endswith("?") for r in rows)  # 5 games: provisional
    figures = [float(r[2].rstrip("?")) for r in rows]
    assert figures == sorted(figures, reverse=True)
    assert main(["ratings", "rebuild", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == (
        "rebuilt the ratings of 1 server(s): 5 of 5 recorded games rated"
    )
    assert main(["ratings", "show", "--db", str(db)]) == 0
    assert capsys.readouterr().out == shown
    assert main(["ratings", "check", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "1 server(s), 6 ratings: the largest difference from openskill's" in out


async def _two_servers(url: str) -> None:
    async with await Store.open(url) as store:
        for guild in (111, 222):
            for n in range(3):
                table = await store.create_table(guild, n + 1, 1, {})  # a channel each
                for seat in range(6):
                    if seat < 4:
                        await store.set_seat(table.id, seat, user_id=500 + seat)
                    else:
                        await store.set_seat(table.id, seat, ai_kind="strong")
                series = await store.start_series(table.id)
                game = await store.start_game(series.id, 1, ["3"] * 6)
                places = [(seat + n + guild) % 6 + 1 for seat in range(6)]
                updates = [ProfileUpdate(500 + s, 0, places[s]) for s in range(4)]
                await store.record_game_result(guild, game.id, updates, {"places": places})


def test_ratings_show_and_check_each_server(db_url, capsys):
    asyncio.run(_two_servers(db_url))
    assert main(["ratings", "show", "--db", db_url, "--limit", "2"]) == 0
    boards = capsys.readouterr().out.split("\n\n")
    assert [b.splitlines()[0] for b in boards] == [
        "server 111: 5 rated players",
        "server 222: 5 rated players",
    ]
    assert all(len(b.splitlines()) == 4 for b in boards)
    assert main(["ratings", "check", "--db", db_url, "--server", "222"]) == 0
    assert "1 server(s), 5 ratings" in capsys.readouterr().out
    assert main(["ratings", "rebuild", "--db", db_url, "--server", "111"]) == 0
    assert "3 of 3 recorded games rated" in capsys.readouterr().out


def test_ratings_refuse_a_missing_file_and_a_bad_limit(tmp_path, capsys):
    assert main(["ratings", "show", "--db", str(tmp_path / "none.db")]) == 2
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
    with pytest.raises(SystemExit, match="2"):
        main(["ratings", "show", "--limit", "0"])
    assert "--limit: must be a whole number from 1 to" in capsys.readouterr().err


def test_ratings_of_a_database_without_games(tmp_path, capsys):
    db = tmp_path / "empty.db"

    async def create() -> None:
        await (await Store.open(db)).close()

    asyncio.run(create())
    assert main(["ratings", "show", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == "no rated games yet"
