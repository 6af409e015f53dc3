"""Titles by score (docs/rules.en.md §8.6), as the engine defines them, and their English names
(the pictures and the texts show a title in the player's language); ``ALL_TITLES`` lists
every title in both languages so the font subset can be checked to hold them.

>>> title_for(0), title_name(title_for(0), "en")
('新人报到', 'New arrival')
"""

from __future__ import annotations

from engine.scoring import LOWEST_TITLE, TITLES, title_for

BELOW_ALL = LOWEST_TITLE
ENGLISH: dict[str, str] = {
    "菜有特色": "Rookie with style",
    "菜不是错": "Green is no crime",
    "有点菜": "A bit green",
    "新人报到": "New arrival",
    "略有进步": "Making progress",
    "初试身手": "First steps",
    "暂露头角": "Showing promise",
    "半斤八两": "Evenly matched",
    "小有所成": "Some success",
    "偶露峥嵘": "Flashes of brilliance",
    "轻车熟路": "Old hand",
    "熟能生巧": "Practice makes perfect",
    "小有名气": "Known name",
    "屡战屡胜": "Winning streak",
    "牌中豪杰": "Card hero",
    "一流高手": "First-rate master",
    "名动天下": "World famous",
    "世外高人": "Hidden master",
    "天下第二": "Second under heaven",
    "牌神": "Card god",
}
ALL_TITLES = (BELOW_ALL, *(t for _, t in TITLES), *ENGLISH.values())


def title_name(title: str, lang: str) -> str:
    """A rule-book title in ``lang`` ('zh' as the rules name it, 'en' its English name); any
    other text (a title given by hand) as it is."""
    return ENGLISH.get(title, title) if lang == "en" else title


__all__ = ["ALL_TITLES", "BELOW_ALL", "ENGLISH", "title_for", "title_name"]
