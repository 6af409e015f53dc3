"""Small drawing helpers shared by the pictures: backgrounds, pills, text placement."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from . import theme
from .fonts import font


@lru_cache(maxsize=32)
def gradient(size: tuple[int, int], top: theme.RGB, bottom: theme.RGB) -> Image.Image:
    """A vertical gradient from ``top`` to ``bottom`` (RGB, cached per size; copy before use)."""
    w, h = size
    column = Image.linear_gradient("L").resize((1, h))
    img = Image.composite(Image.new("RGB", (1, h), bottom), Image.new("RGB", (1, h), top), column)
    return img.resize((w, h), Image.Resampling.NEAREST)


@lru_cache(maxsize=32)
def felt(size: tuple[int, int]) -> Image.Image:
    """The green felt background (RGB, cached; copy before use). Flat on purpose: gradients
    band once the PNG is reduced to a palette, and a flat colour compresses to nothing."""
    return Image.new("RGB", size, theme.FELT)


def text_size(text: str, face: ImageFont.FreeTypeFont) -> tuple[int, int]:
    """Width and height of ``text`` as drawn with anchor 'lt'."""
    left, top, right, bottom = face.getbbox(text, anchor="lt")
    return right - left, bottom - top


def pill(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: theme.RGB,
    ink: theme.RGB = (255, 255, 255),
    bold: bool = True,
    anchor: str = "lm",
    pad: float = 0.45,
) -> tuple[int, int, int, int]:
    """A rounded label with ``text`` at ``xy`` (anchor l/m/r by m); returns its box."""
    face = font(size, bold=bold)
    width = face.getlength(text)
    height = round(size * 1.45)
    px = round(size * pad)
    x, y = xy
    total = width + 2 * px
    if anchor[0] == "m":
        x -= total / 2
    elif anchor[0] == "r":
        x -= total
    box = (round(x), round(y - height / 2), round(x + total), round(y + height / 2))
    draw.rounded_rectangle(box, radius=height // 2, fill=fill)
    draw.text((x + px, y), text, font=face, fill=ink, anchor="lm")
    return box
