"""bench/ai_infer.py: the measure of the hard AI's guesses and of its choices in the true
hands, on a deal or two."""

from __future__ import annotations

from bench.ai_infer import expert_positions, judge_choices, measure
from engine.game import Phase


def test_the_positions_are_the_observers_searched_decisions() -> None:
    seen = list(expert_positions([2000]))
    assert len(seen) > 10
    for deal, game, obs in seen:
        assert deal == 2000 and obs.seat == 2000 % 6 and obs.phase == Phase.PLAY
        assert len(obs.legal_actions) > 1 and game.counts[obs.seat] == list(obs.counts)


def test_the_shares_are_shares_and_the_walk_beats_a_random_split() -> None:
    s = measure(2, 2000, 3)
    assert s.positions > 20
    for total in (s.random, s.cold, s.played, s.wild, s.alike):
        assert 0 < total / s.positions < 1
    assert s.model == 0  # no model: nothing measured
    assert s.played > s.random and s.cold > s.random


def test_a_choice_judged_in_the_true_hands_is_never_better_than_the_best() -> None:
    c = judge_choices(1, 2000)
    assert len(c.gains) == len(c.regrets) > 5
    assert all(r <= 0 for r in c.regrets)
    assert 0 < c.deviated < len(c.gains)
    kept = [g for g, r in zip(c.gains, c.regrets, strict=True) if g == 0]
    assert len(kept) >= len(c.gains) - c.deviated  # the expert's choice kept: no gain
