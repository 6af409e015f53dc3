"""Titles by score (docs/rules.en.md §8.6), as the engine defines them, and their names in a
language (render.labels: the pictures and the texts show a title in the player's language);
``ALL_TITLES`` lists every title in every language so the font subset can be checked to hold
them.

>>> title_for(0), title_name(title_for(0), "en")
('新人报到', 'New arrival')
"""

from __future__ import annotations

from engine.scoring import LOWEST_TITLE, TITLES, title_for

from .labels import LABELS, title_name

BELOW_ALL = LOWEST_TITLE
ALL_TITLES = (
    BELOW_ALL,
    *(t for _, t in TITLES),
    *(name for labels in LABELS.values() for name in labels.titles.values()),
)

__all__ = ["ALL_TITLES", "BELOW_ALL", "title_for", "title_name"]
