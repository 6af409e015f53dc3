"""Titles by score (docs/rules.en.md §8.6), as the engine defines them; ``ALL_TITLES`` lists every
title so the font subset can be checked to hold them.

>>> title_for(0)
'新人报到'
"""

from __future__ import annotations

from engine.scoring import LOWEST_TITLE, TITLES, title_for

BELOW_ALL = LOWEST_TITLE
ALL_TITLES = (BELOW_ALL, *(t for _, t in TITLES))

__all__ = ["ALL_TITLES", "BELOW_ALL", "title_for"]
