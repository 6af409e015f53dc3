"""AI players of Gouji: the hint (提示) policy, a strong search player, and a random floor.

``make_player(kind, seed)`` builds one; ``suggest(obs)`` and ``rank_plays(obs)`` power the
bot's `/gouji hint`. Everything here sees a game only through one seat's observation.
"""

from .hint import choose_return, rank_plays, suggest
from .player import (
    DIFFICULTIES,
    KINDS,
    Difficulty,
    HintPlayer,
    Player,
    RandomPlayer,
    ai_kind,
    difficulty,
    make_player,
    play_game,
    play_series_game,
)

__all__ = [
    "DIFFICULTIES",
    "KINDS",
    "Difficulty",
    "HintPlayer",
    "Player",
    "RandomPlayer",
    "ai_kind",
    "choose_return",
    "difficulty",
    "make_player",
    "play_game",
    "play_series_game",
    "rank_plays",
    "suggest",
]
