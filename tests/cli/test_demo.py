"""``gouji demo``: a five-game series of AI players into the store, pictures and a record."""

from __future__ import annotations

import json
import sqlite3

from PIL import Image

from bot.cli import main
from bot.cli.demo import DEMO_GUILD, DEMO_NAMES, DEMO_USERS
from bot.text.catalog import place_name
from engine.record import replay
from engine.scoring import title_for


def test_demo_draws_every_picture_and_each_opens(demo_dir):
    names = ["hand.png", "series.png", "leaderboard.png"] + [
        f"table-game{n}.png" for n in range(1, 6)
    ]
    for name in names:
        with Image.open(demo_dir / name) as image:
            image.verify()
        with Image.open(demo_dir / name) as image:
            assert image.width >= 500 and image.height >= 300


def test_demo_prints_each_game_the_totals_and_the_titles(demo_dir):
    text = (demo_dir / "stdout.txt").read_text(encoding="utf-8")
    for n in range(1, 6):
        assert f"Game {n}\n" in text
    assert text.count("1st (头科)") == 5 and text.count("6th (大落)") == 5
    assert "Series totals (seat points):" in text
    record = json.loads((demo_dir / "series.json").read_text(encoding="utf-8"))
    result = replay(record)
    scores = [result["team_totals"][s % 2] for s in range(6)]
    for seat, score in enumerate(scores):
        assert f"{DEMO_NAMES[seat]} ({seat})" in text
        assert f"{score:+5d}  {title_for(score)}" in text


def test_demo_store_holds_the_series_as_played(demo_dir):
    conn = sqlite3.connect(demo_dir / "gouji.db")
    games = conn.execute(
        "SELECT id, number, status, result FROM games ORDER BY number, deal"
    ).fetchall()
    finished = [g for g in games if g[2] == "finished"]
    assert [g[1] for g in finished] == [1, 2, 3, 4, 5]
    seats = conn.execute("SELECT user_id, ai_kind, standin FROM seats ORDER BY seat").fetchall()
    assert seats == [(u, "hint", 1) for u in DEMO_USERS]
    record = json.loads((demo_dir / "series.json").read_text(encoding="utf-8"))
    stored = sum(conn.execute("SELECT count(*) FROM actions").fetchone())
    assert stored == sum(len(g["actions"]) + len(g.get("returns", [])) for g in record["games"])
    result = replay(record)
    for game_row, replayed in zip(finished, result["games"], strict=True):
        assert json.loads(game_row[3])["places"] == replayed["places"]
    profiles = conn.execute(
        "SELECT user_id, score, games, place_1 + place_2 + place_3 + place_4 + place_5 + place_6 "
        "FROM profiles WHERE guild_id = ? ORDER BY user_id",
        (DEMO_GUILD,),
    ).fetchall()
    team = result["team_totals"]
    assert profiles == [(u, team[s % 2], 5, 5) for s, u in enumerate(DEMO_USERS)]
    conn.close()


def test_demo_plays_its_series_at_a_table_of_the_service(tmp_path):
    """The demo is a front end: its table is opened, played and ended by the table service
    (a series of --games games), and the record it writes is the service's record file."""
    assert (
        main(["demo", "--out", str(tmp_path), "--games", "3", "--no-images", "--lang", "en"]) == 0
    )
    conn = sqlite3.connect(tmp_path / "gouji.db")
    assert conn.execute("SELECT status, options FROM tables").fetchall()[0][0] == "ended"
    assert json.loads(conn.execute("SELECT options FROM tables").fetchone()[0])["series_games"] == 3
    assert conn.execute("SELECT status FROM series").fetchall() == [("finished",)]
    numbers = conn.execute("SELECT number FROM games WHERE status = 'finished'").fetchall()
    assert sorted(n for (n,) in numbers) == [1, 2, 3]
    record = json.loads((tmp_path / "series.json").read_text(encoding="utf-8"))
    assert (record["games_total"], record["tribute"]) == (3, True)
    assert replay(record)["ok"]
    conn.close()


def test_demo_twice_into_one_database_adds_up(tmp_path):
    db = tmp_path / "shared.db"
    for seed in (5, 6):
        assert main(["demo", "--out", str(tmp_path / f"d{seed}"), "--db", str(db), "--seed", str(seed),
                     "--games", "1", "--no-images", "--lang", "zh"]) == 0  # fmt: skip
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM tables").fetchone() == (2,)
    assert {g for (g,) in conn.execute("SELECT games FROM profiles")} == {2}
    assert not list((tmp_path / "d5").glob("*.png"))


def test_demo_in_chinese_names_places(tmp_path, capsys):
    assert (
        main(["demo", "--out", str(tmp_path), "--games", "1", "--no-images", "--lang", "zh"]) == 0
    )
    out = capsys.readouterr().out
    assert "第 1 局" in out and "名次：" in out
    assert all(place_name("zh", p) in out for p in range(1, 7))


def test_demo_refuses_a_file_as_folder(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["demo", "--out", str(target)]) == 2
    assert "give --out a folder" in capsys.readouterr().err


def test_demo_refuses_a_database_that_is_not_one(tmp_path, capsys):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not sqlite at all" * 100)
    assert main(["demo", "--out", str(tmp_path / "o"), "--db", str(bad), "--games", "1"]) == 2
    assert "not a Gouji database" in capsys.readouterr().err
    assert bad.read_bytes() == b"not sqlite at all" * 100


def test_demo_progress_bar_only_on_a_terminal(capsys):
    from bot.cli.demo import Progress

    Progress(5, enabled=False).update(1, 10, force=True)
    assert capsys.readouterr().err == ""
    bar = Progress(5, enabled=True)
    bar.update(3, 42, force=True)
    assert "game 3/5 · 42 actions" in capsys.readouterr().err


def test_demo_bie_san_records_stifles_and_burns_in_the_profiles(tmp_path):
    assert main(["demo", "--out", str(tmp_path), "--bie-san", "--no-images", "--lang", "en"]) == 0
    record = json.loads((tmp_path / "series.json").read_text(encoding="utf-8"))
    assert record["options"] == {"bie_san": True}
    result = replay(record)
    stifles = [0] * 6
    burns = [0] * 6
    for game in result["games"]:
        for st in game["stifled"]:
            stifles[st["by"]] += 1
        for b in game["burns"]:
            burns[b["burner"]] += b["result"] == "success"
    assert sum(stifles) > 0  # seed 1 has stifles: the check below is not vacuous
    conn = sqlite3.connect(tmp_path / "gouji.db")
    rows = conn.execute("SELECT user_id, stifles, burns FROM profiles ORDER BY user_id").fetchall()
    assert rows == [(u, stifles[s], burns[s]) for s, u in enumerate(DEMO_USERS)]
    conn.close()


def test_the_demos_default_folder_is_ignored_by_git(tmp_path) -> None:
    """`gouji demo` run in a checkout leaves nothing for `git status` to show."""
    import shutil
    import subprocess
    from pathlib import Path

    import pytest

    from bot.cli.demo import DEFAULT_OUT

    root = Path(__file__).resolve().parents[2]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    probe = f"{DEFAULT_OUT}/series.json"
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", probe], cwd=root, check=False
    )
    assert ignored.returncode == 0, f"{probe} is not in .gitignore"


def test_the_demo_players_sit_where_the_service_keeps_tables_outside_discord() -> None:
    from bot.service.tables import OWN_GUILD

    assert DEMO_GUILD == OWN_GUILD
