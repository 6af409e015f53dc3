"""The ``gouji`` commands refuse what they cannot use in one line on stderr, with exit
status 2 and no traceback (issue #50): unreadable files, absurd numbers, endless input."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.play import parse_input

DEEP = "[" * 100_000 + "]" * 100_000  # parses past Python's recursion limit
NOT_UTF8 = b'\xff\xfe{"format": "gouji-record/1"}'


def refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``gouji ARGV`` here: it must exit with status 2, print nothing on stdout and say
    why in one line on stderr (argparse's usage lines may come before an argument's); that
    line."""
    code: int | str | None
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse refused an argument
        code = stop.code
        err = capsys.readouterr().err
        assert err.startswith("usage: "), err
        err = err.splitlines()[-1] + "\n"
    else:
        err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err.strip()


@pytest.mark.parametrize(
    "command",
    [
        ["replay"],
        ["replay", "--json"],
        ["replay", "--moments"],
        ["replay", "--step", "1", "-o", "never.png"],
        ["review", "--seat", "0"],
        ["render", "table", "-o", "never.png"],
        ["render", "series", "-o", "never.png"],
    ],
)
@pytest.mark.parametrize(("content", "why"), [(DEEP, "nests too deep"), (NOT_UTF8, "UTF-8")])
def test_a_record_nested_too_deep_or_not_utf8_is_refused_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    content: str | bytes,
    why: str,
) -> None:
    path = tmp_path / "record.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    argv = [*command, str(path)]
    if "--json" in command:  # --json says it on stdout, as one JSON object
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert why in out and out.count("\n") == 1 and err == ""
        return
    assert why in refusal(argv, capsys)


def test_gouji_replay_of_a_deep_file_says_one_line_as_a_process(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"{path} is not a record: its JSON nests too deep\n"


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["plays", "2" * 100_000], "cannot read HAND: longer than 200 characters"),
        (["plays", "2" * 37], "cannot read HAND: 37 cards, and a hand holds 36"),
        (["plays", "33", "--answer", "2" * 100_000], "cannot read --answer: longer than 200"),
        (["plays", "33", "--answer", "2" * 40], "cannot read --answer: 40 cards, and a hand"),
    ],
)
def test_gouji_plays_refuses_more_than_a_hand(
    capsys: pytest.CaptureFixture[str], argv: list[str], why: str
) -> None:
    assert refusal(argv, capsys).startswith(f"gouji plays: {why}")


def test_gouji_plays_of_the_richest_hand_prints_little(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "2" * 16 + "B" * 4 + "R" * 4 + "A" * 12]) == 0
    out = capsys.readouterr().out
    assert out.startswith("5524 leads from") and len(out) < 200_000


def test_a_folder_that_cannot_be_made_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "file"
    file.write_text("not a folder", encoding="utf-8")
    argv = ["demo", "--out", str(file / "sub"), "--games", "1", "--no-images"]
    assert refusal(argv, capsys) == f"gouji demo: {file / 'sub'}: Not a directory"


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "8o80", "9" * 5000])
def test_gouji_web_refuses_a_port_past_0_to_65535(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], port: str
) -> None:
    argv = ["web", "--port", port, "--no-browser", "--db", str(tmp_path / "web.db")]
    assert refusal(argv, capsys) == (
        "gouji web: error: argument --port: must be a whole number from 0 to 65535"
    )


def test_gouji_web_on_a_port_in_use_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["web", "--port", str(port), "--no-browser", "--db", str(tmp_path / "web.db")]
        line = refusal(argv, capsys)
    assert line.startswith(f"gouji web: cannot listen on 127.0.0.1:{port}: ")
    assert "address already in use" in line.lower()


@pytest.mark.parametrize(
    ("argv", "range_"),
    [
        (["top", "--limit", "9" * 25], "1 to 9223372036854775807"),
        (["top", "--server", "9" * 25], "0 to 9223372036854775807"),
        (["top", "--server", "-1"], "0 to 9223372036854775807"),
        (["ratings", "show", "--limit", "9" * 25], "1 to 9223372036854775807"),
        (["ratings", "show", "--server", "9" * 25], "0 to 9223372036854775807"),
        (["ratings", "rebuild", "--server", "-" + "9" * 25], "0 to 9223372036854775807"),
    ],
)
def test_a_server_or_limit_past_the_database_is_refused_in_one_line(
    demo_dir: Path, capsys: pytest.CaptureFixture[str], argv: list[str], range_: str
) -> None:
    option = argv[-2]
    line = refusal([*argv, "--db", str(demo_dir / "gouji.db")], capsys)
    assert line.endswith(f"error: argument {option}: must be a whole number from {range_}")


def test_gouji_arena_refuses_more_jobs_than_cores(capsys: pytest.CaptureFixture[str]) -> None:
    cores = max(2, os.cpu_count() or 1)
    argv = ["arena", "--a", "hint", "--b", "random", "--games", "2", "--jobs", "100000"]
    assert refusal(argv, capsys) == (
        f"gouji arena: --jobs must be 1 to {cores}: more processes than cores share them"
    )


ENDLESS_MATCH = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # a list of every deal: MemoryError
import bot.cli.arena as arena
arena.play_deal = lambda task: {"deal": task[3]}
class Enough(Exception):
    pass
def progress(done, total):
    if done == 3:
        raise Enough
try:
    arena.play_match("hint", "random", 10**15, 0, progress=progress)
except Enough:
    print("played 3 of", 10**15)
"""


def test_gouji_arena_plays_a_huge_match_deal_by_deal() -> None:
    """--games 1000000000 plays until stopped, instead of first making every deal's task."""
    done = subprocess.run(
        [sys.executable, "-c", ENDLESS_MATCH], capture_output=True, text=True, timeout=120
    )
    assert done.stdout == f"played 3 of {10**15}\n", done.stderr


@pytest.mark.parametrize("line", ["2" * 100_000, "x" * 100_000, "burn " + "2" * 300])
def test_gouji_play_answers_a_line_longer_than_any_play_in_a_short_line(line: str) -> None:
    command = parse_input(line, "play", False, "en")
    assert command.kind == "error"
    assert command.text.startswith("I do not understand '" + line[:20])
    assert len(command.text) < 200


def test_an_os_error_without_a_file_is_said_whole(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """E.g. ``gouji bot`` offline: "Cannot connect to host discord.com:443 …", not only the
    system's "Name or service not known"."""
    import bot.cli.top

    def unreachable(args: object) -> int:
        raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 1)")

    monkeypatch.setattr(bot.cli.top, "run", unreachable)
    assert refusal(["top"], capsys) == (
        "gouji top: [Errno 111] Connect call failed ('127.0.0.1', 1)"
    )
