"""The pictures of a replay (录像) and a review (复盘): engine state → render views → PNG.

Pure and blocking (call them off the event loop). A replay shows every hand — only ever
of a finished game (:class:`engine.replay_steps.Replay` refuses any other) — so the view is
the table of the chosen seat's observation with every seat's cards added.

(New file beside ``bot/views.py`` and ``bot/pictures.py``; at the merge of the bot's new
layout it belongs in ``bot/pictures/``, its two captions in the text catalog.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.ai.review import Mistake
from engine.hands import Play
from engine.replay_steps import Replay
from render.encode import to_png
from render.hand import render_hand
from render.models import TableView
from render.table import render_table

from .views import table_view

CAPTIONS = {"zh": "录像 · 第 {step} 步 / {steps}", "en": "Replay · step {step} / {steps}"}


def default_names(lang: str) -> list[str]:
    """Seat names when the caller has none: 座位 0 … / Seat 0 …"""
    word = "座位" if lang == "zh" else "Seat"
    return [f"{word} {s}" for s in range(6)]


def replay_view(
    replay: Replay,
    step: int,
    names: Sequence[str],
    *,
    lang: str = "zh",
    bottom_seat: int = 0,
    caption: str | None = None,
) -> TableView:
    """The table at ``step`` of a finished game, every hand shown, ``bottom_seat`` at the
    bottom; the caption says which step (or ``caption``)."""
    game = replay.game_at(step)
    if caption is None:
        caption = CAPTIONS[lang].format(step=step, steps=replay.steps)
    view = table_view(game.observe(bottom_seat), names, caption=caption)
    # with suits, as dealt (canonical notation would drop them)
    hands = tuple("".join(str(c) for c in h) for h in game.cards)
    return dataclasses.replace(view, hands=hands)


def replay_png(
    replay: Replay,
    step: int,
    names: Sequence[str] | None = None,
    *,
    lang: str = "zh",
    bottom_seat: int = 0,
) -> bytes:
    """The replay picture at ``step`` as PNG bytes."""
    names = list(names) if names is not None else default_names(lang)
    view = replay_view(replay, step, names, lang=lang, bottom_seat=bottom_seat)
    return to_png(render_table(view, lang=lang))


def mistake_hand_png(mistake: Mistake, lang: str = "zh", title: str | None = None) -> bytes:
    """A review item's hand (复盘): the seat's cards when it decided, the cards it played
    lifted (nothing lifted for a pass, a yield or a no-burn)."""
    cards = mistake.action.cards
    highlight = str(cards) if isinstance(cards, Play) else None
    return to_png(render_hand(mistake.hand, highlight=highlight, lang=lang, title=title))
