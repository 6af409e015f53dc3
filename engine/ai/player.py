"""AI players: the interface, the registry, and a loop that plays a game out with them.

A player sees a game only through one seat's :class:`~engine.observation.Observation` and
answers with one of ``obs.legal_actions``. Players are deterministic given their seed.

>>> from engine.game import Game, Options
>>> game = Game.from_deal(7, Options())
>>> players = [make_player("hint", seed) for seed in range(6)]
>>> play_game(game, players).phase == "finished"
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..actions import Action
from ..cards import RANK_LETTERS
from ..game import FINISHED, VOID, Game
from ..observation import Observation
from .hint import EXPERT, HINT, Style, choose_return, suggest


class Player(Protocol):
    """An AI (or any) player of one seat."""

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal_actions``."""
        ...

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        """还贡: ``n`` cards to give back, as notation, from ``returnable`` (rank counts)."""
        ...


class RandomPlayer:
    """Uniformly random among the legal actions (the floor every AI must beat)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal_actions)

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        pool = [r for r in range(15) for _ in range(returnable[r])]
        return "".join(RANK_LETTERS[r] for r in sorted(self.rng.sample(pool, min(n, len(pool)))))


class HintPlayer:
    """Plays the policy of ``style`` every time, by default the hint (提示): see
    :mod:`engine.ai.hint`."""

    def __init__(self, seed: int = 0, style: Style = HINT) -> None:
        self.seed = seed
        self.style = style

    def act(self, obs: Observation) -> Action:
        return suggest(obs, self.style)

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        return choose_return(returnable, n)


KINDS = ("random", "hint", "expert", "strong")


def make_player(kind: str, seed: int) -> Player:
    """A new player of ``kind``, deterministic given ``seed``: 'random', 'hint' (the 提示
    button), 'expert' (the tuned policy, no search) or 'strong' (search)."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "hint":
        return HintPlayer(seed)
    if kind == "expert":
        return HintPlayer(seed, EXPERT)
    if kind == "strong":
        from .strong import StrongPlayer

        return StrongPlayer(seed)
    raise ValueError(f"unknown AI kind {kind!r}: use one of {', '.join(KINDS)}")


def play_game(game: Game, players: Sequence[Player], max_actions: int = 20000) -> Game:
    """Play ``game`` to its end (finished or void), asking ``players[seat]`` for every seat
    the game waits on, in seat order. Returns the same game."""
    for _ in range(max_actions):
        if game.phase in (FINISHED, VOID):
            return game
        for seat in list(game.to_act):
            if seat in game.to_act:
                game.apply(players[seat].act(game.observe(seat)))
    raise RuntimeError(f"the game did not end within {max_actions} actions")
