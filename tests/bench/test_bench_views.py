"""bench.views runs and prints its figures (never asserts on time)."""

from __future__ import annotations

import sys

from bench import views


async def test_bench_views_prints_each_read(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "argv", ["bench.views", "--states", "5"])
    await views.main()
    out = capsys.readouterr().out
    for name in ("public view", "private view (one seat)", "JSON of one view"):
        assert f"{name}: p50 " in out and "CPU over 5 states" in out
