"""Card faces, backs, shadows and highlight glows, drawn by our own code and cached.

Each picture is drawn once per (rank, suit, width) at four times its size and scaled down
(smooth edges on the rounded corners and the crown), then kept in a module-level cache, so
drawing a hand is mostly pasting.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from . import theme
from .fonts import font

SS = 4  # supersampling factor for the cached art
RANK_TEXT = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "小王", "大王")
SMALL_JOKER, BIG_JOKER = 13, 14
UNDERLINED = frozenset(
    {3, 6}
)  # 6 and 9: underlined, as on real cards, so neither reads as the other
SUIT_GLYPH = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
JOKER_TEXT = "JOKER"  # across a joker, under its crown
ASPECT = 1.4  # height / width


def card_height(width: int) -> int:
    """The height of a card ``width`` px wide."""
    return round(width * ASPECT)


def ink_colour(rank: int, suit: str | None) -> theme.RGB:
    """Red for hearts, diamonds and the big joker; dark grey for the small joker; else black."""
    if rank == BIG_JOKER or suit in ("h", "d"):
        return theme.CARD_RED
    if rank == SMALL_JOKER:
        return theme.CARD_JOKER_SMALL
    return theme.CARD_BLACK


def _text_image(
    text: str, size: int, colour: theme.RGB, max_width: int | None = None
) -> Image.Image:
    """``text`` in bold as a tight RGBA image, squeezed horizontally to ``max_width``."""
    face = font(size, bold=True)
    left, top, right, bottom = face.getbbox(text)
    img = Image.new("RGBA", (round(right - left), round(bottom - top)), colour + (0,))
    ImageDraw.Draw(img).text((-left, -top), text, font=face, fill=colour + (255,))
    if max_width and img.width > max_width:
        img = img.resize((max_width, img.height), Image.Resampling.LANCZOS)
    return img


def _crown(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    colour: theme.RGB,
    solid: bool,
) -> None:
    """A three-pointed crown in ``box`` (x0, y0, x1, y1), solid or drawn as an outline."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def p(u: float, v: float) -> tuple[float, float]:
        return (x0 + u * w, y0 + v * h)

    outline = [
        p(0.04, 0.86),
        p(0.0, 0.28),
        p(0.28, 0.56),
        p(0.5, 0.12),
        p(0.72, 0.56),
        p(1.0, 0.28),
        p(0.96, 0.86),
    ]
    line = max(2, round(w * 0.07))
    if solid:
        draw.polygon(outline, fill=colour)
    else:
        draw.line(outline + [outline[0]], fill=colour, width=line, joint="curve")
    draw.rounded_rectangle([p(0.04, 0.9), p(0.96, 1.0)], radius=h * 0.04, fill=colour)
    r = w * 0.075
    for u, v in ((0.0, 0.24), (0.5, 0.07), (1.0, 0.24)):
        cx, cy = p(u, v)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
    if solid:  # jewels on the band
        jr = w * 0.045
        for u in (0.3, 0.5, 0.7):
            cx, cy = p(u, 0.72)
            draw.ellipse([cx - jr, cy - jr, cx + jr, cy + jr], fill=theme.HIGHLIGHT)


def _index_image(rank: int, size: int, ink: theme.RGB, max_width: int) -> Image.Image:
    """A card's rank index; 6 and 9 with a bar under the glyph (the way real cards tell them
    apart when a card is seen upside down)."""
    glyph = _text_image(RANK_TEXT[rank], size, ink, max_width=max_width)
    if rank not in UNDERLINED:
        return glyph
    gap, bar = max(2, round(size * 0.06)), max(3, round(size * 0.09))
    img = Image.new("RGBA", (glyph.width, glyph.height + gap + bar), ink + (0,))
    img.alpha_composite(glyph, (0, 0))
    ImageDraw.Draw(img).rectangle(
        [0, glyph.height + gap, glyph.width - 1, glyph.height + gap + bar - 1], fill=ink + (255,)
    )
    return img


@lru_cache(maxsize=512)
def card_face(rank: int, suit: str | None, width: int) -> Image.Image:
    """The face of one card, ``width`` px wide, RGBA with transparent rounded corners.

    Every index is drawn upright (never rotated: an upside-down 6 reads as a 9, and in an
    overlapped row only the last card shows its far corner), 6 and 9 underlined."""
    W, H = width * SS, card_height(width) * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = round(W * 0.085)
    joker = rank >= SMALL_JOKER
    draw.rounded_rectangle(
        [0, 0, W - 1, H - 1],
        radius=radius,
        fill=theme.CARD_FACE + (255,),
        outline=theme.CARD_EDGE + (255,),
        width=round(SS * 1.25),
    )
    ink = ink_colour(rank, suit)
    pad_x, pad_y = round(W * 0.07), round(W * 0.06)
    if joker:
        _draw_joker(img, draw, rank, ink, pad_x, pad_y)
    else:
        index = _index_image(rank, round(W * 0.44), ink, max_width=round(W * 0.44))
        centre_x = pad_x + round(W * 0.2)
        img.alpha_composite(index, (max(pad_x // 2, centre_x - index.width // 2), pad_y))
        if suit:
            pip = _text_image(SUIT_GLYPH[suit], round(W * 0.24), ink)
            img.alpha_composite(
                pip, (centre_x - pip.width // 2, pad_y + index.height + round(W * 0.06))
            )
            big = _text_image(SUIT_GLYPH[suit], round(W * 0.56), ink)
            img.alpha_composite(
                big, (W - big.width - pad_x, H - big.height - pad_y - round(W * 0.04))
            )
        else:  # plain card: the index again, upright, in the far corner
            img.alpha_composite(
                index,
                (
                    W - index.width - max(pad_x // 2, centre_x - index.width // 2),
                    H - index.height - pad_y,
                ),
            )
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)


def _draw_joker(
    img: Image.Image, draw: ImageDraw.ImageDraw, rank: int, ink: theme.RGB, pad_x: int, pad_y: int
) -> None:
    """大王 / 小王: the two characters stacked as the index, a crown and JOKER in the middle."""
    W, H = img.size
    big = rank == BIG_JOKER
    y = pad_y
    for ch in RANK_TEXT[rank]:
        glyph = _text_image(ch, round(W * 0.3), ink)
        img.alpha_composite(glyph, (pad_x + round(W * 0.2) - glyph.width // 2, y))
        y += glyph.height + round(W * 0.05)
    crown_w = W * 0.52
    cx, cy = W * 0.6, H * 0.6
    _crown(
        draw,
        (cx - crown_w / 2, cy - crown_w * 0.42, cx + crown_w / 2, cy + crown_w * 0.42),
        ink,
        solid=big,
    )
    label = _text_image(JOKER_TEXT, round(W * 0.13), ink)
    img.alpha_composite(label, (round(cx - label.width / 2), round(cy + crown_w * 0.55)))


@lru_cache(maxsize=16)
def card_blank(width: int) -> Image.Image:
    """A card with nothing on it: the edges of the cards behind the front one in a stack."""
    W, H = width * SS, card_height(width) * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        [0, 0, W - 1, H - 1],
        radius=round(W * 0.085),
        fill=(244, 244, 240, 255),
        outline=theme.CARD_EDGE + (255,),
        width=round(SS * 1.25),
    )
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def card_back(width: int) -> Image.Image:
    """The back of a card: blue with a lattice and a 够 seal, RGBA."""
    W, H = width * SS, card_height(width) * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = round(W * 0.085)
    draw.rounded_rectangle([0, 0, W - 1, H - 1], radius=radius, fill=(250, 250, 250, 255))
    inset = round(W * 0.07)
    inner = Image.new("RGBA", (W - 2 * inset, H - 2 * inset), theme.CARD_BACK + (255,))
    idraw = ImageDraw.Draw(inner)
    step = max(SS * 4, round(W * 0.12))
    for k in range(-inner.height, inner.width + inner.height, step):
        idraw.line([(k, 0), (k + inner.height, inner.height)], fill=theme.CARD_BACK_LINE, width=SS)
        idraw.line([(k, inner.height), (k + inner.height, 0)], fill=theme.CARD_BACK_LINE, width=SS)
    mask = Image.new("L", inner.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        [0, 0, inner.width - 1, inner.height - 1], radius=radius // 2, fill=255
    )
    img.paste(inner, (inset, inset), mask)
    r = W * 0.26
    cx, cy = W / 2, H / 2
    draw.ellipse(
        [cx - r, cy - r, cx + r, cy + r],
        fill=(250, 250, 250, 255),
        outline=theme.CARD_RED + (255,),
        width=SS * 2,
    )
    seal = _text_image("够", round(r * 1.3), theme.CARD_RED)
    img.alpha_composite(seal, (round(cx - seal.width / 2), round(cy - seal.height / 2)))
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def card_shadow(width: int, spread: int) -> Image.Image:
    """A soft shadow for a card, ``spread`` px larger on each side than the card."""
    w, h = width + 2 * spread, card_height(width) + 2 * spread
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        [spread, spread, spread + width - 1, spread + card_height(width) - 1],
        radius=round(width * 0.085),
        fill=(0, 0, 0, 110),
    )
    return img.filter(ImageFilter.GaussianBlur(spread / 2.5))


@lru_cache(maxsize=16)
def highlight_glow(width: int, height: int, spread: int) -> Image.Image:
    """A soft golden glow around a ``width`` x ``height`` box, ``spread`` px larger each side."""
    w, h = width + 2 * spread, height + 2 * spread
    glow = Image.new("RGBA", (w, h), theme.HIGHLIGHT + (0,))
    box = [spread // 2, spread // 2, w - spread // 2, h - spread // 2]
    ImageDraw.Draw(glow).rounded_rectangle(
        box, radius=round(spread * 1.5), fill=theme.HIGHLIGHT + (255,)
    )
    return glow.filter(ImageFilter.GaussianBlur(spread / 3))


@lru_cache(maxsize=16)
def highlight_ring(width: int) -> Image.Image:
    """A gold border to lay over a highlighted card's face."""
    W, H = width * SS, card_height(width) * SS
    img = Image.new("RGBA", (W, H), theme.HIGHLIGHT + (0,))
    ImageDraw.Draw(img).rounded_rectangle(
        [0, 0, W - 1, H - 1],
        radius=round(W * 0.085),
        outline=theme.HIGHLIGHT + (255,),
        width=round(W * 0.03),
    )
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)
