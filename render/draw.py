"""Small drawing helpers shared by the pictures: backgrounds, pills, text placement."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from . import theme
from .fonts import font


@lru_cache(maxsize=32)
def felt(size: tuple[int, int]) -> Image.Image:
    """The green felt background (RGB, cached; copy before use). Flat on purpose: gradients
    band once the PNG is reduced to a palette, and a flat colour compresses to nothing."""
    return Image.new("RGB", size, theme.FELT)


SMOOTH = 3  # supersampling of rounded shapes


@lru_cache(maxsize=512)
def _rounded_art(
    w: int, h: int, radius: int, fill: theme.RGB, outline: theme.RGB | None, width: int
) -> Image.Image:
    art = Image.new("RGBA", (w * SMOOTH, h * SMOOTH), fill + (0,))
    ImageDraw.Draw(art).rounded_rectangle(
        [0, 0, w * SMOOTH - 1, h * SMOOTH - 1],
        radius=radius * SMOOTH,
        fill=fill + (255,),
        outline=outline + (255,) if outline else None,
        width=width * SMOOTH,
    )
    return art.resize((w, h), Image.Resampling.BOX)


def rounded(
    img: Image.Image,
    box: Sequence[float],
    radius: int,
    fill: theme.RGB,
    outline: theme.RGB | None = None,
    width: int = 0,
) -> None:
    """A rounded rectangle with smooth corners (drawn supersampled once per size, cached)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return
    art = _rounded_art(w, h, min(radius, h // 2, w // 2), fill, outline, width)
    img.paste(art, (x0, y0), art)


def pill(
    img: Image.Image,
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
    x: float = xy[0]
    y: float = xy[1]
    total = width + 2 * px
    if anchor[0] == "m":
        x -= total / 2
    elif anchor[0] == "r":
        x -= total
    box = (round(x), round(y - height / 2), round(x + total), round(y + height / 2))
    rounded(img, box, height // 2, fill)
    ImageDraw.Draw(img).text((x + px, y), text, font=face, fill=ink, anchor="lm")
    return box
