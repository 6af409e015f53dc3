"""The pictures of a replay (录像) and a review (复盘): engine state → render views → PNG.

Pure and blocking (call them off the event loop). A replay shows every hand — only ever
of a finished game (:class:`engine.replay_steps.Replay` refuses any other) — so the view is
the table of the chosen seat's observation with every seat's cards added.

``replay_step_png`` and ``review_seat`` are what the drawing workers run for the bot: they
take the record as JSON text and keep the last few replays built, so stepping through a
game rebuilds nothing.
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from collections.abc import Sequence

from bot.text.cards import play_words
from bot.text.catalog import text
from engine.ai.review import Mistake, Review, review
from engine.hands import Play
from engine.replay_steps import KeyMoment, Replay
from render.encode import to_png
from render.hand import render_hand
from render.models import TableView
from render.table import render_table, table_palette

from .views import table_view

#: Replays a worker keeps, by (record text, game number).
_KEEP = 8
_replays: OrderedDict[tuple[str, int | None], Replay] = OrderedDict()


def default_names(lang: str) -> list[str]:
    """Seat names when the caller has none: 座位 0 … / Seat 0 …"""
    return [text(lang, "replay_seat", seat=s) for s in range(6)]


def replay_of(record: str, game: int | None = None) -> Replay:
    """The replay of a record given as JSON text (game ``game`` of a series), kept."""
    key = (record, game)
    replay = _replays.get(key)
    if replay is None:
        replay = Replay.from_record(json.loads(record), game)
        _replays[key] = replay
        if len(_replays) > _KEEP:
            _replays.popitem(last=False)
    _replays.move_to_end(key)
    return replay


def replay_facts(
    record: str, game: int | None
) -> tuple[int, tuple[KeyMoment, ...], list[int | None]]:
    """(steps, key moments, each seat's place) of a record's replay (JSON text)."""
    replay = replay_of(record, game)
    return replay.steps, tuple(replay.moments), list(replay.final.places)


def replay_step_png(
    record: str, game: int | None, step: int, names: Sequence[str], lang: str, bottom_seat: int
) -> bytes:
    """The replay picture of a record (JSON text) at ``step``: what the bot's workers draw."""
    return replay_png(replay_of(record, game), step, names, lang=lang, bottom_seat=bottom_seat)


def review_seat(
    record: str, game: int | None, seat: int, budget: int, lang: str
) -> tuple[Review, list[bytes]]:
    """The review of ``seat`` (复盘) and the hand picture of each mistake found."""
    result = review(replay_of(record, game), seat, budget=budget)
    return result, [review_item_png(m, lang) for m in result.mistakes]


def review_item_png(mistake: Mistake, lang: str = "zh") -> bytes:
    """A review item's picture: the hand as :func:`mistake_hand_png`, titled with the step
    and the hand the seat faced."""
    return mistake_hand_png(mistake, lang, _position_title(mistake, lang))


def _position_title(mistake: Mistake, lang: str) -> str:
    """The title of a review item's picture: the step and the hand the seat faced."""
    if mistake.standing is None:
        return text(lang, "review_picture", step=mistake.step)
    return text(
        lang,
        "review_picture_facing",
        step=mistake.step,
        seat=mistake.standing_seat,
        cards=play_words(mistake.standing, lang),
    )


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
        caption = text(lang, "replay_caption", step=step, steps=replay.steps)
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
    return to_png(render_table(view, lang=lang), palette=table_palette())


def mistake_hand_png(mistake: Mistake, lang: str = "zh", title: str | None = None) -> bytes:
    """A review item's hand (复盘): the seat's cards when it decided, the cards it played
    lifted (nothing lifted for a pass, a yield or a no-burn)."""
    cards = mistake.action.cards
    highlight = str(cards) if isinstance(cards, Play) else None
    picture = render_hand(mistake.hand, highlight=highlight, lang=lang, title=title, mapped=True)
    return to_png(picture)
