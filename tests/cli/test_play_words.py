"""``gouji play`` speaks as the rest of the bot: plays in words (四张 8 + 两张 2, "four 8s
+ two 2s"), hands grouped with 10 and 小王/大王, no English in Chinese, and at the end of a
game (or series) it offers another (y/n)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot.cli.play import Session
from bot.text.play import prompt_text
from engine.actions import Action, Verb
from engine.hands import classify
from engine.options import Options

#: a play written in notation after a verb: "出 3333", "plays TTTT", "burns … with 22B"
NOTATION = re.compile(r"(?:出|plays|with|烧) [3-9TJQKA2BR]*[TBR2-9JQKA][3-9TJQKA2BR]+\b")


def session(lang: str, again: list[str], games: int = 1, seed: int = 3):
    """A session whose player takes every hint (``?`` then Enter) and answers the
    "play again?" questions with ``again`` (then end of input)."""
    out: list[str] = []
    answers = iter(again)
    hint_next = [True]

    def read(prompt: str) -> str | None:
        out.append(prompt)
        if "(y/n)" in prompt:
            return next(answers, None)
        hint_next[0] = not hint_next[0]
        return "" if hint_next[0] else "?"

    played = Session(lang=lang, seed=seed, options=Options(), ai="hint", games=games,
                     auto=False, read=read, write=out.append)  # fmt: skip
    return played, out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_terminal_game_says_plays_and_hands_in_words(lang: str) -> None:
    played, out = session(lang, ["n"])
    assert played.run() == 0
    shown = "\n".join(out)
    assert not NOTATION.search(shown), NOTATION.search(shown)
    assert "T×" not in shown and "×" in shown and "10" in shown
    if lang == "zh":
        assert "出 四张 3" in shown  # the first lead of seed 3
        assert set(re.findall(r"[A-Za-z-]{2,}", shown)) <= {"help", "--seed"}
    else:
        assert "plays four 3s" in shown and "big joker" in shown


def test_the_tribute_is_said_in_chinese_in_a_chinese_series() -> None:
    played, out = session("zh", ["n"], games=2, seed=5)
    assert played.run() == 0
    paid = [line for line in out if line.startswith("进贡：")]
    assert paid and all(("点贡" in line or "落贡" in line) for line in paid)
    assert not any(re.search(r"[a-z]{3,}", line) for line in paid)  # no "point", "place"


def test_a_burn_prompt_names_the_plays_in_words_and_how_to_type_them() -> None:
    obs: Any = SimpleNamespace(  # a stand-in Observation: only what a burn prompt reads
        phase="play",
        standing=classify("KK"),
        standing_seat=1,
        legal_actions=[Action(0, Verb.BURN, classify("22")), Action(0, Verb.NOBURN)],
    )
    names = ["你", "青岛", "烟台", "潍坊", "淄博", "威海"]
    assert prompt_text(obs, names, "zh") == (
        "烧不烧 青岛 (1) 的 一对 K？可以烧的牌：一对 2（输入 22）。烧 牌 / 不烧 > "
    )
    assert "Burn 青岛 (1)'s a pair of Ks? Burning plays: a pair of 2s (type 22)." in (
        prompt_text(obs, names, "en")
    )


def test_at_the_end_the_game_offers_another_with_the_next_seed() -> None:
    """y plays again with the next seed; an answer that is neither is asked again; n stops."""
    played, out = session("en", ["maybe", "y", "n"])
    assert played.run() == 0
    asked = [line for line in out if "(y/n)" in line]
    assert asked == ["Play again? (y/n) > "] * 3
    assert "Please answer y (play again) or n (stop)." in out
    seeds = [line for line in out if line.startswith("Seed ")]
    assert [s.split()[1] for s in seeds] == ["3", "4"]
    assert sum(line.startswith("Game 1\n") for line in out) == 2  # two games were played


def test_a_series_offers_another_series_and_end_of_input_stops() -> None:
    played, out = session("zh", [], games=2, seed=5)
    assert played.run() == 0
    assert out[-1] == "再来一场吗？(y/n) > "
