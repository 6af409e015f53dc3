"""Random self-play: every seat picks uniformly among its legal actions."""

from __future__ import annotations

import random

from engine.game import FINISHED, PLAY_PHASE, VOID, Game, Options


def play_random_game(seed: int, bie_san: bool = False, max_steps: int = 5000) -> Game:
    """Deal from ``seed`` and play to the end with uniformly random legal actions."""
    rng = random.Random(seed)
    game = Game.from_deal(seed, Options(bie_san=bie_san))
    steps = 0
    while game.phase not in (FINISHED, VOID):
        waiting = game.to_act
        assert waiting, f"nobody can act in phase {game.phase}"
        seat = rng.choice(waiting)
        actions = game.legal_actions(seat)
        assert actions, f"seat {seat} is waited on but has no legal action"
        game.apply(rng.choice(actions))
        steps += 1
        assert steps < max_steps, "game does not end"
    return game


__all__ = ["play_random_game", "PLAY_PHASE"]
