"""``gouji play`` takes each question's answers (engine.state.QUESTIONS) as typed words: the
verb, yes/no, and the answer's button text where it is one word — the words it took before,
no fewer and no more."""

from __future__ import annotations

import pytest

from bot.cli.play import parse_input
from bot.text.langs import LANGS, text
from engine.options import Phase
from engine.state import QUESTIONS

#: the words typed for each answer before they were derived, by the question's phase
BEFORE: dict[Phase, dict[str, tuple[str, ...]]] = {
    Phase.DECLARE: {
        "declare": ("declare", "宣", "宣点", "yes", "是", "要"),
        "nodeclare": ("nodeclare", "不宣", "no", "n", "不", "否"),
    },
    Phase.REVOLT: {
        "revolt": ("revolt", "革命", "yes", "是", "要"),
        "norevolt": ("norevolt", "不革命", "no", "n", "不", "否"),
    },
    Phase.HEAD: {
        "keephead": ("keephead", "要头", "yes", "是", "要"),
        "nokeephead": ("nokeephead", "无头", "no", "n", "不", "否"),
    },
}
#: button texts of more than one word, never taken as typed answers
NOT_TYPED = ("do not declare", "Do not revolt", "keep the head (要头)", "headless (无头)")


def _answer(typed: str, phase: Phase) -> str | None:
    answered = [parse_input(typed, phase, False, lang) for lang in LANGS]
    kinds = {(c.kind, c.text if c.kind == "action" else "") for c in answered}
    assert len(kinds) == 1, (typed, phase, answered)  # the same in every language
    return answered[0].text if answered[0].kind == "action" else None


@pytest.mark.parametrize("phase", list(BEFORE))
def test_the_words_typed_before_answer_as_before(phase: Phase) -> None:
    for verb, words in BEFORE[phase].items():
        for typed in words:
            assert _answer(typed, phase) == verb, typed
            assert _answer(typed.upper(), phase) == verb, typed


@pytest.mark.parametrize("phase", list(BEFORE))
def test_button_texts_of_several_words_are_not_typed_answers(phase: Phase) -> None:
    asked = QUESTIONS[phase]
    for typed in NOT_TYPED:
        assert _answer(typed, phase) not in (asked.yes, asked.no), typed


def test_every_question_takes_its_verbs_yes_no_and_one_word_buttons() -> None:
    for phase, asked in QUESTIONS.items():
        for verb, reply in ((asked.yes, "yes"), (asked.no, "no")):
            buttons = [text(lang, f"btn_{verb.value}") for lang in LANGS]
            for typed in (verb.value, reply, *(b for b in buttons if " " not in b)):
                assert _answer(typed, phase) == verb, (phase, typed)
