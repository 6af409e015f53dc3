"""bench/ai.py's positions: dealt games played through their questions before play
(engine.state.QUESTIONS) into the play phase, some steps in."""

from __future__ import annotations

from bench.ai import positions
from engine.options import Phase
from engine.state import QUESTIONS

ANSWERS = {verb for asked in QUESTIONS.values() for verb in (asked.yes, asked.no)}


def test_positions_are_past_the_questions_and_some_steps_into_play() -> None:
    games = positions(6, 5)
    assert games
    for game in games:
        assert game.phase == Phase.PLAY
        verbs = [action.verb for action in game.actions]
        declared = QUESTIONS[Phase.DECLARE]
        assert sum(v in (declared.yes, declared.no) for v in verbs) == 6  # every seat answered
        last_answer = max(i for i, v in enumerate(verbs) if v in ANSWERS)
        assert 0 < len(verbs) - 1 - last_answer <= 5
