"""`gouji arena`: duplicate matches, the figures, the --json shape."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.cli.arena import percentile, summarize


def run_json(capsys, *args: str) -> dict:
    assert main(["arena", *args, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # exactly one object
    return json.loads(out)


def test_json_shape_and_hint_beats_random(capsys):
    s = run_json(capsys, "--a", "hint", "--b", "random", "--games", "8", "--seed", "5")
    assert set(s) == {"deals", "games", "mean", "ci95", "win_rate", "decision_ms"}
    assert (s["deals"], s["games"]) == (8, 16)
    assert set(s["decision_ms"]) == {"a", "b"}
    for side in ("a", "b"):
        assert set(s["decision_ms"][side]) == {"p50", "p99", "max"}
        t = s["decision_ms"][side]
        assert 0 <= t["p50"] <= t["p99"] <= t["max"]
    lo, hi = s["ci95"]
    assert lo <= s["mean"] <= hi
    # random play loses nearly every game to the hint: a margin no luck explains
    assert s["mean"] > 5 and lo > 0 and s["win_rate"] > 0.8


def test_two_workers_give_the_same_figures(capsys):
    one = run_json(capsys, "--a", "expert", "--b", "hint", "--games", "2", "--seed", "11")
    two = run_json(
        capsys, "--a", "expert", "--b", "hint", "--games", "2", "--seed", "11", "--jobs", "2"
    )
    assert (one["mean"], one["ci95"], one["win_rate"]) == (
        two["mean"],
        two["ci95"],
        two["win_rate"],
    )


def test_summary_pairs_the_games_of_a_deal():
    deals = [
        {"points": [6, -2], "ms_a": [1.0, 3.0], "ms_b": [2.0]},
        {"points": [0, 4], "ms_a": [2.0], "ms_b": [5.0]},
        {"points": [-2, -2], "ms_a": [9.0], "ms_b": [1.0]},
    ]
    s = summarize(deals)
    assert s["mean"] == pytest.approx(2 / 3, abs=1e-4)  # deal means 2, 2, -2
    assert s["win_rate"] == pytest.approx(2 / 6, abs=1e-4)  # 6 and 4 won; 0 is no win
    half = 4.30 * (16 / 3) ** 0.5 / 3**0.5  # t(2) * sd / sqrt(n); sd of (2, 2, -2)²: 16/3
    assert s["ci95"] == pytest.approx([2 / 3 - half, 2 / 3 + half], abs=1e-3)
    assert s["decision_ms"]["a"] == {"p50": 2.0, "p99": 9.0, "max": 9.0}
    assert percentile([], 50) == 0.0


def test_unknown_program_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["arena", "--a", "clever", "--games", "1"])
    assert exit_.value.code == 2
    assert "unknown AI 'clever'" in capsys.readouterr().err


def test_series_mode_plays_five_games_a_side(capsys):
    s = run_json(capsys, "--a", "hint", "--b", "random", "--games", "1", "--series", "--seed", "4")
    assert (s["deals"], s["games"]) == (1, 10)
    assert s["mean"] > 0
