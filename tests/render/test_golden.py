"""Every picture in tests/render/cases.py matches its golden image within a tolerance."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.render.cases import CASES, golden_path
from tests.render.helpers import assert_image_similar, png_roundtrip

TOLERANCE = 1.5  # mean absolute difference per channel, of 255


@pytest.mark.parametrize("name", sorted(CASES))
def test_picture_matches_golden(name: str) -> None:
    path = golden_path(name)
    assert path.exists(), f"no golden for {name}: run python -m tests.render.regenerate"
    golden = Image.open(path).convert("RGB")
    assert_image_similar(png_roundtrip(CASES[name]()), golden, TOLERANCE)


def test_golden_comparison_notices_a_change() -> None:
    golden = Image.open(golden_path("hand_sixteen_en")).convert("RGB")
    other = png_roundtrip(CASES["hand_sixteen_en"]().transpose(Image.Transpose.FLIP_LEFT_RIGHT))
    with pytest.raises(AssertionError):
        assert_image_similar(other, golden, TOLERANCE)
