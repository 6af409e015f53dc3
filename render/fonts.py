"""The shipped fonts, and making any user text safe to draw with them.

Fonts are loaded once per size (module-level cache) with Pillow's BASIC layout, so that the
pictures are the same with or without libraqm. User names go through :func:`clean_text`:
control and combining characters are dropped and every character the font lacks (emoji,
Arabic, ...) becomes :data:`PLACEHOLDER`, so that no name can crash a picture or break its
layout; :func:`fit_text` then shortens it with an ellipsis to a width in pixels.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

ASSETS = Path(__file__).resolve().parent / "assets"
REGULAR_FONT = ASSETS / "GoujiSansSC-Regular.otf"
BOLD_FONT = ASSETS / "GoujiSansSC-Bold.otf"
COVERAGE_FILE = ASSETS / "coverage.txt"
PLACEHOLDER = "□"
ELLIPSIS = "…"
_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zl", "Zp"}
MAX_TEXT = 200  # characters kept from any user text before measuring


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` px (bold covers labels, ranks and digits only)."""
    path = BOLD_FONT if bold else REGULAR_FONT
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1)
def coverage() -> frozenset[int]:
    """The code points the regular font draws (from assets/coverage.txt)."""
    codes: set[int] = set()
    for line in COVERAGE_FILE.read_text(encoding="ascii").split():
        lo, hi = line.split("-")
        codes.update(range(int(lo, 16), int(hi, 16) + 1))
    return frozenset(codes)


@lru_cache(maxsize=4096)
def clean_text(text: str) -> str:
    """User text made drawable: NFC, whitespace runs become one space, control and combining
    marks dropped (zalgo, bidi controls, zero-width joiners), characters the font lacks
    replaced by :data:`PLACEHOLDER` (one per run), trimmed to :data:`MAX_TEXT` characters."""
    have = coverage()
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text[: MAX_TEXT * 4]):
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if unicodedata.category(ch) in _DROP_CATEGORIES or 0xFE00 <= ord(ch) <= 0xFE0F:
            continue
        if ord(ch) not in have:
            if out and out[-1] == PLACEHOLDER:
                continue
            ch = PLACEHOLDER
        out.append(ch)
        if len(out) >= MAX_TEXT:
            break
    return "".join(out).strip()


def fit_text(text: str, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` shortened with an ellipsis so that it is at most ``max_width`` px wide."""
    if face.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if face.getlength(text[:mid] + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return (text[:lo].rstrip() + ELLIPSIS) if lo else ELLIPSIS


def display_name(
    name: str, face: ImageFont.FreeTypeFont, max_width: float, empty: str = "?"
) -> str:
    """A user name ready to draw: cleaned, ``empty`` if nothing drawable is left, fitted."""
    return fit_text(clean_text(name) or empty, face, max_width)
