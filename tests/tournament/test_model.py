"""The tournament model: seating rules round by round, byes, the knockout's cuts, and the
standings as a fold of the results."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import (
    IN,
    LEFT,
    OUT,
    Config,
    ConfigError,
    Format,
    History,
    Round,
    RoundPlan,
    absent_result,
    check_round,
    seat_round,
    standings,
)
from engine.tournament.seating import bracket_sizes
from engine.tournament.standings import draw_order

from .sim import play_round, run_event


def brackets_kept(config: Config, entrants: list[int], rounds: list[Round]) -> int:
    """The most tables any player sat away from their standing's bracket, over the rounds."""
    worst = 0
    for k, rnd in enumerate(rounds):
        lines = [s for s in standings(config, entrants, rounds[:k]) if s.active]
        playing = [s.player for s in lines if s.player not in rnd.plan.byes]
        home: dict[int, int] = {}
        at = 0
        for t, size in enumerate(bracket_sizes(len(playing), len(rnd.plan.tables))):
            home.update((p, t + 1) for p in playing[at : at + size])
            at += size
        for table in rnd.plan.tables:
            for p in table.players:
                worst = max(worst, abs(table.number - home[p]))
    return worst


def fair_byes(rounds: list[Round], entrants: list[int]) -> bool:
    """Nobody had a second bye while someone seated in every round had none."""
    byes: dict[int, int] = dict.fromkeys(entrants, 0)
    for rnd in rounds:
        for p in rnd.plan.byes:
            if byes[p] >= 1 and min(byes[q] for q in entrants if q not in rnd.plan.byes) == 0:
                return False
        for p in rnd.plan.byes:
            byes[p] += 1
    return True


def test_eighteen_players_four_swiss_rounds_rotate_partners_by_standing() -> None:
    config = Config(name="周赛", format=Format.SWISS, rounds=4, seed=54)
    entrants = list(range(100, 118))
    rounds = run_event(config, entrants, seed=7)
    assert len(rounds) == 4
    for rnd in rounds:
        check_round(rnd.plan, entrants)
        assert len(rnd.plan.tables) == 3 and not rnd.plan.byes
        assert all(None not in t.seats for t in rnd.plan.tables)
    history = History(rounds)
    assert max(history.partners.values()) == 1  # nobody partnered twice
    assert brackets_kept(config, entrants, rounds) <= 1  # similar standing together
    final = standings(config, entrants, rounds)
    assert [s.rank for s in final] == list(range(1, 19))
    assert all(s.rounds == 4 and s.status == IN for s in final)


def test_round_one_is_the_draw_then_the_standings() -> None:
    config = Config(name="x", format=Format.SWISS, rounds=2, seed=3)
    entrants = list(range(1, 13))
    first = seat_round(config, 1, standings(config, entrants, []), [])
    draw = draw_order(3, entrants)
    top = sorted(entrants, key=draw.__getitem__)[:6]
    assert set(first.tables[0].players) == set(top)
    rounds = [play_round(first, random.Random(1))]
    lines = standings(config, entrants, rounds)
    second = seat_round(config, 2, lines, rounds)
    best = lines[0].player
    table = second.table_of(best)
    assert table is not None and table.seats[0] == best  # the leader heads their table
    assert brackets_kept(config, entrants, [*rounds, Round(second)]) <= 1


def test_ai_seats_fill_the_bottom_tables_and_byes_are_fair_without_them() -> None:
    entrants = list(range(1, 21))
    with_ai = Config(name="x", format=Format.SWISS, rounds=1, ai_fill=True)
    plan = seat_round(with_ai, 1, standings(with_ai, entrants, []), [])
    assert [len(t.players) for t in plan.tables] == [5, 5, 5, 5] and not plan.byes
    without = Config(name="x", format=Format.SWISS, rounds=9, ai_fill=False, seed=5)
    rounds = run_event(without, entrants, seed=2)
    assert [len(r.plan.byes) for r in rounds] == [2] * 9
    assert all(None not in t.seats for r in rounds for t in r.plan.tables)
    assert fair_byes(rounds, entrants)
    byes = standings(without, entrants, rounds)
    assert sorted(s.byes for s in byes) == [0, 0] + [1] * 18  # 18 byes, 18 players
    assert all(s.rounds + s.byes == 9 for s in byes)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(6, 40),
    rounds=st.integers(1, 4),
    ai_fill=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_every_swiss_round_seats_everyone_once_fairly(
    players: int, rounds: int, ai_fill: bool, seed: int
) -> None:
    config = Config(name="x", format=Format.SWISS, rounds=rounds, ai_fill=ai_fill, seed=seed)
    entrants = list(range(1, players + 1))
    played = run_event(config, entrants, seed)
    assert len(played) == rounds
    for rnd in played:
        check_round(rnd.plan, entrants)
        sizes = [len(t.players) for t in rnd.plan.tables]
        assert max(sizes) - min(sizes) <= 1
        assert len(rnd.plan.byes) == (0 if ai_fill else players % 6)
    assert fair_byes(played, entrants)
    # partners never repeat where each player has enough others to partner
    if players >= 18:
        assert max(History(played).partners.values()) == 1
    final = standings(config, entrants, played)
    assert sum(s.points for s in final) == sum(
        r.points for rnd in played for res in rnd.results.values() for r in res
    )


def test_a_knockout_of_24_cuts_below_the_line_and_carries_into_the_final() -> None:
    config = Config(
        name="打立出局", format=Format.KNOCKOUT, rounds=3, seed=9, start_points=30, carry=50
    )
    entrants = list(range(1, 25))
    rounds = run_event(config, entrants, seed=11)
    assert [len(r.plan.tables) for r in rounds][0] == 4
    after_one = standings(config, entrants, rounds[:1])
    survivors = [s for s in after_one if s.active]
    assert all(s.points >= 30 for s in survivors) or len(survivors) == 6
    assert all(s.points < 30 for s in after_one if s.status == OUT)
    assert len(rounds[1].plan.tables) == -(-len(survivors) // 6)
    assert {p for t in rounds[1].plan.tables for p in t.players} == {s.player for s in survivors}
    before_final = standings(config, entrants, rounds[:2])
    finalists = [s for s in before_final if s.active]
    assert len(finalists) == 6 and len(rounds[2].plan.tables) == 1
    uncut = standings(config, entrants, rounds[:2], None)
    assert all(s.points == s.points for s in uncut)
    final = standings(config, entrants, rounds)
    assert {s.player for s in final[:6]} == {s.player for s in finalists}
    # who went out later ranks above who went out earlier
    outs = [s.out_round for s in final[6:]]
    assert outs == sorted(outs, reverse=True)
    # the final's points: the carried share plus the final round
    for s in final[:6]:
        carried = next(x.points for x in before_final if x.player == s.player)
        got = sum(r.points for r in rounds[2].results[1] if r.player == s.player)
        assert s.points == carried + got


def test_the_carry_is_a_share_of_the_qualifying_points() -> None:
    config = Config(name="x", format=Format.KNOCKOUT, rounds=2, start_points=41, carry=50)
    entrants = list(range(1, 7))
    plan = seat_round(config, 1, standings(config, entrants, []), [])
    rnd = Round(plan, {1: tuple(absent_result(p) for p in entrants)})
    assert {s.points for s in standings(config, entrants, [rnd])} == {20}


def test_leavers_and_no_shows() -> None:
    config = Config(name="x", format=Format.SWISS, rounds=3, seed=1)
    entrants = list(range(1, 13))
    first = seat_round(config, 1, standings(config, entrants, []), [])
    played = play_round(first, random.Random(4))
    absent = first.tables[0].players[0]
    results = dict(played.results)
    results[1] = tuple(absent_result(r.player) if r.player == absent else r for r in results[1])
    rounds = [Round(first, results)]
    lines = {s.player: s for s in standings(config, entrants, rounds, {5: 1})}
    assert lines[absent].points == 0 and lines[absent].absences == 1
    assert lines[5].status == LEFT and lines[5].rank == 12
    second = seat_round(config, 2, list(lines.values()), rounds)
    seated = {p for t in second.tables for p in t.players}
    assert 5 not in seated and len(seated) == 11
    assert sum(t.seats.count(None) for t in second.tables) == 1


def test_an_unfinished_round_counts_what_finished_and_cuts_nothing() -> None:
    config = Config(name="x", format=Format.KNOCKOUT, rounds=3, start_points=10)
    entrants = list(range(1, 13))
    plan = seat_round(config, 1, standings(config, entrants, []), [])
    full = play_round(plan, random.Random(2))
    half = Round(plan, {1: full.results[1]})
    assert not half.over
    lines = standings(config, entrants, [half])
    assert all(s.status == IN for s in lines)
    assert sum(s.rounds for s in lines) == 6


@pytest.mark.parametrize(
    "bad",
    [
        {"rounds": 0},
        {"games": 3},
        {"name": " "},
        {"format": "knockout", "final_rounds": 3},
        {"format": "knockout", "finalists": 9},
    ],
)
def test_settings_that_make_no_event_are_refused(bad: dict[str, object]) -> None:
    settings_ = {"name": "x", "format": "swiss", "rounds": 3} | bad
    with pytest.raises(ConfigError):
        Config(**settings_)  # type: ignore[arg-type]


def test_plans_and_results_round_trip_through_json() -> None:
    config = Config(name="x", format=Format.KNOCKOUT, rounds=3, table={"bie_san": False})
    assert Config.from_json(config.to_json()) == config
    plan = seat_round(config, 1, standings(config, range(1, 9), []), [])
    assert RoundPlan.from_json(plan.to_json()) == plan
