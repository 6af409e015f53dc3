"""The web table's strings carry the buttons of every question's answers
(engine.state.QUESTIONS): the client names an answer's button ``btn_VERB``."""

from __future__ import annotations

import pytest

from bot.text.langs import LANGS, text
from bot.web.strings import CATALOG_KEYS, client_strings
from engine.state import QUESTIONS

#: the client's buttons before they were derived, in their order (their words: the catalog's)
BEFORE = (
    "btn_declare",
    "btn_nodeclare",
    "btn_revolt",
    "btn_norevolt",
    "btn_keephead",
    "btn_nokeephead",
    "btn_noburn",
    "btn_pass",
    "btn_yield",
    "btn_hint",
)


@pytest.mark.parametrize("lang", LANGS)
def test_every_question_answer_has_its_button_in_the_client_strings(lang: str) -> None:
    strings = client_strings(lang)
    for asked in QUESTIONS.values():
        for verb in (asked.yes, asked.no):
            assert strings[f"btn_{verb.value}"] == text(lang, f"btn_{verb.value}")


@pytest.mark.parametrize("lang", LANGS)
def test_the_buttons_are_as_before_in_their_order(lang: str) -> None:
    buttons = [item for item in client_strings(lang).items() if item[0] in BEFORE]
    assert buttons == [(key, text(lang, key)) for key in BEFORE]
    assert len(set(CATALOG_KEYS)) == len(CATALOG_KEYS)
