"""6 and 9 are never confused on any picture that shows cards: the table (the standing hand
and the last plays), a replay (every hand under the table), a review item (a hand with a
title and the play lifted) and a hand.

Each picture is drawn twice, once with 6s and once with 9s in the same places; where the two
differ are the index glyphs. Every glyph region of a 6 must read as an upright 6 — closer to
the 6 index than to the 9 index, and than to a 9 turned upside down — and the same for the 9s.
A rotated index (the old far-corner index of a plain card) fails: an upside-down 6 is a 9.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

from render.cards import card_face
from render.hand import render_hand
from render.models import LastAction, SeatView, TableView
from render.table import render_table

from .helpers import mean_difference

CELL = 3  # px: the difference mask is looked at in cells of this size
BELOW = 0.25  # a region is widened by this share of its height downwards (the bar)


def _regions(six: Image.Image, nine: Image.Image) -> list[tuple[int, int, int, int]]:
    """The boxes where the two pictures differ, one per connected group of cells."""
    diff = ImageChops.difference(six.convert("L"), nine.convert("L")).point(
        lambda v: 255 if v > 60 else 0
    )
    cols, rows = diff.width // CELL, diff.height // CELL
    small = diff.resize((cols, rows), Image.Resampling.BOX).point(lambda v: 255 if v else 0)
    on = small.load()
    assert on is not None
    seen: set[tuple[int, int]] = set()
    boxes = []
    for y in range(rows):
        for x in range(cols):
            if not on[x, y] or (x, y) in seen:
                continue
            stack, cells = [(x, y)], []
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                cells.append((cx, cy))
                for nx in range(cx - 1, cx + 2):
                    for ny in range(cy - 1, cy + 2):
                        if 0 <= nx < cols and 0 <= ny < rows and on[nx, ny]:
                            if (nx, ny) not in seen:
                                seen.add((nx, ny))
                                stack.append((nx, ny))
            xs, ys = [c[0] for c in cells], [c[1] for c in cells]
            box = (min(xs) * CELL, min(ys) * CELL, (max(xs) + 1) * CELL, (max(ys) + 1) * CELL)
            if (box[2] - box[0]) * (box[3] - box[1]) >= 36:  # not a stray pixel of smoothing
                boxes.append(box)
    return boxes


def _crop(img: Image.Image, box: tuple[int, ...], pad: int) -> Image.Image:
    """The region ``box`` widened by ``pad`` downwards (the bar under 6 and 9), grey."""
    x0, y0, x1, y1 = box
    return img.convert("L").crop((x0, y0, x1, y1 + pad))


def _reference(width: int) -> tuple[Image.Image, Image.Image, int, int]:
    """The upright 6 and 9 index of a card ``width`` px wide on white, the padding that
    takes in their bar and the height of the glyphs' region."""
    flat = []
    for rank in (3, 6):  # 6 and 9
        face = card_face(rank, None, width)
        back = Image.new("RGB", face.size, (255, 255, 255))
        back.paste(face, (0, 0), face)
        flat.append(back)
    x0, y0, x1, y1 = min(_regions(*flat), key=lambda b: (b[1], b[0]))
    pad = round((y1 - y0) * BELOW)
    box = (x0, y0, x1, y1)
    return _crop(flat[0], box, pad), _crop(flat[1], box, pad), pad, y1 - y0


def _like(region: Image.Image, reference: Image.Image) -> float:
    """How far ``region`` (maybe the visible left part of an index) is from ``reference``
    aligned on its top left corner: 0 the same, up to 255."""
    w, h = min(region.width, reference.width), min(region.height, reference.height)
    return mean_difference(region.crop((0, 0, w, h)), reference.crop((0, 0, w, h)))


def _assert_read_right(
    draw: Callable[[str], Image.Image], widths: tuple[int, ...], least: int
) -> None:
    """Every index drawn for 6s reads as a 6, for 9s as a 9 (upright, not a turned 9/6);
    ``widths``: the card widths the picture draws (each glyph is compared with the index of
    the width whose 6 or 9 comes closest, whichever digit that is)."""
    six_picture, nine_picture = draw("6"), draw("9")
    boxes = _regions(six_picture, nine_picture)
    assert len(boxes) >= least, f"only {len(boxes)} index glyphs found"
    references = [_reference(w) for w in widths]
    for box in boxes:

        def nearest(
            r: tuple[Image.Image, Image.Image, int, int], box: tuple[int, ...] = box
        ) -> float:
            six = _crop(six_picture, box, r[2])
            return min(_like(six, r[0]), _like(six, r[1]))

        ref6, ref9, pad, _ = min(references, key=nearest)
        turned6, turned9 = ref6.rotate(180), ref9.rotate(180)
        six, nine = _crop(six_picture, box, pad), _crop(nine_picture, box, pad)
        assert mean_difference(six, nine) > 20, f"a 6 and a 9 look alike at {box}"
        as6, as9, as_turned9 = (_like(six, r) for r in (ref6, ref9, turned9))
        assert as6 < as9 and as6 < as_turned9, f"the 6 at {box} reads as a 9"
        nine6, nine9, nine_turned6 = (_like(nine, r) for r in (ref6, ref9, turned6))
        assert nine9 < nine6 and nine9 < nine_turned6, f"the 9 at {box} reads as a 6"


def _table(cards: str, hands: bool = False) -> Image.Image:
    seats = [SeatView(name=f"p{s}", cards_left=20) for s in range(6)]
    seats[1] = dataclasses.replace(seats[1], last_action=LastAction("play", cards * 5))
    seats[4] = dataclasses.replace(seats[4], last_action=LastAction("play", cards * 3))
    view = TableView(seats=tuple(seats), standing=cards * 5, standing_seat=1, to_act=(2,))
    if hands:
        view = dataclasses.replace(view, hands=tuple(f"{cards}s{cards}h{cards}d" for _ in range(6)))
    return render_table(view)


def test_six_and_nine_differ_on_the_table_picture() -> None:
    # five 6s standing, five 6s and three 6s as last plays: every visible index is a 6
    _assert_read_right(_table, widths=(50, 72), least=13)


def test_six_and_nine_differ_on_the_replay_picture() -> None:
    _assert_read_right(lambda c: _table(c, hands=True), widths=(42, 50, 72), least=13 + 18)


@pytest.mark.parametrize("count", [1, 5])
def test_six_and_nine_differ_on_the_hand_picture(count: int) -> None:
    _assert_read_right(lambda c: render_hand(c * count + "3"), widths=(150,), least=1)


def test_six_and_nine_differ_on_the_review_picture() -> None:
    _assert_read_right(
        lambda c: render_hand(c * 4 + "KK", highlight=c * 2, title="step 12"),
        widths=(150,),
        least=1,
    )
