"""bench/kills.py's people answer every question of engine.state.QUESTIONS with its no, by
a button, and the other questions as before; a question's press is found in the log by its
yes or its no."""

from __future__ import annotations

from types import SimpleNamespace

from bench.kills import ANSWER, Press, lost_presses
from engine.state import QUESTIONS

#: the presses before they were derived
BEFORE = {
    "turn": ("playhint", False),
    "declare": ("nodeclare", False),
    "revolt": ("norevolt", False),
    "head": ("nokeephead", False),
    "burn": ("noburn", False),
    "return": ("return", True),
}


def test_every_question_is_answered_no_by_a_button() -> None:
    for phase, asked in QUESTIONS.items():
        assert ANSWER[phase.value] == (asked.no.value, False)


def test_the_presses_are_as_before_in_their_order() -> None:
    assert [item for item in ANSWER.items() if item[0] in BEFORE] == list(BEFORE.items())


def _acknowledged(seat: int, token: str) -> Press:
    said = SimpleNamespace(kind="edit_original", payload={"content": "✅ done"})
    return Press(1, seat, token, SimpleNamespace(responses=[said]))  # type: ignore[arg-type]


def test_a_questions_press_is_found_by_its_yes_or_its_no() -> None:
    for phase, asked in QUESTIONS.items():
        token = f"7.1.{phase.value}.0"
        record = {"games": [{"actions": [f"2 {asked.yes.value}", f"3 {asked.no.value}"]}]}
        presses = [_acknowledged(seat, token) for seat in (2, 3, 4)]
        assert lost_presses(record, presses) == [f"seat 4 at {token}"], phase
        other = next(q for p, q in QUESTIONS.items() if p != phase)
        elsewhere = {"games": [{"actions": [f"2 {other.yes.value}", f"3 {other.no.value}"]}]}
        assert len(lost_presses(elsewhere, presses)) == 3, phase
