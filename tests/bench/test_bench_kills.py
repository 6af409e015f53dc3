"""bench.kills (SIGKILL the bot through whole series) and bench.outages (database outages
of growing length): what they count, and a short run of each."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench import kills, outages


def _press(seat: int, token: str, done: bool) -> kills.Press:
    content = "✅ You passed." if done else "That question is already answered"
    rec = SimpleNamespace(
        responses=[SimpleNamespace(kind="edit_original", payload={"content": content})]
    )
    return kills.Press(1, seat, token, rec)  # type: ignore[arg-type]


def test_an_acknowledged_press_missing_from_the_log_is_counted_lost() -> None:
    record = {
        "games": [
            {
                "returns": [],
                "actions": ["0 nodeclare", "1 nodeclare", "2 declare", "2 play 3", "3 pass"],
            },
            {"returns": ["4 return 5"], "actions": ["0 nodeclare"]},
        ]
    }
    kept = [
        _press(3, "7.1.turn.4", True),  # the turn at index 4: seat 3's
        _press(1, "7.1.declare.0", True),
        _press(4, "7.2.return.0", True),
        _press(0, "7.1.turn.3", False),  # not acknowledged: never lost
    ]
    assert kills.lost_presses(record, kept) == []
    lost = [
        _press(0, "7.1.turn.3", True),
        _press(5, "7.2.return.0", True),
        _press(3, "7.3.turn.0", True),
    ]
    assert kills.lost_presses(record, lost) == [
        "seat 0 at 7.1.turn.3",
        "seat 5 at 7.2.return.0",
        "seat 3 at 7.3.turn.0",
    ]


def test_bad_arguments_are_refused() -> None:
    for argv in (["--backends", "mysql"], ["--series", "0"], ["--every", "5-1"]):
        with pytest.raises(SystemExit):
            kills.main(argv)
    for argv in (["--lengths", "0"], ["--kinds", "flood"], ["--lengths", "soon"]):
        with pytest.raises(SystemExit):
            outages.main(argv)


async def test_a_short_outage_is_survived_and_reported(tmp_path) -> None:
    (outage,) = [await outages.measure("disk", 1.0, tmp_path)]
    assert outage.survived and outage.acknowledged >= outages.BEFORE
    assert "1 s: survived" in outages.format_report([outage])


@pytest.mark.slow
def test_a_series_survives_its_kills(capsys) -> None:
    assert (
        kills.main(["--backends", "sqlite", "--series", "1", "--every", "8-15", "--no-rate-limits"])
        == 0
    )
    out = capsys.readouterr().out
    assert "acknowledged but lost: 0" in out and "stalls (a question never asked again): 0" in out
