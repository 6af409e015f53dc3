"""Image comparison for the render tests (after Pillow's own ``assert_image_similar``)."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageStat

from render.encode import to_png


def png_roundtrip(image: Image.Image) -> Image.Image:
    """``image`` as a user receives it: encoded by ``to_png`` and decoded to RGB."""
    return Image.open(io.BytesIO(to_png(image))).convert("RGB")


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0 (same) to 255."""
    assert a.size == b.size, f"sizes differ: {a.size} != {b.size}"
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def assert_kept_in_palette(image: Image.Image, palette: Image.Image, what: str) -> None:
    """Fail unless ``image`` encoded with the fixed ``palette`` (``to_png(image, palette)``)
    looks as drawn: mean difference at most 1.5/255, no colour off by more than 64."""
    decoded = Image.open(io.BytesIO(to_png(image, palette=palette)))
    assert decoded.mode == "P" and decoded.size == image.size
    assert_image_similar(decoded.convert("RGB"), image, 1.5)
    difference = ImageChops.difference(decoded.convert("RGB"), image)
    worst = max(high for _low, high in ImageStat.Stat(difference).extrema)
    assert worst <= 64, f"a colour of {what} is not in the palette (off by {worst})"


def assert_image_similar(a: Image.Image, b: Image.Image, tolerance: float) -> None:
    """Fail unless ``a`` and ``b`` have the same size and differ by at most ``tolerance``."""
    difference = mean_difference(a, b)
    assert difference <= tolerance, (
        f"images differ by {difference:.3f} on average (tolerance {tolerance})"
    )
