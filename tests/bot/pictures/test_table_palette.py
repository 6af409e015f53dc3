"""Table pictures are encoded with one palette chosen once (render.table.table_palette): any
table of a real game keeps its colours in it."""

from __future__ import annotations

import dataclasses
import random

from bot.pictures.replay import default_names, replay_view
from bot.pictures.views import for_viewer
from engine.replay_steps import Replay
from render.models import TableView
from render.table import render_table, table_palette
from tests.render.helpers import assert_kept_in_palette
from tests.replay.helpers import expert_record


def _tables() -> list[tuple[TableView, str]]:
    """Tables of finished expert games at random steps: the channel's (no hands), a
    player's (a viewer at the bottom), a replay's (every hand), with a clock or not."""
    rng = random.Random(5)
    tables = []
    for seed in range(3):
        replay = Replay.from_record(expert_record(seed))
        for k in range(6):
            lang = ("zh", "en")[k % 2]
            step = rng.randrange(replay.steps + 1)
            view = replay_view(
                replay, step, default_names(lang), lang=lang, bottom_seat=rng.randrange(6)
            )
            if k % 3:
                view = dataclasses.replace(view, hands=())
            if k % 3 == 2:
                view = for_viewer(view, rng.randrange(6))
            if k % 2:
                view = dataclasses.replace(view, clock=rng.randrange(60))
            tables.append((view, lang))
    return tables


def test_every_table_picture_keeps_its_colours_in_the_fixed_table_palette() -> None:
    for i, (view, lang) in enumerate(_tables()):
        assert_kept_in_palette(render_table(view, lang=lang), table_palette(), f"table {i}")
