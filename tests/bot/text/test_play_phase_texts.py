"""``gouji play``'s header and prompt name a question's phase by its catalog keys
(``play.phase_PHASE``, ``play.p_PHASE``, for every phase of engine.state.QUESTIONS), and say
what they said before in every phase, in both languages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.text import langs
from bot.text.play import prompt_text, table_text
from engine.game import Game
from engine.observation import Observation
from engine.options import Phase
from engine.state import QUESTIONS

NAMES = ["you", "b", "c", "d", "e", "f"]
#: what the header named each phase before (the melee's name for play and after it)
HEADERS = {
    "zh": {"declare": "宣点", "revolt": "革命", "head": "要头/无头", "play": "出牌"},
    "en": {
        "declare": "declaring (宣点)",
        "revolt": "revolution (革命)",
        "head": "keep the head? (要头/无头)",
        "play": "play",
    },
}
MELEE = {"zh": "四户乱缠", "en": "four-way melee (四户乱缠)"}
#: what the prompt asked before in each question's phase (after it: the lead, in this deal)
PROMPTS = {
    "zh": {
        "declare": "宣点吗？（宣点 = 赌你的对家这局开不了点）宣 / 不 > ",
        "revolt": "革命吗？（你没有 2 也没有王：革命就不打这局，算四科）革命 / 不 > ",
        "head": "对家革命了（够死级）：要头吗？（要头：你前三手够级牌别人只能烧）要头 / 无头 > ",
        "play": "你发牌 > ",
    },
    "en": {
        "declare": "Declare (宣点: bet that your opposite will not open)? declare / no > ",
        "revolt": "Revolt (革命: sit this game out as 4th)? revolt / no > ",
        "head": "Your opposite revolted (够死级): keep the head (要头: your first three gouji "
        "hands can only be burned)? keephead / no > ",
        "play": "Your lead > ",
    },
}
HEADER = {"zh": "── 第 1/4 局 · {} ──", "en": "── Game 1/4 · {} ──"}
#: each phase as the header and prompt named it: the questions' own, the others as play
SAID_AS = {
    Phase.DECLARE: "declare",
    Phase.REVOLT: "revolt",
    Phase.HEAD: "head",
    Phase.PLAY: "play",
    Phase.FINISHED: "play",
    Phase.VOID: "play",
}


@pytest.fixture(scope="module")
def seen() -> Observation:
    return Game.from_deal(3).observe(0)


@pytest.mark.parametrize("lang", sorted(HEADERS))
@pytest.mark.parametrize("phase", list(SAID_AS))
@pytest.mark.parametrize("melee", [False, True])
def test_the_header_and_prompt_say_what_they_said(
    seen: Observation, lang: str, phase: Phase, melee: bool
) -> None:
    obs = replace(seen, phase=phase, melee=melee)
    said_as = SAID_AS[phase]
    named = MELEE[lang] if melee and said_as == "play" else HEADERS[lang][said_as]
    assert table_text(obs, NAMES, lang, 1, 4).splitlines()[0] == HEADER[lang].format(named)
    assert prompt_text(obs, NAMES, lang) == PROMPTS[lang][said_as]


@pytest.mark.parametrize("lang", langs.LANGS)
def test_every_question_phase_has_its_header_and_prompt(lang: str) -> None:
    for phase in QUESTIONS:
        for key in (f"play.phase_{phase}", f"play.p_{phase}"):
            assert key in langs.keys(lang), (lang, key)


@pytest.mark.parametrize("lang", langs.LANGS)
def test_a_question_phase_is_named_by_its_own_texts(seen: Observation, lang: str) -> None:
    for phase in QUESTIONS:
        obs = replace(seen, phase=phase)
        header = langs.text(
            lang, "play.header", n=1, total=4, phase=langs.text(lang, f"play.phase_{phase}")
        )
        assert table_text(obs, NAMES, lang, 1, 4).splitlines()[0] == header
        assert prompt_text(obs, NAMES, lang) == langs.text(lang, f"play.p_{phase}")
