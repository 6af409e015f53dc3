"""/gouji answer's choices come from the engine's questions (engine.state.QUESTIONS): each
question's yes and no, then no burn, named as their buttons name them, and named as before;
a value not in the list is refused with the list."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord_bot.cog import ANSWER_CHOICES, ANSWER_VERBS, GoujiCog
from bot.discord_bot.translator import GoujiTranslator
from bot.text.cards import action_text
from bot.text.catalog import text
from data import Store
from engine.actions import Verb
from engine.state import QUESTIONS

from .test_failures import _gouji, _interaction

#: what Discord was given before the choices were derived (English name, Chinese name)
BEFORE = {
    "declare": ("declare (宣点)", "宣点"),
    "nodeclare": ("do not declare (不宣)", "不宣"),
    "revolt": ("revolt (革命)", "革命"),
    "norevolt": ("do not revolt (不革命)", "不革命"),
    "keephead": ("keep the head (要头)", "要头"),
    "nokeephead": ("headless (无头)", "无头"),
    "noburn": ("no burn (不烧)", "不烧"),
}


async def _payloads() -> list[dict[str, Any]]:
    translator = GoujiTranslator()
    return [await choice.get_translated_payload(translator) for choice in ANSWER_CHOICES]


def test_every_question_offers_its_yes_and_no_in_its_order_then_no_burn() -> None:
    asked = [verb for question in QUESTIONS.values() for verb in (question.yes, question.no)]
    assert list(ANSWER_VERBS) == [*asked, Verb.NOBURN]
    assert [choice.value for choice in ANSWER_CHOICES] == list(ANSWER_VERBS)
    assert len(set(ANSWER_VERBS)) == len(ANSWER_VERBS)


async def test_the_answers_are_named_as_before() -> None:
    payloads = [p for p in await _payloads() if p["value"] in BEFORE]
    assert [p["value"] for p in payloads] == list(BEFORE)  # in their order
    for payload in payloads:
        english, chinese = BEFORE[payload["value"]]
        assert payload["name"] == english
        assert payload["name_localizations"] == {"zh-CN": chinese, "zh-TW": chinese}


async def test_chinese_clients_see_each_answer_as_its_button_names_it() -> None:
    for payload in await _payloads():
        button = text("zh", f"btn_{payload['value']}")
        assert set(payload["name_localizations"].values()) == {button}
        assert payload["name"].endswith(f" ({button})")


#: the refusal of an answer not in the list, before the answers were listed from the choices
BAD_ANSWER = {
    "zh": "没有这个回答：用 /gouji answer 从列表里选（宣点、不宣、革命、不革命、要头、无头、不烧）。",
    "en": "There is no such answer: pick one from the list of /gouji answer (declare, do not "
    "declare, revolt, do not revolt, keep the head, headless, no burn).",
}


@pytest.mark.parametrize("lang", sorted(BAD_ANSWER))
async def test_a_forged_answer_is_refused_with_the_list_of_answers(store: Store, lang: str) -> None:
    gouji = _gouji(store)
    interaction = _interaction(gouji)
    interaction.locale = {"zh": "zh-CN", "en": "en-US"}[lang]
    cog = GoujiCog(gouji)
    callback: Any = GoujiCog.answer.callback  # the cog's method: it takes the cog first
    await callback(cog, interaction, "surrender")
    (refusal,) = interaction.response.sent
    assert refusal == BAD_ANSWER[lang]
    for verb in ANSWER_VERBS:  # a new question's answers are listed too
        assert action_text(lang, verb, how="verb") in refusal


async def test_the_description_names_every_question_as_before() -> None:
    command = GoujiCog.answer
    described = command._locale_description
    assert described is not None
    chinese = await GoujiTranslator().translate(described, discord.Locale.chinese, None)  # type: ignore[arg-type]
    assert command.description == "Answer the question you are asked: 宣点, 革命, 要头, 不烧"
    assert chinese == "回答现在问你的：宣点、革命、要头、不烧"
    for asked in QUESTIONS.values():
        assert text("zh", f"verb.{asked.yes.value}") in command.description
