"""Shared helpers of the AI tests: cheap strong players and games played to a point."""

from __future__ import annotations

from engine.ai.hint import HINT, decide
from engine.ai.strong import StrongPlayer
from engine.ai.view import view_of_game
from engine.cards import Card
from engine.game import Game, Options, Phase


def quick_strong(seed: int) -> StrongPlayer:
    """A strong player with a tiny search budget (same code path, test-sized)."""
    return StrongPlayer(seed, budget=150, lead_budget=300, min_worlds=2, max_worlds=3)


def advance(game: Game, steps: int, style=HINT) -> Game:
    """Play ``steps`` actions of ``game`` with the policy (or fewer, if it ends)."""
    for _ in range(steps):
        if game.phase in (Phase.FINISHED, Phase.VOID):
            break
        seat = game.to_act[0]
        game.apply(decide(view_of_game(game, seat), style))
    return game


def set_hand(game: Game, seat: int, counts: list[int]) -> None:
    """Give ``seat`` exactly the cards ``counts`` (without suits): a twin game for tests."""
    game.counts[seat] = list(counts)
    game.cards[seat] = [Card(r) for r in range(15) for _ in range(counts[r])]


def dealt(seed: int, bie_san: bool = False) -> Game:
    return Game.from_deal(seed, Options(bie_san=bie_san))
