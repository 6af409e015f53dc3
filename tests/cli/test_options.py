"""``--option name=value`` of gouji play, demo and arena (docs/rules.en.md §9 house rules)."""

from __future__ import annotations

import argparse

import pytest

from bot.cli.arena import play_match
from bot.cli.options import add_option_argument, options_from_args
from engine.options import Options


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gouji test", exit_on_error=False)
    parser.add_argument("--bie-san", action="store_true")
    add_option_argument(parser)
    return parser.parse_args(argv)


def test_options_are_read_and_repeatable() -> None:
    args = parse("--option", "gou_si_ji=true", "--option", "burn_check=seeds", "--bie-san")
    assert options_from_args(args) == Options(bie_san=True, gou_si_ji=True, burn_check="seeds")
    assert options_from_args(parse()) == Options()
    assert options_from_args(parse("--option", "no_single_return=off")).no_single_return is False


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ("gou_si=true", "'gou_si'"),
        ("gou_si_ji", "'gou_si_ji'"),
        ("gou_si_ji=maybe", "'maybe'"),
        ("open_rule=loose", "'loose'"),
    ],
)
def test_a_bad_option_is_an_error_naming_it(given: str, named: str, capsys) -> None:
    parser = argparse.ArgumentParser(prog="gouji test")
    add_option_argument(parser)
    with pytest.raises(SystemExit):
        parser.parse_args(["--option", given])
    assert named in capsys.readouterr().err


def test_the_arena_plays_under_house_rules() -> None:
    options = {"gou_si_ji": True, "burn_check": "seeds", "tribute_cards": "biggest"}
    deals = play_match("hint", "hint", 2, 3, series=True, options=options)
    assert len(deals) == 2
    assert all(len(d["points"]) == 10 for d in deals)  # two five-game series each deal


def test_the_terminal_names_the_house_rules_it_plays() -> None:
    from bot.cli.demo import _header
    from bot.cli.play import Session

    args = parse("--option", "open_rule=wide")
    args.ai, args.games, args.seed = "hint", 1, 1
    assert "(开点 (opening): wide (宽开点))" in _header(args, "en")
    out: list[str] = []
    session = Session(lang="zh", seed=3, options=options_from_args(args), ai="hint", games=1,
                      auto=False, read=lambda prompt: None, write=out.append)  # fmt: skip
    session.run()
    assert "本桌规则：开点：宽开点" in out
