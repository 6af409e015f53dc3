"""Shared helpers of the replay and review tests: finished games as real-game records."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from engine.actions import Action
from engine.ai.hint import EXPERT, decide
from engine.ai.view import view_of_game
from engine.game import FINISHED, Game, Options


def record_of(game: Game) -> dict[str, Any]:
    """A finished real game (built with ``Game.from_deal``) as a ``gouji-record/1`` record."""
    return {
        "format": "gouji-record/1",
        "options": game.options.to_json(),
        "hands": [" ".join(str(c) for c in hand) for hand in game.dealt],
        "seed": game.seed,
        "actions": [str(a) for a in game.actions],
    }


def expert_game(seed: int, override: Callable[[Game, int], Action | None] | None = None) -> Game:
    """Deal ``seed`` and play it out with the expert policy for every seat; ``override``
    (game, seat) may return another action to plant instead."""
    game = Game.from_deal(seed, Options())
    while game.phase != FINISHED:
        seat = game.to_act[0]
        action = override(game, seat) if override else None
        game.apply(action or decide(view_of_game(game, seat), EXPERT))
    return game


@cache
def expert_record(seed: int) -> dict[str, Any]:
    """The record of :func:`expert_game` (cached: do not change it)."""
    return record_of(expert_game(seed))
