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
from dataclasses import dataclass
from typing import Protocol

from ..actions import Action, Verb
from ..cards import RANK_LETTERS, deal
from ..game import Game, Phase
from ..observation import Observation
from ..series import Series, SeriesGame
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


@dataclass(frozen=True, slots=True)
class Difficulty:
    """An AI strength named for players: ``name`` (English), ``chinese``, the ``kind`` of
    :func:`make_player` that plays it, and its measured strength against the level below
    (random play, for the lowest): ``gain`` team points a game and ``series_gain`` a game
    of a five-game series (``gouji arena``, duplicate deals; docs/ai.md has the commands
    and the intervals)."""

    name: str
    chinese: str
    kind: str
    gain: float
    series_gain: float


DIFFICULTIES = (
    Difficulty("easy", "简单", "hint", gain=11.84, series_gain=11.92),
    Difficulty("normal", "普通", "expert", gain=1.46, series_gain=0.59),
    Difficulty("hard", "困难", "strong", gain=2.34, series_gain=3.51),
)
"""The AI levels players choose from, weakest first, each stronger than the one before: 简单
/ easy plays the hint (提示) policy, 普通 / normal the expert policy (the hint's rules
tuned), 困难 / hard searches (:mod:`engine.ai.strong`)."""


def difficulty(name: str) -> Difficulty:
    """The difficulty called ``name`` (English, any case, or Chinese); ValueError if none.

    >>> difficulty("困难").kind, difficulty("Easy").chinese
    ('strong', '简单')
    """
    key = name.strip().lower()
    for d in DIFFICULTIES:
        if key in (d.name, d.chinese):
            return d
    names = ", ".join(f"{d.name} ({d.chinese})" for d in DIFFICULTIES)
    raise ValueError(f"unknown difficulty {name!r}: use one of {names}")


def ai_kind(name: str) -> str:
    """The :func:`make_player` kind a player means by ``name``: a difficulty (English, any
    case, or Chinese) or a kind itself ('hint', 'expert', 'strong', 'random'); ValueError if
    neither.

    >>> ai_kind("困难"), ai_kind("Normal"), ai_kind("hint")
    ('strong', 'expert', 'hint')
    """
    key = name.strip().lower()
    if key in KINDS:
        return key
    try:
        return difficulty(name).kind
    except ValueError:
        names = ", ".join(f"{d.name} ({d.chinese})" for d in DIFFICULTIES)
        raise ValueError(
            f"unknown AI {name!r}: use one of {names}, or {', '.join(KINDS)}"
        ) from None


def make_player(kind: str, seed: int) -> Player:
    """A new player of ``kind``, deterministic given ``seed``: 'random', 'hint' (the 提示
    button), 'expert' (the tuned policy, no search) or 'strong' (search); a difficulty
    name (简单/普通/困难, easy/normal/hard) plays its kind."""
    kind = ai_kind(kind)
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "hint":
        return HintPlayer(seed)
    if kind == "expert":
        return HintPlayer(seed, EXPERT)
    from .strong import StrongPlayer  # "strong": the last kind ai_kind answers

    return StrongPlayer(seed)


def play_game(game: Game, players: Sequence[Player], max_actions: int = 20000) -> Game:
    """Play ``game`` to its end (finished or void), asking ``players[seat]`` for every seat
    the game waits on, in seat order. Returns the same game."""
    for _ in range(max_actions):
        if game.phase in (Phase.FINISHED, Phase.VOID):
            return game
        for seat in list(game.to_act):
            if seat in game.to_act:
                game.apply(players[seat].act(game.observe(seat)))
    raise RuntimeError(f"the game did not end within {max_actions} actions")


def play_series_game(
    series: Series, players: Sequence[Player], seed: int, max_actions: int = 20000
) -> SeriesGame:
    """Deal the next game of ``series`` from ``seed``, have ``players`` return the tribute
    (还贡) and play the game to its end (finished or void, :func:`play_game`). Returns the
    game dealt.

    >>> series = Series(games=1)
    >>> players = [make_player("hint", seed) for seed in range(6)]
    >>> play_series_game(series, players, 7).finished, series.finished
    (True, True)
    """
    current = series.start_game(deal(seed), seed=seed)
    while current.pending_return is not None:
        giver = current.pending_return.giver
        n, returnable = series.returnable(giver)
        series.apply(Action(giver, Verb.RETURN, players[giver].choose_return(returnable, n)))
    if current.game is not None:
        play_game(current.game, players, max_actions)
    return current
