"""Titles by score (RULES.md §8.6): a player's title is the last row whose score they reached."""

from __future__ import annotations

from bisect import bisect_right

_THRESHOLDS = (
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
)
BELOW_ALL = "菜有特色"
ALL_TITLES = (BELOW_ALL, *(t for _, t in _THRESHOLDS))


def title_for(score: int) -> str:
    """The title for a score: ``title_for(0) == '新人报到'``, ``title_for(-401) == '菜有特色'``."""
    i = bisect_right([s for s, _ in _THRESHOLDS], score)
    return BELOW_ALL if i == 0 else _THRESHOLDS[i - 1][1]
