"""The table picture: seats in play order, hostile names contained, every marker drawn."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import demo
from render.errors import RenderInputError
from render.models import Burn, CardCounter, LastAction, SeatView, TableView
from render.table import (
    HEIGHT,
    LEGEND_BOX,
    PLATE_CENTRES,
    PLATE_H,
    PLATE_W,
    WIDTH,
    position_of,
    render_table,
)

HOSTILE_NAMES = (
    "😀🎉👨\u200d👩\u200d👧\u200d👦",
    "مرحبا بالعالم",
    "Z̷̢̛̤̞a̶̡̛͎l̵̨̦͝g̸̢̛o̷̧̙̿",
    "W" * 100,
    "",
    "\u202eevil\u202c\n\t",
)


def _names_only(names: tuple[str, ...]) -> TableView:
    """A table where names appear on the plates only (no standing hand, no burn)."""
    return TableView(
        seats=tuple(
            SeatView(name, cards_left=10 + s, declared=s == 1, opened=s == 2)
            for s, name in enumerate(names)
        )
    )


def _blank_plates(image: Image.Image) -> Image.Image:
    """The picture without the plates and the team legend: where names are drawn."""
    image = image.copy()
    draw = ImageDraw.Draw(image)
    draw.rectangle(LEGEND_BOX, fill=(0, 0, 0))
    for cx, cy in PLATE_CENTRES:
        draw.rectangle(
            [cx - PLATE_W // 2, cy - PLATE_H // 2, cx + PLATE_W // 2, cy + PLATE_H // 2],
            fill=(0, 0, 0),
        )
    return image


def test_size_is_fixed() -> None:
    assert render_table(demo.demo_table()).size == (WIDTH, HEIGHT)


def test_seats_go_counter_clockwise_and_opposites_face_each_other() -> None:
    for bottom in range(6):
        positions = [position_of(s, bottom) for s in range(6)]
        assert positions[bottom] == 0
        assert sorted(positions) == list(range(6))
        for s in range(6):
            assert (positions[(s + 3) % 6] - positions[s]) % 6 == 3
            assert positions[(s + 1) % 6] == (positions[s] + 1) % 6
    bottom_centre, lower_right, upper_right, top = PLATE_CENTRES[:4]
    assert (
        lower_right[0] > bottom_centre[0]
        and upper_right[1] < lower_right[1]
        and top[1] < upper_right[1]
    )


def test_hostile_names_stay_on_their_plates() -> None:
    plain = render_table(_names_only(("a", "b", "c", "d", "e", "f")))
    hostile = render_table(_names_only(HOSTILE_NAMES))
    assert ImageChops.difference(plain, hostile).getbbox() is not None
    assert ImageChops.difference(_blank_plates(plain), _blank_plates(hostile)).getbbox() is None


def test_hostile_names_everywhere_names_appear() -> None:
    view = dataclasses.replace(
        demo.demo_table(),
        seats=tuple(
            dataclasses.replace(seat, name=name)
            for seat, name in zip(demo.demo_table().seats, HOSTILE_NAMES, strict=True)
        ),
        caption="🎴" * 80 + "W" * 200,
    )
    for lang in ("zh", "en"):
        assert render_table(view, lang=lang).size == (WIDTH, HEIGHT)


def _differs(a: TableView, b: TableView) -> bool:
    return ImageChops.difference(render_table(a), render_table(b)).getbbox() is not None


@pytest.mark.parametrize("flag", ["declared", "opened", "headless", "revolted", "ai"])
def test_every_marker_is_drawn(flag: str) -> None:
    base = _names_only(tuple("abcdef"))
    seats = list(base.seats)
    marked: dict[str, Any] = {flag: True}
    seats[4] = dataclasses.replace(seats[4], **marked)
    assert _differs(base, dataclasses.replace(base, seats=tuple(seats)))


def test_all_markers_at_once_fit_the_plate() -> None:
    base = _names_only(tuple("abcdef"))
    seats = list(base.seats)
    seats[0] = dataclasses.replace(
        seats[0], declared=True, opened=True, headless=True, revolted=True, ai=True
    )
    crowded = render_table(dataclasses.replace(base, seats=tuple(seats)), lang="en")
    assert (
        ImageChops.difference(
            _blank_plates(render_table(base, lang="en")), _blank_plates(crowded)
        ).getbbox()
        is None
    )


@pytest.mark.parametrize(
    "change",
    [
        {"to_act": (3,)},
        {"melee": True},
        {"burn": Burn(burner=1, burned=2)},
        {"counter": CardCounter(1, 2, 3)},
        {"standing": "KK", "standing_seat": 1},
        {"caption": "第 2 局"},
    ],
)
def test_table_state_is_drawn(change: dict) -> None:
    base = _names_only(tuple("abcdef"))
    assert _differs(base, dataclasses.replace(base, **change))


@pytest.mark.parametrize("action", ["pass", "yield", "noburn", "play 22777", "burn RRAAA"])
def test_last_actions_are_drawn(action: str) -> None:
    base = _names_only(tuple("abcdef"))
    seats = list(base.seats)
    seats[2] = dataclasses.replace(seats[2], last_action=LastAction.parse(action))
    assert _differs(base, dataclasses.replace(base, seats=tuple(seats)))


def test_places_are_drawn() -> None:
    base = _names_only(tuple("abcdef"))
    seats = list(base.seats)
    seats[5] = dataclasses.replace(seats[5], place=1, cards_left=0)
    first = dataclasses.replace(base, seats=tuple(seats))
    seats[5] = dataclasses.replace(seats[5], place=6)
    assert _differs(base, first) and _differs(first, dataclasses.replace(base, seats=tuple(seats)))


def test_a_long_standing_hand_fits() -> None:
    view = dataclasses.replace(
        _names_only(tuple("abcdef")), standing="RRRR BBBB 2222 2222 AAAA AAAA", standing_seat=0
    )
    assert render_table(view).size == (WIDTH, HEIGHT)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: TableView(seats=(SeatView(),) * 5), "exactly six"),
        (lambda: TableView(seats=(SeatView(),) * 6, standing="KK"), "go together"),
        (lambda: TableView(seats=(SeatView(),) * 6, to_act=(6,)), "seat number"),
        (lambda: SeatView(place=7), "place 1-6"),
        (lambda: SeatView(cards_left=-1), "cards_left"),
        (lambda: LastAction("fold"), "unknown action"),
        (lambda: LastAction("play"), "needs cards"),
        (lambda: Burn(burner=0, burned=9), "seat number"),
        (lambda: CardCounter(big_jokers=5), "0-4"),
    ],
)
def test_bad_views_are_refused(make, message: str) -> None:
    with pytest.raises(RenderInputError, match=message):
        make()


def test_bad_standing_cards_are_refused() -> None:
    view = dataclasses.replace(_names_only(tuple("abcdef")), standing="KX", standing_seat=0)
    with pytest.raises(RenderInputError, match="unknown card"):
        render_table(view)
    with pytest.raises(RenderInputError, match="TableView"):
        render_table("not a view")  # type: ignore[arg-type]


def test_card_counter_stays_in_its_panel() -> None:
    base = _names_only(tuple("abcdef"))
    full = render_table(dataclasses.replace(base, counter=CardCounter(4, 4, 16)))
    none = render_table(dataclasses.replace(base, counter=CardCounter(0, 0, 0)))
    box = ImageChops.difference(full, none).getbbox()
    assert box is not None
    x0, y0, x1, y1 = box
    assert x0 >= 24 and y0 >= 22 and x1 <= 24 + 306 and y1 <= 22 + 112


# ----------------------------------------------------------------- every hand (录像)
def test_every_hand_is_drawn_under_the_table_and_the_table_is_unchanged() -> None:
    from render.table import hands_height

    view = demo.demo_replay_table()
    image = render_table(view)
    assert image.size == (WIDTH, HEIGHT + hands_height())
    plain = render_table(dataclasses.replace(view, hands=()))
    assert plain.size == (WIDTH, HEIGHT)
    assert ImageChops.difference(image.crop((0, 0, WIDTH, HEIGHT)), plain).getbbox() is None


def test_each_hand_shows_in_its_own_row() -> None:
    from render.table import HAND_NAME_W, HAND_ROW_H, HANDS_TOP_PAD

    view = demo.demo_replay_table()
    image = render_table(view)
    top = HEIGHT + HANDS_TOP_PAD - 8
    for row in range(6):
        seat = (view.bottom_seat + row) % 6
        strip = image.crop(
            (
                HAND_NAME_W + 120,
                top + row * HAND_ROW_H + 12,
                WIDTH - 40,
                top + (row + 1) * HAND_ROW_H - 12,
            )
        )
        lightest = strip.convert("L").getextrema()[1]
        assert isinstance(lightest, int | float)  # one band: (darkest, lightest)
        # card faces are near white; an empty hand's row is dark panel and muted text only
        assert (lightest > 240) == bool(view.hands[seat]), (seat, lightest)


def test_hands_must_be_six() -> None:
    with pytest.raises(RenderInputError, match="six"):
        dataclasses.replace(demo.demo_table(), hands=("33",) * 5)


def test_bad_hand_cards_are_refused() -> None:
    hands = ("33", "44", "5X", "66", "77", "88")
    with pytest.raises(RenderInputError, match="hands"):
        render_table(dataclasses.replace(demo.demo_table(), hands=hands))
