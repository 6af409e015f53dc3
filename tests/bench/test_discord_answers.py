"""bench/discord.py's people answer every question of engine.state.QUESTIONS with its no,
and the burn window with no burn, as before."""

from __future__ import annotations

from bench.discord import QUESTION_VERBS
from engine.state import QUESTIONS

#: the answers before they were derived (要头 was never asked: its tables leave 够死级 off)
BEFORE = {"declare": "nodeclare", "revolt": "norevolt", "burn": "noburn"}


def test_every_question_is_answered_with_its_no() -> None:
    for phase, asked in QUESTIONS.items():
        assert QUESTION_VERBS[phase.value] == asked.no.value


def test_the_answers_are_as_before() -> None:
    assert BEFORE.items() <= QUESTION_VERBS.items()
    assert list(QUESTION_VERBS)[-1] == "burn"  # a question's no is pressed before no burn
