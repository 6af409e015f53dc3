"""The rating adapters: a standing as a profile view, rating rows as a board."""

from __future__ import annotations

from bot.pictures.views import rating_rows
from bot.service.standing import RatingStanding, Standing, profile_view
from data import PlayerRating
from engine.rating import Rating


def standing(rating: RatingStanding | None) -> Standing:
    return Standing(1, 7, 120, "略有进步", 12, (3, 2, 2, 2, 2, 1), 4, 1, 0, 0, 5, rating)


def test_a_standing_becomes_a_profile_view_with_its_rating_tile() -> None:
    view = profile_view(standing(RatingStanding(3.5, 20.0, 5.5, 12, 2, 9, False)), "Ann")
    assert (view.name, view.score, view.games, view.position) == ("Ann", 120, 12, 5)
    assert view.rating is not None
    assert (view.rating.figure, view.rating.rank, view.rating.players) == (3.5, 2, 9)
    assert not view.rating.provisional
    assert profile_view(standing(None), "Ann").rating is None


def test_rating_rows_name_people_and_ai_levels_and_keep_the_board_order() -> None:
    rated = [
        PlayerRating(1, "ai:strong", Rating(30.0, 2.0, 40), 1, 3),
        PlayerRating(1, "7", Rating(27.0, 6.0, 3), 2, 3),
        PlayerRating(1, "8", Rating(22.0, 2.5, 15), 3, 3),
    ]
    rows = rating_rows(rated, {"ai:strong": "AI 困难", "7": "Ann"})
    assert [(r.name, r.position, r.ai) for r in rows] == [
        ("AI 困难", 1, True),
        ("Ann", 2, False),
        ("8", 3, False),  # no name: the key
    ]
    assert rows[0].figure == 30.0 - 3 * 2.0 and rows[1].provisional and not rows[2].provisional
