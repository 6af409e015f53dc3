"""Whole five-game series of random players (``play_random_series``): the series rules hold
game by game, the record replays to the same totals, in-process and through ``gouji replay``.
"""

from __future__ import annotations

import copy
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import NUM_RANKS, counts_of
from engine.record import replay
from engine.scoring import PLACE, place_points, team_of
from engine.series import TRIBUTE_RANKS, Series
from tests.game.randomplay import play_random_series

SEEDS = [(seed, False) for seed in range(12)] + [
    (seed, True) for seed in range(6)
]  # (seed, bie_san)
SEED_IDS = [f"seed{seed}{'-bie_san' if bie else ''}" for seed, bie in SEEDS]
ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _played(seed: int, bie_san: bool) -> tuple[Series, dict]:
    """``play_random_series``, played once per process and seed, when a test first asks."""
    return play_random_series(seed, bie_san)


class Played:
    """(series, record) by ``[seed, bie_san]``: each series played only if a test of this
    process needs it; each lookup gets its own copy of the record to change."""

    def __getitem__(self, key: tuple[int, bool]) -> tuple[Series, dict]:
        series, record = _played(*key)
        return series, copy.deepcopy(record)


@pytest.fixture
def played() -> Played:
    return Played()


@pytest.mark.parametrize("seed", SEEDS, ids=SEED_IDS)
def test_random_series_has_five_counted_games_and_replays_to_the_same_totals(played, seed):
    series, record = played[seed]
    assert series.finished and len([d for d in series.deals if d.finished]) == 5
    out = replay(json.loads(json.dumps(record)))
    assert out["ok"] is True
    assert out["totals"] == series.totals()
    assert out["team_totals"] == series.team_totals()
    assert out["penalties"] == series.penalties() == [0] * 6
    assert [g["places"] for g in out["games"]] == [list(d.game.places) for d in series.deals]


@pytest.mark.parametrize("seed", SEEDS, ids=SEED_IDS)
def test_random_series_every_game_scores_places_plus_tribute_and_sums_to_zero(played, seed):
    series, _ = played[seed]
    for deal in series.deals:
        if deal.void:
            assert deal.score() == [0] * 6
            continue
        places = place_points(deal.game.places, deal.game.sweep)
        assert deal.score() == [t + p for t, p in zip(deal.tribute_points(), places, strict=True)]
        assert sum(deal.score()) == 0
    team0, team1 = series.team_totals()
    assert team0 == -team1 == sum(series.totals()[s] for s in (0, 2, 4))


@pytest.mark.parametrize("seed", SEEDS, ids=SEED_IDS)
def test_random_series_tribute_is_paid_as_owed_highest_first_and_returned_legally(played, seed):
    """Pay the tribute again by hand from each deal's hands as dealt, entry by entry, and
    check the engine's payments and returns against the letter of §8 and §8.4."""
    series, _ = played[seed]
    owed: list = []
    for deal in series.deals:
        hands = [counts_of(h) for h in deal.dealt]
        paid = iter(deal.paid)
        dues = []
        for entry in owed:
            held = [hands[entry.payer][r] for r in TRIBUTE_RANKS]
            want: list[int] = []
            for rank, n in zip(TRIBUTE_RANKS, held, strict=True):
                want += [rank] * min(n, entry.count - len(want))
            if not want:
                continue  # none if none: no entry
            p = next(paid)
            assert (p.kind, p.payer, p.receiver) == (entry.kind, entry.payer, entry.receiver)
            assert sorted(c.rank for c in p.cards) == sorted(want)
            for r in want:
                hands[entry.payer][r] -= 1
                hands[entry.receiver][r] += 1
            if entry.kind == PLACE:
                dues.append((entry.receiver, entry.payer, len(want)))
        assert next(paid, None) is None
        assert [(r.giver, r.taker, r.count) for r in deal.returns] == dues
        for r in deal.returns:  # 头科 first, as many as received or as there are legal
            back = counts_of(r.cards)
            opponent = team_of(r.giver) != team_of(r.taker)
            legal = [
                hands[r.giver][k] if (not opponent or hands[r.taker][k]) else 0
                for k in range(NUM_RANKS)
            ]
            assert len(r.cards) == min(r.count, sum(legal))
            assert all(back[k] <= legal[k] for k in range(NUM_RANKS))
            for k in range(NUM_RANKS):
                hands[r.giver][k] -= back[k]
                hands[r.taker][k] += back[k]
        if deal.game is not None and not deal.void:
            assert [counts_of(h) for h in deal.game.dealt] == hands
        if deal.finished:
            owed = deal.game.tribute()
            if deal.game.sweep:  # 串三户: nothing owed, of any kind
                assert owed == []


def _gouji(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_gouji_replay_json_of_a_random_series(played, tmp_path):
    series, record = played[2, False]  # a series with a void deal
    path = tmp_path / "series.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    done = _gouji("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert out["ok"] is True and out["totals"] == series.totals()
    assert len(out["games"]) == len(series.deals)
    assert any(g["paid"] for g in out["games"]) and any(g["returned"] for g in out["games"])


def test_gouji_replay_json_stops_at_an_illegal_return_with_exit_status_two(played, tmp_path):
    _, record = played[0, False]
    g = next(i for i, game in enumerate(record["games"]) if len(game["returns"]) == 2)
    first = record["games"][g]["returns"][0]
    seat = first.split()[0]
    record["games"][g]["returns"][1] = f"{record['games'][g]['returns'][1].split()[0]} return RRRRR"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = _gouji("replay", str(path), "--json")
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert out["ok"] is False
    assert out["error"]["game"] == g and out["error"]["index"] == 1
    assert out["error"]["action"].endswith("return RRRRR") and out["error"]["reason"]
    assert seat != out["error"]["action"].split()[0]  # 头科 returned first, then 二科


def test_gouji_replay_json_counts_returns_before_actions_in_the_error_index(played, tmp_path):
    _, record = played[0, False]
    g = next(i for i, game in enumerate(record["games"]) if len(game["returns"]) == 2)
    record["games"][g]["actions"][0] = "0 play RRRRRRRR"
    done = _gouji("replay", "-", "--json", stdin=json.dumps(record))
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert out["error"]["game"] == g and out["error"]["index"] == 2


def test_gouji_replay_text_of_a_series_tells_places_tribute_returns_and_totals(played, tmp_path):
    from bot.cli.demo import DEMO_NAMES
    from bot.text.langs import text as say

    series, record = played[0, False]
    path = tmp_path / "series.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = _gouji("replay", str(path), "--lang", "en")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for n in range(1, 6):
        assert f"Game {n}" in text
    assert text.count("places: 1st (头科)") == 5
    paid = [p for d in series.deals for p in d.paid]
    kinds = [say("en", f"term.kind.{k}") + ": " for k in ("stifle", "burn", "point", "place")]
    assert sum(text.count(kind) for kind in kinds) == len(paid) > 0
    who = [f"{DEMO_NAMES[s]} ({s})" for s in range(6)]
    first = paid[0]
    assert f"{who[first.payer]} → {who[first.receiver]}" in text
    returned = [line for line in text.splitlines() if line.startswith("  returned (还贡): ")]
    given = sum(1 for d in series.deals for r in d.returns if r.cards)
    assert sum(len(line.split(", ")) for line in returned) == given
    totals = " ".join(f"{v:+d}" for v in series.totals())
    assert f"Series totals (seat points): {totals}" in text


def test_example_series_record_replays_to_five_games():
    """examples/series.json (a play_random_series record, for the README) stays replayable."""
    record = json.loads((ROOT / "examples" / "series.json").read_text(encoding="utf-8"))
    out = replay(record)
    assert out["ok"] is True and sum(g["finished"] for g in out["games"]) == 5
    assert sum(out["totals"]) == 0
    assert any(" " in h for h in record["games"][0]["hands"])  # dealt hands, with suits
