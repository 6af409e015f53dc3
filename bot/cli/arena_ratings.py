"""``gouji arena --ratings``: the two programs of a match rated as the bot rates players —
each program one player (as each AI level is one player of a server), its three seats
copies of it, every game rated by its places (:mod:`engine.rating`), in the order played.

    gouji arena --a expert --b hint --games 200 --ratings
"""

from __future__ import annotations

from typing import Any

from engine.rating import Entry, Rating, rate_game


def match_ratings(deals: list[dict[str, Any]], a: str, b: str) -> dict[str, dict[str, float]]:
    """A's and B's ratings after the match's games (each deal: its games' ``places``, the
    first half with A on seats 0, 2, 4 and the second with A on 1, 3, 5): per program
    ``mu``, ``sigma``, the conservative ``rating`` mu − 3σ and the ``games``."""
    names = {"A": f"{a} (A)", "B": f"{b} (B)"}
    ratings: dict[str, Rating] = {}
    for deal in deals:
        games = deal["places"]
        for index, places in enumerate(games):
            swap = 0 if index < len(games) // 2 else 1
            lineup = [Entry("A" if s % 2 == swap else "B", places[s]) for s in range(6)]
            ratings.update(rate_game(ratings, lineup))
    return {
        names[key]: {
            "rating": round(r.ordinal, 3),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": r.games,
        }
        for key, r in sorted(ratings.items())
    }


def format_ratings(ratings: dict[str, dict[str, float]]) -> str:
    """One line: each program's rating (mu − 3σ) and mu ± σ."""
    parts = [
        f"{name} {r['rating']:.1f} (mu {r['mu']:.2f} ± {r['sigma']:.2f})"
        for name, r in ratings.items()
    ]
    return f"ratings after {next(iter(ratings.values()))['games']:.0f} games: " + ", ".join(parts)
