"""Refusals say what to do in a player's words, in both languages: no internal verb
('nodeclare', 'keephead'…), and no seat as a bare number (a name with its seat, or
"seat 3" / "3 号位")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.service.errors import UserError
from bot.text import langs
from bot.text.catalog import text
from bot.text.params import Who
from bot.text.refusals import refusal_text
from engine.actions import REFUSALS, IllegalActionError

INTERNAL = re.compile(r"\b(?:nodeclare|norevolt|keephead|nokeephead|noburn)\b|'declare'|'revolt'")
SAMPLE = {
    "seat": "3",
    "seats": "3, 4",
    "q": "1",
    "opp": "4",
    "to": "2",
    "verb": "nodeclare",
    "cards": "KK",
    "standing": "QQ",
    "hand": "KK 33",
    "size": "2",
    "count": "2",
}
NAMES = ["济南", "bo", "dana", "eve", "fay", "gus"]


class Names:
    """The table's people as a front end names them."""

    def seat(self, seat: int) -> str:
        return NAMES[seat]

    def user(self, user_id: int) -> str:
        return f"#{user_id}"


def _fields(code: str) -> set[str]:
    return set(REFUSALS[code])


def test_every_engine_code_has_a_players_text_in_every_language_with_its_parameters() -> None:
    for lang in langs.LANGS:
        for code, params in REFUSALS.items():
            assert langs.parameters(lang, f"refusal.{code}") == set(params), (lang, code)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_a_refusal_names_no_internal_verb_and_no_bare_seat(code: str, lang: str) -> None:
    params = {k: v for k, v in SAMPLE.items() if k in _fields(code)}
    exc = IllegalActionError(code, **params)
    named = refusal_text(exc, lang, Names())
    plain = refusal_text(exc, lang)
    for said in (named, plain):
        assert not INTERNAL.search(said), said
        assert "{" not in said, said
    seats = [params[k] for k in ("seat", "q", "opp", "to") if k in params and code != "no_seat"]
    for seat in seats:
        name = NAMES[int(seat)]
        assert (f"{name}（{seat} 号位）" if lang == "zh" else f"{name} (seat {seat})") in named
        assert (f"{seat} 号位" if lang == "zh" else f"seat {seat}") in plain


@pytest.mark.parametrize(
    ("code", "lang", "words"),
    [
        ("declare_time", "en", ["declare", "do not declare"]),
        ("declare_time", "zh", ["宣点", "不宣"]),
        ("revolt_time", "en", ["revolt", "do not revolt"]),
        ("revolt_time", "zh", ["革命", "不革命"]),
        ("answer_burn", "en", ["burn it with a play", "do not burn"]),
        ("answer_burn", "zh", ["选一手烧", "不烧"]),
        ("head_time", "en", ["keep the head", "headless"]),
        ("head_time", "zh", ["要头", "无头"]),
    ],
)
def test_a_question_refusal_says_how_to_answer_it(code: str, lang: str, words: list[str]) -> None:
    params = {k: v for k, v in SAMPLE.items() if k in _fields(code)}
    said = refusal_text(IllegalActionError(code, **params), lang, Names())
    assert all(w in said for w in words), said


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    ("code", "buttons", "command"),
    [
        ("declare_time", ["btn_declare", "btn_nodeclare"], "/gouji answer"),
        ("revolt_time", ["btn_revolt", "btn_norevolt"], "/gouji answer"),
        ("answer_burn", ["btn_noburn"], "/gouji burn"),
    ],
)
def test_in_discord_a_question_refusal_names_its_buttons_and_command(
    code: str, buttons: list[str], command: str, lang: str
) -> None:
    how = text(lang, f"how_{code}")
    assert command in how and all(text(lang, b) in how for b in buttons), how


@pytest.mark.parametrize(("lang", "word"), [("zh", "不宣"), ("en", "do not declare")])
def test_a_verb_in_a_refusal_is_the_buttons_word(lang: str, word: str) -> None:
    said = refusal_text(IllegalActionError("verb_not_now", verb="nodeclare"), lang)
    assert word in said and "nodeclare" not in said


def _page_refusals() -> set[str]:
    """The refusal keys a page (the browser table, the Activity) can be answered with: the
    table service's and the web's own (not the tournaments' and seasons', which only the
    Discord commands reach), read from the source."""
    root = Path(__file__).resolve().parents[3] / "bot"
    files = [p for p in (root / "service").glob("*.py") if p.stem not in DISCORD_ONLY]
    keys: set[str] = set()
    for path in [*files, *(root / "web").glob("*.py")]:
        keys |= set(re.findall(r'UserError\(\s*"([a-z_0-9]+)"', path.read_text()))
    return keys


#: Service modules only the Discord commands reach.
DISCORD_ONLY = frozenset({"tournaments", "seasons"})
#: Refusals about the links Discord gives out: they send the person back to Discord.
ABOUT_DISCORD = frozenset({"link_expired"})


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_page_is_refused_without_discord_commands_and_discord_adds_how_to_go_on(
    lang: str,
) -> None:
    """The one wording of a refusal names no /gouji command: how to go on is the front
    end's (a page has its buttons); Discord's reply adds its commands (``how_KEY``)."""
    keys = _page_refusals() - ABOUT_DISCORD
    assert {"not_held", "need_six", "series_over", "stale_prompt", "not_seated"} <= keys
    sample = {"cards": "KK", "missing": 2, "creator": Who(0), "seat": 3, "count": 2}
    for key in sorted(keys):
        params = {p: sample.get(p, "x") for p in langs.parameters(lang, key)}
        said = refusal_text(UserError(key, **params), lang)
        assert "/gouji" not in said, (key, said)
        if langs.has(f"how_{key}"):
            on_discord = refusal_text(UserError(key, **params), lang, how=True)
            assert on_discord.startswith(said) and "/gouji" in on_discord, (key, on_discord)
