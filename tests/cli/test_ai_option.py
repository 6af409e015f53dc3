"""The AI options of ``gouji play``, ``gouji demo`` and ``gouji arena``: the difficulties
(简单/普通/困难, easy/normal/hard) and the kinds, answered as the kind."""

from __future__ import annotations

import pytest

from bot.cli import build_parser


@pytest.mark.parametrize(
    ("given", "kind"),
    [("简单", "hint"), ("Normal", "expert"), ("困难", "strong"), ("hard", "strong"),
     ("expert", "expert"), ("hint", "hint"), ("strong", "strong")],
)  # fmt: skip
@pytest.mark.parametrize("command", ["play", "demo"])
def test_ai_option_takes_a_difficulty_or_a_kind(command, given, kind):
    args = build_parser().parse_args([command, "--ai", given])
    assert args.ai == kind


def test_arena_programs_take_difficulties():
    args = build_parser().parse_args(["arena", "--a", "困难", "--b", "normal"])
    assert (args.a, args.b) == ("strong", "expert")


@pytest.mark.parametrize("argv", [["play", "--ai", "很难"], ["arena", "--b", "genius"]])
def test_an_unknown_ai_is_refused_naming_the_choices(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unknown AI" in err and "hard (困难)" in err and "expert" in err
