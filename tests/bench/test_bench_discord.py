"""The Discord benchmark on two tables and a few actions: the shape of its figures, never
time."""

from __future__ import annotations

import json

import pytest

from bench.discord import format_report, main, percentile, run_benchmark, summarize


def test_percentiles_by_nearest_rank() -> None:
    values = [0.001 * i for i in range(1, 101)]
    assert percentile(values, 0.5) == pytest.approx(0.050)
    assert percentile(values, 0.99) == pytest.approx(0.099)
    assert percentile([], 0.99) == 0.0
    figures = summarize([0.2, 0.01])
    assert figures["count"] == 2 and figures["max_ms"] == 200.0
    assert figures["meets_target"] is False
    assert summarize([])["meets_target"] is False


async def test_two_tables_report_both_kinds_of_latency() -> None:
    fig = await run_benchmark(tables=2, actions=2, think=0.0, ai_delay=0.0, seed=3)
    assert fig["tables"] == 2 and fig["actions"] == 2 * 2 * 4
    assert fig["unanswered"] == 0 and fig["stuck"] == 0
    for key in ("interactions", "autocomplete", "full_answers"):
        part = fig[key]
        assert part["count"] > 0
        assert 0 <= part["p50_ms"] <= part["p99_ms"] <= part["max_ms"]
        assert isinstance(part["meets_target"], bool)
    assert fig["full_answers"]["count"] == fig["interactions"]["count"]
    report = format_report(fig)
    assert "autocomplete" in report and "p99" in report and "2 tables" in report


def test_main_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--tables", "1", "--actions", "1", "--think", "0", "--ai-delay", "0"]
    assert main([*argv, "--draw-processes", "0", "--json"]) == 0
    fig = json.loads(capsys.readouterr().out)
    assert fig["tables"] == 1 and set(fig) >= {"interactions", "autocomplete", "unanswered"}
    assert fig["draw_processes"] == 0


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["--tables", "0"])
