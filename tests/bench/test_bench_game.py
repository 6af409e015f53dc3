"""The game benchmark's functions on a few games: shape and counts, never time."""

from __future__ import annotations

import json

import pytest

from bench.game import SideResult, format_report, main, play_doudizhu, play_gouji, run_benchmark
from tests.game.randomplay import play_random_game


def _check_side(side: SideResult, games: int) -> None:
    assert side.games == games
    assert side.decisions > 0
    assert side.play_seconds > 0 and side.setup_seconds >= 0
    assert side.decisions_per_second >= side.decisions_per_second_with_setup > 0
    assert side.games_per_second > 0
    figures = side.to_json()
    assert figures["games"] == games and figures["decisions"] == side.decisions


def test_gouji_counts_every_decision_of_the_random_games() -> None:
    side = play_gouji(3, seed=11)
    _check_side(side, 3)
    # the same deals and choices as the random-play helper: its action logs hold every decision
    expected = sum(len(play_random_game(s).actions) for s in (11, 12, 13))
    assert side.decisions == expected


def test_gouji_bie_san_runs() -> None:
    _check_side(play_gouji(2, seed=5, bie_san=True), 2)


def test_doudizhu_side() -> None:
    pytest.importorskip("rlcard")
    side = play_doudizhu(3, seed=7)
    _check_side(side, 3)
    assert side.void_games == 0


def test_run_benchmark_without_doudizhu_has_no_ratio() -> None:
    figures = run_benchmark(2, seed=1, with_doudizhu=False, chunk=1)
    assert figures["gouji"]["games"] == 2
    assert figures["doudizhu"] is None and figures["ratio"] is None
    report = format_report(figures)
    assert "pip install -e '.[bench]'" in report and "Gouji:" in report


def test_run_benchmark_with_doudizhu_gives_ratio() -> None:
    pytest.importorskip("rlcard")
    figures = run_benchmark(3, seed=2, with_doudizhu=True, chunk=2)
    assert figures["gouji"]["games"] == 3 and figures["doudizhu"]["games"] == 3
    expected = (
        figures["gouji"]["decisions_per_second"] / figures["doudizhu"]["decisions_per_second"]
    )
    assert figures["ratio"] == pytest.approx(expected, abs=2e-3)
    assert "Ratio" in format_report(figures)


def test_main_json_prints_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rlcard")
    assert main(["--games", "2", "--seed", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) >= {"gouji", "doudizhu", "ratio"}


def test_bad_game_count_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        play_gouji(0)
    with pytest.raises(SystemExit):
        main(["--games", "0"])
