"""The rating texts in both languages: the series' announcement, AI levels, /gouji top."""

from __future__ import annotations

import pytest

from bot.service.standing import change_line
from bot.text.catalog import text
from bot.text.langs import commands
from bot.text.ratings import ai_level_name

ZH = commands("zh")


def test_the_series_announcement_in_both_languages() -> None:
    line = change_line(1.84, 19.4)
    assert line == "+1.8 → 19.4" and change_line(-0.35, -2.0) == "−0.3 → −2.0"
    assert text("zh", "ev_ratings", ratings=line).startswith("技术分（")
    assert text("en", "ev_ratings", ratings=line).startswith("Ratings (技术分")
    assert line in text("en", "ev_ratings", ratings=line)


@pytest.mark.parametrize(
    "kind, zh, en",
    [("hint", "AI 简单", "AI easy (简单)"), ("expert", "AI 普通", "AI normal (普通)"),
     ("strong", "AI 困难", "AI hard (困难)")],
)  # fmt: skip
def test_each_ai_level_is_named_on_a_board(kind, zh, en) -> None:
    assert (ai_level_name(kind, "zh"), ai_level_name(kind, "en")) == (zh, en)


def test_the_top_command_choice_is_translated() -> None:
    assert (ZH["by"], ZH["points"], ZH["rating"]) == ("排序", "积分", "技术分")
    assert ZH["Rank by points (积分) or by skill rating (技术分)"]
    assert "技术分" in ZH["Score, title, rating, games and places"]
