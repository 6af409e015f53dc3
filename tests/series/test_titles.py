"""Titles (docs/rules.en.md §8.6): the last row of the table whose score has been reached."""

from __future__ import annotations

import pytest

from engine.scoring import title_for

# Every row of the table of §8.6, in order, copied from docs/rules.en.md (not from the engine, so that
# the engine is checked against the rule book).
ROWS = [
    (-400, "菜不是错"),
    (-200, "有点菜"),
    (0, "新人报到"),
    (100, "略有进步"),
    (200, "初试身手"),
    (400, "暂露头角"),
    (600, "半斤八两"),
    (800, "小有所成"),
    (1600, "偶露峥嵘"),
    (3200, "轻车熟路"),
    (6400, "熟能生巧"),
    (12800, "小有名气"),
    (25600, "屡战屡胜"),
    (51200, "牌中豪杰"),
    (102400, "一流高手"),
    (204800, "名动天下"),
    (409600, "世外高人"),
    (819200, "天下第二"),
    (1638400, "牌神"),
]


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (-(10**9), "菜有特色"),
        (-401, "菜有特色"),
        (-400, "菜不是错"),
        (-201, "菜不是错"),
        (-200, "有点菜"),
        (-1, "有点菜"),
        (0, "新人报到"),
        (99, "新人报到"),
        (100, "略有进步"),
        (150, "略有进步"),
        (799, "半斤八两"),
        (800, "小有所成"),
        (1000, "小有所成"),
        (1638399, "天下第二"),
        (1638400, "牌神"),
        (10**9, "牌神"),
    ],
)
def test_title_boundaries(score, title):
    assert title_for(score) == title


@pytest.mark.parametrize(("threshold", "title"), ROWS)
def test_each_title_starts_exactly_at_its_score(threshold, title):
    assert title_for(threshold) == title
    assert title_for(threshold - 1) != title
