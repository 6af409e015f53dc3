"""The browser table's benchmark on one table: the shape of its figures, never time."""

from __future__ import annotations

import pytest

from bench.web import _quantile, choose, report, run


def test_quantiles_by_nearest_rank() -> None:
    values = [0.001 * i for i in range(1, 101)]
    assert _quantile(values, 0.5) == pytest.approx(0.050)
    assert _quantile(values, 0.99) == pytest.approx(0.099)
    assert _quantile([], 0.99) == 0.0


def test_the_bench_player_answers_every_kind_of_question() -> None:
    base = {"token": "7.1.t.0", "plays": [], "returnable": [], "returnCount": 0}
    turn = {**base, "kind": "turn", "answers": ["pass"], "plays": ["77"]}
    assert choose(turn)["cards"] == "77"
    assert choose({**turn, "plays": []})["verb"] == "pass"
    returning = {**base, "kind": "return", "answers": [], "returnable": [2, 0, 1], "returnCount": 2}
    assert choose(returning)["cards"] == "33"
    assert choose({**base, "kind": "burn", "answers": ["noburn"]})["verb"] == "noburn"
    assert choose({**base, "kind": "declare", "answers": ["nodeclare", "declare"]})["verb"] == (
        "nodeclare"
    )


async def test_one_table_plays_a_whole_game_and_every_socket_hears_each_action() -> None:
    fig = await run(tables=1, think=(0.0, 0.0), seed=3)
    assert fig["sockets"] == 6 and fig["actions"] > 20 and fig["refused"] == 0
    assert fig["max_ms"] < 10_000, "no socket missed an action's state"
    assert fig["frame_bytes"] > 0 and fig["bytes_per_action"] >= 6 * fig["frame_bytes"] / 3
    assert {"/", "/static/app.js", "/static/gouji-ui.woff2"} <= set(fig["first_load"])
    assert fig["first_load_bytes"] <= 250 * 1024, "the first load stays in its budget"
    assert "p99" in report(fig)


async def test_one_table_signs_in_through_the_activity_and_plays_a_whole_game() -> None:
    fig = await run(tables=1, think=(0.0, 0.0), seed=3, activity=True)
    assert fig["sockets"] == 6 and fig["actions"] > 20 and fig["refused"] == 0
    assert fig["max_ms"] < 10_000, "no socket missed an action's state"
    assert 0 < fig["sign_in_p50_ms"] <= fig["sign_in_p99_ms"] <= fig["sign_in_max_ms"]
    assert {"/.proxy/activity", "/.proxy/static/discord-sdk.js"} <= set(fig["first_load"])
    assert fig["first_load_bytes"] <= 250 * 1024, "the Activity's first load stays in budget"
    assert "Activity sign-in" in report(fig)
