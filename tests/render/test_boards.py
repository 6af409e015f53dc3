"""Series scoreboard, profile card and leaderboard."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import ImageChops

from render import demo
from render.errors import RenderInputError
from render.models import LeaderboardRow, ProfileView, SeriesGame, SeriesView
from render.profile import PROFILE_H, PROFILE_W, render_leaderboard, render_profile
from render.series import render_series
from render.titles import title_for
from tests.render.test_table import HOSTILE_NAMES


def test_series_totals_and_team_totals() -> None:
    view = demo.demo_series()
    totals = view.totals()
    assert totals[4] == sum(g.points[4] for g in view.games) - 10
    assert view.team_totals() == (
        totals[0] + totals[2] + totals[4],
        totals[1] + totals[3] + totals[5],
    )
    assert view.doubled(2) and not view.doubled(3) and not view.doubled(0)


def test_series_size_and_hostile_names() -> None:
    view = demo.demo_series()
    image = render_series(view)
    assert (
        image.size == render_series(dataclasses.replace(view, names=HOSTILE_NAMES), lang="en").size
    )
    assert image.width <= 1600


def test_empty_series_and_games_so_far() -> None:
    empty = SeriesView(names=tuple("abcdef"))
    one = dataclasses.replace(
        empty, games=(SeriesGame(places=(1, 2, 3, 4, 5, 6), points=(4, 2, 0, 0, -2, -4)),)
    )
    assert render_series(empty).size == render_series(one).size
    assert ImageChops.difference(render_series(empty), render_series(one)).getbbox() is not None


def test_a_result_card_shows_the_marks_and_the_tribute_owed_in_both_languages() -> None:
    game = SeriesGame(
        places=(1, 2, 3, 4, 5, 6),
        points=(4, 2, 0, 0, -2, -4),
        marks=(("opened", "burn_won"), (), ("opened",), ("stifled",), (), ()),
    )
    plain = SeriesView(names=tuple("abcdef"), games=(dataclasses.replace(game, marks=((),) * 6),))
    marked = dataclasses.replace(plain, games=(game,))
    owing = dataclasses.replace(marked, owed=((5, 0, 2, "place"), (4, 1, 1, "point")))
    for lang in ("zh", "en"):
        sizes = [render_series(v, lang).size for v in (plain, marked, owing)]
        assert sizes[0][1] < sizes[1][1] < sizes[2][1], "each adds room"
        swapped = dataclasses.replace(owing, owed=((5, 0, 2, "point"), (4, 1, 1, "place")))
        shown = (render_series(v, lang).tobytes() for v in (owing, swapped))
        assert next(shown) != next(shown), "点贡 and 落贡 are named"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: SeriesView(names=("a",) * 5), "exactly six"),
        (lambda: SeriesGame(places=(1, 2, 3)), "exactly six"),
        (lambda: SeriesGame(places=(0, 1, 2, 3, 4, 5)), "place 1-6"),
        (
            lambda: SeriesView(
                names=("a",) * 6, total_games=1, games=(SeriesGame(places=(None,) * 6),) * 2
            ),
            "more than",
        ),
        (lambda: ProfileView("x", places=(1, 2, 3, 4, 5, -1)), "negative"),
        (lambda: SeriesGame(places=(None,) * 6, marks=(("won",),) + ((),) * 5), "marks"),
        (lambda: SeriesView(names=("a",) * 6, owed=((0, 6, 1, "point"),)), "seat number"),
        (lambda: SeriesView(names=("a",) * 6, owed=((0, 3, 1, "gift"),)), "a kind of"),
    ],
)
def test_bad_boards_are_refused(make, message: str) -> None:
    with pytest.raises(RenderInputError, match=message):
        make()


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (-401, "菜有特色"),
        (-400, "菜不是错"),
        (-1, "有点菜"),
        (0, "新人报到"),
        (99, "新人报到"),
        (100, "略有进步"),
        (799, "半斤八两"),
        (800, "小有所成"),
        (1638399, "天下第二"),
        (1638400, "牌神"),
        (10**9, "牌神"),
    ],
)
def test_titles_follow_the_rule_book(score: int, title: str) -> None:
    assert title_for(score) == title


def test_profile() -> None:
    view = demo.demo_profile()
    image = render_profile(view)
    assert image.size == (PROFILE_W, PROFILE_H)
    titled = render_profile(dataclasses.replace(view, title="牌神"))
    assert ImageChops.difference(image, titled).getbbox() is not None
    for name in HOSTILE_NAMES:
        assert render_profile(ProfileView(name, score=-5000, server=name)).size == (
            PROFILE_W,
            PROFILE_H,
        )


def test_leaderboard() -> None:
    rows = demo.demo_leaderboard()
    ten = render_leaderboard(rows)
    three = render_leaderboard(rows, limit=3)
    assert ten.width == three.width and ten.height > three.height
    assert render_leaderboard([]).height < three.height
    hostile = [
        LeaderboardRow(name, -i * 1000, title=name or None) for i, name in enumerate(HOSTILE_NAMES)
    ]
    assert render_leaderboard(hostile, server=HOSTILE_NAMES[3], lang="en").width == ten.width
    with pytest.raises(RenderInputError, match="limit"):
        render_leaderboard(rows, limit=0)


def test_a_custom_title_of_any_length_stays_in_place() -> None:
    rows = [LeaderboardRow("甲", 10, title="自定义称号" * 30), LeaderboardRow("乙", 5)]
    plain = render_leaderboard([LeaderboardRow("甲", 10, title="短"), LeaderboardRow("乙", 5)])
    long = render_leaderboard(rows)
    box = ImageChops.difference(plain, long).getbbox()
    assert box is not None
    x0, _, x1, _ = box
    assert x0 > 100 and x1 < 960 - 200  # between the position and the score
