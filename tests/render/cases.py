"""The pictures pinned by golden images: name -> a function drawing it.

Regenerate the goldens after a deliberate change of look with ``python -m tests.render.regenerate``
and look at every PNG in tests/render/golden/ before committing them. What makes them drift is
pinned: the shipped font (render/assets), fixed sizes, Pillow's BASIC text layout, fixed data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from engine.cards import deal
from render import demo
from render.hand import render_hand
from render.models import RatingView
from render.profile import render_leaderboard, render_profile, render_rating_board
from render.series import render_series
from render.table import render_table

GOLDEN = Path(__file__).resolve().parent / "golden"


def _dealt_hand() -> Image.Image:
    hand = deal(1)[0]
    return render_hand(hand, highlight=[c for c in hand if c.rank in (12, 13)][:2])


CASES: dict[str, Callable[[], Image.Image]] = {
    "hand_dealt": _dealt_hand,
    "hand_sixteen_en": lambda: render_hand("9" * 16 + "33 A BB RRRR", highlight="R", lang="en"),
    "hand_empty": lambda: render_hand(""),
    "table_demo": lambda: render_table(demo.demo_table()),
    "table_melee_en": lambda: render_table(
        dataclasses.replace(demo.demo_table(), melee=True, burn=None, bottom_seat=3, to_act=(1,)),
        lang="en",
    ),
    "table_replay_hands": lambda: render_table(demo.demo_replay_table()),
    "series_demo": lambda: render_series(demo.demo_series()),
    "profile_demo": lambda: render_profile(demo.demo_profile()),
    "leaderboard_demo": lambda: render_leaderboard(demo.demo_leaderboard(), server="山东老乡会"),
    "profile_provisional_en": lambda: render_profile(
        dataclasses.replace(
            demo.demo_profile(),
            games=4,
            rating=RatingView(figure=-1.9, mu=24.1, sigma=8.7, rank=9, players=9, provisional=True),
        ),
        lang="en",
    ),
    "profile_unrated": lambda: render_profile(
        dataclasses.replace(demo.demo_profile(), rating=None, games=0)
    ),
    "rating_board": lambda: render_rating_board(demo.demo_rating_board(), server="山东老乡会"),
    "rating_board_en": lambda: render_rating_board(
        demo.demo_rating_board(), server="Shandong", lang="en"
    ),
    "series_over_ratings": lambda: render_series(demo.demo_series_over()),
    "series_over_ratings_en": lambda: render_series(demo.demo_series_over(), lang="en"),
}


def golden_path(name: str) -> Path:
    """Where the golden image of case ``name`` is stored."""
    return GOLDEN / f"{name}.png"
