"""bench.ratings (SQLite and PostgreSQL) and bench.rating_models run and print their figures."""

from __future__ import annotations

import sys

import pytest

from bench import rating_models, ratings


@pytest.fixture(params=["sqlite", "postgresql"])
def database_args(request: pytest.FixtureRequest) -> list[str]:
    if request.param == "sqlite":
        return []
    return ["--database-url", request.getfixturevalue("pg_server").url()]


async def test_bench_ratings_prints_the_rebuild_and_the_cost_of_a_game(
    monkeypatch, capsys, database_args
) -> None:
    args = ["--games", "60", "--players", "12", "--record", "3", *database_args]
    monkeypatch.setattr(sys, "argv", ["bench.ratings", *args])
    await ratings.main()
    out = capsys.readouterr().out
    assert "filled 60 finished games of one server" in out
    assert "rebuild_ratings: 60 games" in out and "rebuild_ratings again (same numbers)" in out
    assert "record_game_result (durable commit), 3 games after 60" in out
    assert "its rating step: p50" in out


def test_bench_rating_models_compares_the_two_models(tmp_path, capsys) -> None:
    saved = tmp_path / "games.json"
    rating_models.main(["--games", "40", "--warmup", "5", "--bootstrap", "5", "--save", str(saved)])
    first = capsys.readouterr().out
    assert " teams: winner" in first and "places: winner" in first
    assert "teams − places, calibrated log loss" in first and "teams − places, AUC" in first
    rating_models.main(["--load", str(saved), "--warmup", "5", "--bootstrap", "5"])
    again = capsys.readouterr().out
    assert again.splitlines()[1:] == first.splitlines()[1:]  # the same games, the same figures
