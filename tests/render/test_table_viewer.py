"""The table picture drawn for a viewer: their seat at the bottom marked "you", the seat
across (对家) marked, the two teams in a legend (their own first) and the turn clock; a
public picture names the teams by colour and marks no seat."""

from __future__ import annotations

import dataclasses

import pytest

from engine.scoring import opposite_of, team_of
from render import theme
from render.errors import RenderInputError
from render.models import SeatView, TableView
from render.table import (
    LEGEND_BOX,
    LEGEND_COLUMN,
    PLATE_CENTRES,
    PLATE_H,
    PLATE_W,
    legend_order,
    position_of,
    render_table,
)

SEATS = tuple(SeatView(name=f"p{s}", cards_left=20) for s in range(6))


def _count(img, box, colour, tolerance: int = 12) -> int:
    """Pixels of ``colour`` (within ``tolerance`` per channel) in ``box``."""
    region = img.crop(box).convert("RGB")
    return sum(
        1
        for px in region.get_flattened_data()
        if all(abs(a - b) <= tolerance for a, b in zip(px, colour, strict=True))
    )


def _plate_top(position: int) -> tuple[int, int, int, int]:
    """The strip along the top edge of a plate drawn at ``position`` (where its tag sits)."""
    cx, cy = PLATE_CENTRES[position]
    x0, y0 = cx - PLATE_W // 2, cy - PLATE_H // 2
    return (x0, y0 - 16, x0 + PLATE_W // 2, y0 + 14)


def _legend_dot(column: int) -> tuple[int, int]:
    """The middle of the team dot heading the legend's ``column``."""
    x0, y0 = LEGEND_BOX[:2]
    return (x0 + 24 + column * LEGEND_COLUMN, y0 + 25)


def _legend_column(column: int) -> tuple[int, int, int, int]:
    """The legend's ``column`` under its heading: the team's players."""
    x0, y0, _, y1 = LEGEND_BOX
    return (x0 + column * LEGEND_COLUMN, y0 + 42, x0 + (column + 1) * LEGEND_COLUMN, y1)


@pytest.mark.parametrize("viewer", range(6))
def test_the_viewer_sits_at_the_bottom_and_their_opposite_is_marked(viewer: int) -> None:
    view = TableView(seats=SEATS, bottom_seat=viewer, viewer=viewer)
    img = render_table(view)
    across = position_of(opposite_of(viewer), viewer)
    assert across == 3, "the opposite seat is drawn at the top"
    assert _count(img, _plate_top(across), theme.OPPOSITE) > 40, "对家 is marked"
    you = theme.TEAM_COLOURS[team_of(viewer)]
    assert _count(img, _plate_top(0), you) > 40, "the viewer's own seat is marked"
    public = render_table(dataclasses.replace(view, viewer=None))
    assert _count(public, _plate_top(across), theme.OPPOSITE) == 0, "public: no 对家 tag"


@pytest.mark.parametrize("viewer", [0, 1])
def test_the_legend_names_the_viewers_team_first(viewer: int) -> None:
    img = render_table(TableView(seats=SEATS, bottom_seat=viewer, viewer=viewer)).convert("RGB")
    first, second = (img.getpixel(_legend_dot(column)) for column in (0, 1))
    assert first == theme.TEAM_COLOURS[team_of(viewer)]
    assert second == theme.TEAM_COLOURS[1 - team_of(viewer)]


def test_a_public_legend_lists_the_teams_in_seat_order() -> None:
    img = render_table(TableView(seats=SEATS, bottom_seat=3)).convert("RGB")
    assert img.getpixel(_legend_dot(0)) == theme.TEAM_COLOURS[0]
    assert img.getpixel(_legend_dot(1)) == theme.TEAM_COLOURS[1]


def test_the_turn_label_carries_the_clock() -> None:
    view = TableView(seats=SEATS, to_act=(0,))
    cx, cy = PLATE_CENTRES[0]
    label = (cx - 160, cy - PLATE_H // 2 - 30, cx + 160, cy - PLATE_H // 2 + 2)
    plain, timed = render_table(view), render_table(dataclasses.replace(view, clock=23))
    assert plain.crop(label).tobytes() != timed.crop(label).tobytes()
    other = render_table(dataclasses.replace(view, clock=7))
    assert timed.crop(label).tobytes() != other.crop(label).tobytes(), "the seconds are drawn"


def test_a_viewer_is_drawn_at_the_bottom_and_a_clock_is_never_negative() -> None:
    with pytest.raises(RenderInputError, match="bottom_seat=viewer"):
        TableView(seats=SEATS, bottom_seat=0, viewer=2)
    with pytest.raises(RenderInputError, match="seconds left"):
        TableView(seats=SEATS, clock=-1)


@pytest.mark.parametrize("viewer", [0, 3])
def test_the_legend_lists_the_players_by_name_under_their_team(viewer: int) -> None:
    view = TableView(seats=SEATS, bottom_seat=viewer, viewer=viewer)
    img = render_table(view)
    for s in range(6):
        seats = list(SEATS)
        seats[s] = dataclasses.replace(seats[s], name="济南够级王")
        renamed = render_table(dataclasses.replace(view, seats=tuple(seats)))
        column = 0 if team_of(s) == team_of(viewer) else 1
        assert img.crop(_legend_column(column)) != renamed.crop(_legend_column(column)), (
            f"seat {s}'s name is in its team's column"
        )
        assert img.crop(_legend_column(1 - column)) == renamed.crop(_legend_column(1 - column))


def test_the_legend_lists_the_viewer_then_the_opposite_first() -> None:
    view = TableView(seats=SEATS, bottom_seat=2, viewer=2)
    assert legend_order(view, team_of(2)) == [2, 4, 0], "you, then your teammates in play order"
    assert legend_order(view, team_of(5)) == [5, 1, 3], "对家 first"
    assert legend_order(dataclasses.replace(view, viewer=None), 1) == [1, 3, 5]


@pytest.mark.parametrize("viewer", range(6))
def test_the_legend_marks_you_and_the_opposite_in_words(viewer: int) -> None:
    view = TableView(seats=SEATS, bottom_seat=viewer, viewer=viewer)
    img = render_table(view)
    you = theme.TEAM_COLOURS[team_of(viewer)]
    assert _count(img, _legend_column(0), you) > 40, 'your name carries the "you" tag'
    assert _count(img, _legend_column(1), theme.OPPOSITE) > 40, "对家's name carries its tag"
    public = render_table(dataclasses.replace(view, viewer=None))
    assert _count(public, LEGEND_BOX, theme.OPPOSITE) == 0, "public: nobody is 对家"
