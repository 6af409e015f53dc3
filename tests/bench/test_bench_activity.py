"""The Activity's sign-in benchmark on one table: the shape of its figures, never time."""

from __future__ import annotations

from bench.activity import percentile, run


def test_percentiles_by_nearest_rank() -> None:
    values = [0.001 * i for i in range(1, 101)]
    assert percentile(values, 0.5) == 0.05
    assert percentile(values, 0.99) == 0.099


async def test_one_tables_six_people_all_sign_in_with_three_discord_calls_each() -> None:
    fig = await run(tables=1, seed=3)
    assert fig["people"] == 6 and fig["signed_in"] == 6
    assert fig["discord_calls_per_sign_in"] == 3.0
    assert 0 < fig["p50_ms"] <= fig["p99_ms"] <= fig["max_ms"]
