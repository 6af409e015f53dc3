"""What the store keeps of a finished deal — the one result shape in ``games.result`` and the
players' profile changes — for the bot and for ``gouji demo`` alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data import ProfileUpdate
from engine.game import Game
from engine.record import state_json
from engine.scoring import counts_as_open, team_of, team_totals
from engine.series import SeriesGame


def finished_game(current: SeriesGame) -> Game:
    """The engine game of a finished deal."""
    if current.game is None:
        raise ValueError("the deal has no game: its tribute is still being returned")
    return current.game


def game_result(current: SeriesGame, *, tribute: bool = True) -> dict[str, Any]:
    """``games.result`` of a finished deal: docs/record.md's replay object of its game, with the
    tribute paid and returned at its start, each seat's ``score`` for the deal (place and
    tribute points) and ``penalties``. ``tribute=False`` (a single game, not a series): the
    game leaves no tribute owing (``"tribute": []``)."""
    result: dict[str, Any] = state_json(finished_game(current))
    result["paid"] = [p.to_json() for p in current.paid]
    result["returned"] = [r.to_json() for r in current.returns]
    result["score"] = current.score()
    result["penalties"] = current.penalties()
    if not tribute:
        result["tribute"] = []
    return result


def profile_updates(current: SeriesGame, users: Sequence[int | None]) -> list[ProfileUpdate]:
    """Each seated user's profile change for a finished deal (``users[seat]``, None: nobody):
    their team's total plus their own penalties, the place, their own opens (not those a
    revolution gave), successful burns and stifles made, and whether they left."""
    game = finished_game(current)
    points, penalties = current.score(), current.penalties()
    team = team_totals(points)
    return [
        ProfileUpdate(
            user_id=user,
            score_delta=team[team_of(seat)] + penalties[seat],
            place=game.places[seat],
            opens=int(counts_as_open(game.opened, game.revolted, seat)),
            burns=len(game.successful_burns(seat)),
            stifles=sum(1 for _, by in game.stifled if by == seat),
            leaves=int(seat in game.left),
        )
        for seat, user in enumerate(users)
        if user is not None
    ]
