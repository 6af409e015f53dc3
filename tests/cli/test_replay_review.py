"""``gouji replay FILE --step N -o table.png`` and ``gouji review RECORD --seat N [--json]``,
called as functions."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.cli.replay import main as replay_main
from bot.cli.review import main as review_main
from bot.text.langs import text
from render.table import HEIGHT, WIDTH, hands_height
from tests.replay.helpers import expert_record

SMALL: dict[str, Any] = {
    "format": "gouji-record/1",
    "leader": 0,
    "hands": ["TTTTT6", "KK55", "AA44", "J2", "QQQ9", "889"],
    "actions": ["0 play TTTTT", "3 pass", "0 play 6", "1 play K", "2 play A", "3 play 2",
                "4 pass", "5 pass", "1 pass", "2 pass", "3 play J", "4 play Q", "5 pass",
                "1 play K", "2 play A", "4 pass", "5 pass", "1 pass", "2 play 44", "4 pass",
                "5 play 88", "1 pass", "4 play QQ", "5 pass", "1 pass", "4 play 9"],
}  # fmt: skip


def _write(tmp_path: Path, record: dict, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def test_replay_draws_the_table_at_a_step_with_every_hand(tmp_path, capsys) -> None:
    path = _write(tmp_path, expert_record(17))
    out = tmp_path / "table.png"
    assert replay_main([path, "--step", "40", "-o", str(out), "--lang", "en"]) == 0
    with Image.open(out) as image:
        assert image.size == (WIDTH, HEIGHT + hands_height())
    assert "step 40 of" in capsys.readouterr().out


def test_replay_defaults_to_the_last_step(tmp_path, capsys) -> None:
    path = _write(tmp_path, SMALL)
    out = tmp_path / "end.png"
    assert replay_main([path, "-o", str(out), "--seat", "3"]) == 0
    assert out.exists() and "step 26 of 26" in capsys.readouterr().out


def test_replay_lists_the_key_moments(tmp_path, capsys) -> None:
    path = _write(tmp_path, SMALL)
    assert replay_main([path, "--moments"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["steps"] == 26
    assert data["moments"][:3] == [
        {"kind": "round", "step": 0, "seat": 0, "number": 1},
        {"kind": "open", "step": 2, "seat": 0, "number": 1},
        {"kind": "round", "step": 2, "seat": 0, "number": 2},
    ]
    assert {"kind": "finish", "step": 3, "seat": 0, "number": 1, "place": 1} in data["moments"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--step", "27", "-o", "x.png"], "--step must be 0 to 26"),
        (["--step", "-1", "-o", "x.png"], "--step must be 0 to 26"),
        (["--step", "3"], "-o table.png"),
    ],
)
def test_replay_refuses_bad_steps_and_nothing_to_do(tmp_path, capsys, args, message) -> None:
    path = _write(tmp_path, SMALL)
    assert replay_main([path, *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_replay_refuses_a_game_in_progress(tmp_path, capsys) -> None:
    record = copy.deepcopy(SMALL)
    record["actions"] = record["actions"][:10]
    out = tmp_path / "x.png"
    assert replay_main([_write(tmp_path, record), "-o", str(out)]) == 2
    assert "only a finished game" in capsys.readouterr().err and not out.exists()


def test_replay_of_a_missing_file_or_not_json(tmp_path, capsys) -> None:
    assert replay_main([str(tmp_path / "none.json"), "--moments"]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert replay_main([str(bad), "--moments"]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_review_json(tmp_path, capsys) -> None:
    path = _write(tmp_path, SMALL)
    assert review_main([path, "--seat", "2", "--json", "--budget", "200", "--seed", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["seat"] == 2 and data["budget"] == 200 and data["seed"] == 1
    assert data["rollouts"] <= 200 and data["decisions"] >= 1
    assert isinstance(data["mistakes"], list)


def test_review_finds_the_planted_play_on_the_command_line(tmp_path, capsys) -> None:
    from tests.replay.helpers import planted_game, record_of

    game, seat, index = planted_game(5)
    path = _write(tmp_path, record_of(game))
    folder = tmp_path / "pictures"
    args = [path, "--seat", str(seat), "--seed", "1", "--budget", "1200"]
    assert review_main([*args, "--pictures", str(folder), "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"seat {seat}: ")
    assert lines[1].startswith(f"  step {index} (leading, hand ")
    assert "team points" in lines[1] and "the AI: play" in lines[1]
    listed = sum(line.startswith("  step ") for line in lines)
    drawn = sorted(p.name for p in folder.iterdir())
    assert drawn == [f"decision-{n}.png" for n in range(1, listed + 1)]
    first, last = folder / "decision-1.png", folder / drawn[-1]
    assert lines[-1] == f"pictures: {first}" + (f" to {last}" if listed > 1 else "")
    with Image.open(folder / "decision-1.png") as image:
        assert image.format == "PNG" and image.width > image.height > 0


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh", "你 出 3 + 三张 2 + 小王 + 大王（六张）"),
        ("en", "you play 3 + three 2s + small joker + big joker (6 cards)"),
    ],
)
def test_review_says_the_plays_and_hands_in_words(tmp_path, capsys, lang, words) -> None:
    """The planted play (3222BR led) as the rest of the bot says it, never in notation."""
    from tests.replay.helpers import planted_game, record_of

    game, seat, index = planted_game(5)
    path = _write(tmp_path, record_of(game))
    args = [path, "--seat", str(seat), "--seed", "1", "--budget", "1200", "--lang", lang]
    assert review_main(args) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[1]
    assert words in first and str(index) in first
    assert "3222BR" not in out and "×" in out  # the hand grouped: 4×3, not 444
    assert not any(letter in out for letter in "TBR")


def test_review_refuses_a_game_in_progress(tmp_path, capsys) -> None:
    record = copy.deepcopy(SMALL)
    record["actions"] = record["actions"][:10]
    assert review_main([_write(tmp_path, record), "--seat", "1", "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and "only a finished game" in data["error"]["reason"]


def test_review_needs_a_seat_0_to_5(tmp_path) -> None:
    with pytest.raises(SystemExit):
        review_main([_write(tmp_path, SMALL), "--seat", "6"])


def test_gouji_replay_without_step_options_still_prints_the_result(tmp_path, capsys) -> None:
    from bot.cli import main

    assert main(["replay", _write(tmp_path, SMALL), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["places"]


def test_gouji_review_is_a_subcommand(tmp_path, capsys) -> None:
    from bot.cli import main

    assert main(["review", _write(tmp_path, SMALL), "--seat", "0", "--budget", "20"]) == 0
    assert capsys.readouterr().out.startswith("seat 0:")


@pytest.mark.parametrize(
    ("lang", "told"),
    [
        ("en", ["烟台 (2) keeps the head (要头)", "Failed burn (烧失败): 青岛 (1)", "five 10s"]),
        ("zh", ["烟台 (2) 要头", "烧失败", "五张 10"]),
    ],
)
def test_gouji_replay_tells_a_game_as_the_table_narrates_it_in_either_language(
    tmp_path, capsys, lang: str, told: list[str]
) -> None:
    """``gouji replay`` words a record in ``--lang`` with the table's narrator: every play
    in words, 要头 and a failed burn (烧失败) as such (not a broken burn), the places."""
    from bot.cli import main

    root = Path(__file__).resolve().parents[2] / "examples"
    assert main(["replay", str(root / "house-rules.json"), "--lang", lang]) == 0
    head = capsys.readouterr().out
    assert main(["replay", _write(tmp_path, SMALL), "--lang", lang]) == 0
    small = capsys.readouterr().out
    assert told[0] in head and told[1] in head and "解烧" not in head
    assert told[2] in small and "TTTTT" not in small  # plays in words, not the notation
    assert small.splitlines()[0] == text(lang, "term.game", n=1)
