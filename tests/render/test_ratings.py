"""The skill rating (技术分) in the pictures: the profile's tile, the board by rating and
the series scoreboard once the series is over, in both languages."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import ImageChops

from render import demo
from render.errors import RenderInputError
from render.labels import all_plain_text, plain_word
from render.models import RatingRow, RatingView, SeriesView
from render.profile import BOARD_ROW, BOARD_TOP, render_profile, render_rating_board
from render.series import render_series
from tests.render.test_table import HOSTILE_NAMES


def differs(a, b) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_profile_shows_the_rating_its_rank_and_whether_it_is_provisional(lang) -> None:
    view = demo.demo_profile()
    rated = render_profile(view, lang=lang)
    unrated = render_profile(dataclasses.replace(view, rating=None), lang=lang)
    assert view.rating is not None
    provisional = dataclasses.replace(view.rating, provisional=True)
    marked = render_profile(dataclasses.replace(view, rating=provisional), lang=lang)
    other_rank = dataclasses.replace(view.rating, rank=1)
    ranked = render_profile(dataclasses.replace(view, rating=other_rank), lang=lang)
    tile = (56 + 3 * ((960 - 112 - 60) // 4 + 20), 200, 904, 300)  # the fourth tile
    for other in (unrated, marked, ranked):
        assert differs(rated.crop(tile), other.crop(tile))
        assert not differs(rated.crop((0, 0, 960, 195)), other.crop((0, 0, 960, 195)))


def test_a_rating_view_needs_a_rank_on_the_board() -> None:
    with pytest.raises(RenderInputError, match="rank"):
        RatingView(figure=1.0, mu=20.0, sigma=6.0, rank=5, players=4)
    with pytest.raises(RenderInputError, match="sigma"):
        RatingView(figure=1.0, mu=20.0, sigma=-1.0, rank=1, players=4)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_rating_board_has_a_row_per_player_and_marks_the_provisional(lang) -> None:
    rows = demo.demo_rating_board()
    board = render_rating_board(rows, server="山东老乡会", lang=lang)
    assert board.size == (960, BOARD_TOP + len(rows) * BOARD_ROW + 40)
    assert render_rating_board(rows, lang=lang, limit=3).height < board.height
    row = 5  # "Bob …", provisional
    box = (24, BOARD_TOP + row * BOARD_ROW, 936, BOARD_TOP + (row + 1) * BOARD_ROW)
    settled = [dataclasses.replace(r, provisional=False) if r.position == 6 else r for r in rows]
    assert differs(board.crop(box), render_rating_board(settled, lang=lang).crop(box))
    empty = render_rating_board([], lang=lang)
    assert empty.height == BOARD_TOP + BOARD_ROW + 40


def test_the_rating_board_takes_hostile_names_and_refuses_other_rows() -> None:
    rows = [
        RatingRow(name, 10.0 - i, 20.0, 3.0, 5, i + 1, provisional=i % 2 == 0)
        for i, name in enumerate(HOSTILE_NAMES)
    ]
    assert render_rating_board(rows).width == 960
    with pytest.raises(RenderInputError, match="RatingRow"):
        render_rating_board(demo.demo_leaderboard())  # type: ignore[arg-type]
    with pytest.raises(RenderInputError, match="limit"):
        render_rating_board(rows, limit=0)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_series_scoreboard_shows_each_seats_rating_change_once_over(lang) -> None:
    over = demo.demo_series_over()
    with_ratings = render_series(over, lang=lang)
    without = render_series(dataclasses.replace(over, ratings=()), lang=lang)
    assert with_ratings.size == without.size
    assert differs(with_ratings, without)
    unrated_seat = dataclasses.replace(
        over, ratings=tuple(None if s == 0 else r for s, r in enumerate(over.ratings))
    )
    names = (32, 92 + 64, 32 + 290, 92 + 64 + 86)  # seat 0's name cell
    assert differs(with_ratings.crop(names), render_series(unrated_seat, lang=lang).crop(names))


def test_a_series_view_needs_six_ratings_or_none() -> None:
    with pytest.raises(RenderInputError, match="six entries"):
        SeriesView(names=demo.DEMO_NAMES, ratings=((1.0, 2.0),))


def test_the_rating_words_are_drawn_in_the_regular_face_in_both_languages() -> None:
    assert plain_word("rating", "zh") == "技术分" and plain_word("rating", "en") == "Rating"
    assert plain_word("provisional", "zh") == "定级中"
    assert "技术分" in all_plain_text() and "provisional" in all_plain_text()
