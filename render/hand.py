"""A player's hand as a picture: cards grouped by rank, low to high, one stack per rank with
its count, optional highlighted cards lifted and ringed in gold."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from math import ceil

from PIL import Image, ImageDraw

from engine.cards import RANK_LETTERS, Card, CardError, parse_cards

from . import theme
from .cards import card_blank, card_face, card_height, card_shadow, highlight_glow, highlight_ring
from .draw import felt, pill
from .encode import palette_of
from .errors import RenderInputError
from .fonts import display_name, font
from .labels import check_lang, word

CARD_W = 150
CARD_H = card_height(CARD_W)
STACK_EXTRA = 34  # room to the right of the front card for the edges of the rest
MAX_STEP = 9
GAP_X, GAP_Y = 22, 26
MARGIN = 30
HEADER = 80
LIFT = 24  # highlighted cards stand this much higher
MAX_COLS = 6
SHADOW = 9
GLOW = 16
MAX_DRAWN = 16  # cards drawn per stack; the badge tells the true count
BADGE = (229, 72, 59)

CardsLike = str | Iterable[Card]


def as_cards(cards: CardsLike | None, what: str = "cards") -> list[Card]:
    """Card notation text or an iterable of cards (anything with ``rank`` and ``suit``)."""
    if cards is None:
        return []
    if isinstance(cards, str):
        try:
            return parse_cards(cards)
        except CardError as exc:
            raise RenderInputError(f"{what}: {exc}") from exc
    out = []
    for card in cards:
        rank, suit = getattr(card, "rank", None), getattr(card, "suit", None)
        if (
            not isinstance(rank, int)
            or not 0 <= rank <= 14
            or suit not in (None, "s", "h", "d", "c")
        ):
            raise RenderInputError(
                f"{what}: rank={rank!r} suit={suit!r} is not a card (rank 0-14, suit s/h/d/c or None)"
            )
        out.append(Card(rank, suit))
    return out


def _split_highlight(hand: list[Card], highlight: list[Card]) -> tuple[list[Card], list[Card]]:
    """(normal cards, highlighted cards); each highlighted card must be in the hand (matched by
    rank, and by suit when the highlight names one)."""
    rest = sorted(hand, key=lambda c: (c.rank, c.suit or "z"))
    lit: list[Card] = []
    for want in highlight:
        match = next(
            (c for c in rest if c.rank == want.rank and (want.suit is None or c.suit == want.suit)),
            None,
        )
        if match is None:
            held = any(c.rank == want.rank and (want.suit in (None, c.suit)) for c in hand)
            problem = (
                "more often than the hand holds it" if held else "but the hand does not hold it"
            )
            raise RenderInputError(
                f"highlight names {want} {problem}: highlight only cards of the hand"
            )
        rest.remove(match)
        lit.append(match)
    return rest, lit


def _layout(groups: int) -> tuple[int, int]:
    """(columns, rows) for ``groups`` stacks: at most MAX_COLS per row, rows balanced."""
    rows = max(1, ceil(groups / MAX_COLS))
    return max(1, ceil(groups / rows)), rows


STACK_PAD = max(GLOW, SHADOW) + 4  # room round a stack's art for its shadows and glow
STACKS_KEPT = 256  # stack pictures kept (~240 KB each: 60 MB)


def _draw_stack(img: Image.Image, x: int, y: int, normal: list[Card], lit: list[Card]) -> None:
    """One rank's stack (:func:`stack_art`) at ``(x, y)``, the front card's top left."""
    stack = (normal + lit)[-MAX_DRAWN:]  # back to front
    art = stack_art(stack[-1], len(stack), min(len(lit), len(stack)))
    img.paste(art, (x - STACK_PAD, y - LIFT - STACK_PAD), art)


@lru_cache(maxsize=STACKS_KEPT)
def stack_art(front: Card, n: int, lit: int) -> Image.Image:
    """The RGBA picture of a stack of ``n`` cards of one rank, ``front`` in front and the
    last ``lit`` highlighted (lifted and ringed): the cards behind show as blank edges to the
    right; only the visible strip of a back card is drawn. Its front card's top left is at
    ``(STACK_PAD, LIFT + STACK_PAD)``. Kept: a hand's stacks are mostly those of the last
    picture, and one paste of a stack costs a fifth of pasting its cards, shadows and glow.

    >>> stack_art(Card(5, "s"), 3, 0).size
    (224, 274)
    """
    step = min(MAX_STEP, STACK_EXTRA / (n - 1)) if n > 1 else 0
    first_lit = n - lit
    shadow = card_shadow(CARD_W, SHADOW)
    blank = card_blank(CARD_W)
    strip_w = int(step) + 3
    strip = blank.crop((CARD_W - strip_w, 0, CARD_W, CARD_H))
    size = (CARD_W + STACK_EXTRA + 2 * STACK_PAD, CARD_H + LIFT + 2 * STACK_PAD)
    art = Image.new("RGBA", size, (0, 0, 0, 0))
    x, y = STACK_PAD, LIFT + STACK_PAD
    lay = art.alpha_composite  # the layers in order, over what is already laid
    for i in range(n):
        k = n - 1 - i  # 0 for the front card
        cx = round(x + k * step)
        cy = y - (LIFT if i >= first_lit else 0)
        if i == first_lit:
            lay(highlight_glow(CARD_W + round(k * step), CARD_H, GLOW), (x - GLOW, cy - GLOW))
        if i == 0 or k == 0 or i == first_lit:
            lay(shadow, (cx - SHADOW + 2, cy - SHADOW + 4))
        if k == 0:
            lay(card_face(front.rank, front.suit, CARD_W), (cx, cy))
            if lit:
                lay(highlight_ring(CARD_W), (cx, cy))
        elif i == 0 or i == first_lit:
            lay(blank, (cx, cy))
        else:
            lay(strip, (cx + CARD_W - strip_w, cy))
    return art


@lru_cache(maxsize=1)
def hand_palette() -> Image.Image:
    """The 256 colours every hand picture is encoded with (``to_png(picture,
    palette=hand_palette())``), chosen once from the colours any hand picture has: every
    rank's face in every suit, both jokers, cards lit and not, a count, the heading in each
    language."""
    hands = []
    for i, suit in enumerate("shdc"):
        every_rank = "".join(f"{rank}{suit}" for rank in RANK_LETTERS[:13])
        hands.append(
            render_hand(f"{every_rank}3{suit}BR", highlight=f"3{suit}R", lang=("zh", "en")[i % 2])
        )
    return palette_of(hands)


def render_hand(
    cards: CardsLike, highlight: CardsLike | None = None, lang: str = "zh", title: str | None = None
) -> Image.Image:
    """Draw a hand (card notation or cards), grouped by rank low to high with counts.

    ``highlight`` cards (a hint, tribute just received) are lifted and ringed in gold; they must
    be in the hand. ``title`` replaces the heading (default 手牌 / Hand). Returns an RGB image at
    most 1244 px wide; raises :class:`RenderInputError` on bad cards or highlights.
    """
    check_lang(lang)
    hand = as_cards(cards, "hand")
    normal, lit = _split_highlight(hand, as_cards(highlight, "highlight"))
    ranks = sorted({c.rank for c in hand})
    cols, rows = _layout(len(ranks))
    slot_w = CARD_W + STACK_EXTRA
    width = max(2 * MARGIN + cols * slot_w + (cols - 1) * GAP_X, 520)
    row_h = CARD_H + LIFT + GAP_Y
    height = HEADER + rows * row_h + MARGIN - GAP_Y + 6 if ranks else HEADER + 150
    img = felt((width, height)).copy()
    draw = ImageDraw.Draw(img)
    heading = display_name(title, font(30), width * 0.6) if title else word("hand", lang)
    draw.text(
        (MARGIN, HEADER // 2 - 4),
        heading,
        font=font(30, bold=not title),
        fill=theme.FELT_TEXT,
        anchor="lm",
    )
    count = f"{len(hand)} {word('cards', lang)}"
    draw.text(
        (width - MARGIN, HEADER // 2 - 4),
        count,
        font=font(30, bold=True),
        fill=theme.FELT_MUTED,
        anchor="rm",
    )
    if not ranks:
        draw.text(
            (width // 2, HEADER + 70),
            word("no_cards", lang),
            font=font(40, bold=True),
            fill=theme.FELT_MUTED,
            anchor="mm",
        )
        return img
    grid_w = cols * slot_w + (cols - 1) * GAP_X
    left = (width - grid_w) // 2
    for i, rank in enumerate(ranks):
        row, col = divmod(i, cols)
        x = left + col * (slot_w + GAP_X)
        y = HEADER + LIFT + row * row_h
        group_normal = [c for c in normal if c.rank == rank]
        group_lit = [c for c in lit if c.rank == rank]
        _draw_stack(img, x, y, group_normal, group_lit)
        total = len(group_normal) + len(group_lit)
        if total > 1:
            top = y - (LIFT if group_lit else 0)
            pill(img, (x + CARD_W - 6, top + 4), f"×{total}", 34, BADGE, anchor="mm", pad=0.3)
    return img
