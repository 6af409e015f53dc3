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
from .encode import palette_of, to_palette
from .errors import RenderInputError
from .fonts import display_name, font
from .labels import check_lang, word

CARD_W = 150
CARD_H = card_height(CARD_W)
STACK_EXTRA = 34  # room to the right of the front card for the edges of the rest
MAX_STEP = 9
MARGIN = 30
HEADER = 80
LIFT = 24  # highlighted cards stand this much higher
MAX_COLS = 6
SHADOW = 9
GLOW = 16
MAX_DRAWN = 16  # cards drawn per stack; the badge tells the true count
BADGE = (229, 72, 59)
# A stack's tile: its part of the picture, on the felt. Round the front card's top left it
# reaches the glow's width to the left, its count's badge on a lifted card above, its shadow
# below; tiles sit side by side, so a picture is its heading and its tiles pasted whole.
TILE_LEFT = GLOW
TILE_ABOVE = LIFT + 21
TILE_W = CARD_W + STACK_EXTRA + 2 * GLOW
TILE_H = TILE_ABOVE + CARD_H + SHADOW + 4
GAP_X = TILE_W - (CARD_W + STACK_EXTRA)
GAP_Y = TILE_H - (CARD_H + LIFT)
HEADING_H = HEADER + LIFT - TILE_ABOVE  # the strip above the first row of tiles

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
TILES_KEPT = 256  # stack tiles kept (~170 KB each: 45 MB)
MAPPED_KEPT = 1024  # the same in the hand palette's colours (~58 KB each: 60 MB)


def stack_art(front: Card, n: int, lit: int) -> Image.Image:
    """The RGBA picture of a stack of ``n`` cards of one rank, ``front`` in front and the
    last ``lit`` highlighted (lifted and ringed): the cards behind show as blank edges to the
    right; only the visible strip of a back card is drawn. Its front card's top left is at
    ``(STACK_PAD, LIFT + STACK_PAD)``.

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


def draw_count(img: Image.Image, x: int, y: int, count: int, lifted: bool) -> None:
    """The red ``×count`` badge on the top right corner of a stack whose front card's top
    left is at ``(x, y)`` (``lifted``: that card stands :data:`LIFT` higher)."""
    top = y - (LIFT if lifted else 0)
    pill(img, (x + CARD_W - 6, top + 4), f"×{count}", 34, BADGE, anchor="mm", pad=0.3)


@lru_cache(maxsize=TILES_KEPT)
def stack_tile(front: Card, n: int, lit: int, count: int) -> Image.Image:
    """One rank's tile (RGB, :data:`TILE_W` × :data:`TILE_H`): :func:`stack_art` on the
    felt, with the badge of ``count`` cards if more than one; its front card's top left is
    at ``(TILE_LEFT, TILE_ABOVE)``. Kept: a hand's stacks are mostly those of the last
    picture, and pasting a tile whole costs a tenth of laying its layers over the felt."""
    tile = felt((TILE_W, TILE_H)).copy()
    art = stack_art(front, n, lit)
    tile.paste(art, (TILE_LEFT - STACK_PAD, TILE_ABOVE - LIFT - STACK_PAD), art)
    if count > 1:
        draw_count(tile, TILE_LEFT, TILE_ABOVE, count, lifted=lit > 0)
    return tile


@lru_cache(maxsize=MAPPED_KEPT)
def _mapped_tile(front: Card, n: int, lit: int, count: int) -> Image.Image:
    return to_palette(stack_tile(front, n, lit, count), hand_palette())


@lru_cache(maxsize=64)
def _heading(width: int, lang: str, title: str | None, count: int) -> Image.Image:
    """The strip above the tiles (RGB, ``width`` × :data:`HEADING_H`): 手牌 / Hand or
    ``title`` on the left, the number of cards on the right."""
    strip = felt((width, HEADING_H)).copy()
    draw = ImageDraw.Draw(strip)
    heading = display_name(title, font(30), width * 0.6) if title else word("hand", lang)
    middle = HEADER // 2 - 4
    draw.text(
        (MARGIN, middle), heading, font=font(30, bold=not title), fill=theme.FELT_TEXT, anchor="lm"
    )
    number = f"{count} {word('cards', lang)}"
    draw.text(
        (width - MARGIN, middle),
        number,
        font=font(30, bold=True),
        fill=theme.FELT_MUTED,
        anchor="rm",
    )
    return strip


@lru_cache(maxsize=64)
def _mapped_heading(width: int, lang: str, title: str | None, count: int) -> Image.Image:
    return to_palette(_heading(width, lang, title, count), hand_palette())


@lru_cache(maxsize=1)
def hand_palette() -> Image.Image:
    """The 256 colours every hand picture is drawn in (``render_hand(..., mapped=True)``),
    chosen once from the colours any hand picture has: every rank's face in every suit,
    both jokers, cards lit and not, a count, the heading in each language."""
    hands = []
    for i, suit in enumerate("shdc"):
        every_rank = "".join(f"{rank}{suit}" for rank in RANK_LETTERS[:13])
        hands.append(
            render_hand(f"{every_rank}3{suit}BR", highlight=f"3{suit}R", lang=("zh", "en")[i % 2])
        )
    return palette_of(hands)


def render_hand(
    cards: CardsLike,
    highlight: CardsLike | None = None,
    lang: str = "zh",
    title: str | None = None,
    mapped: bool = False,
) -> Image.Image:
    """Draw a hand (card notation or cards), grouped by rank low to high with counts.

    ``highlight`` cards (a hint, tribute just received) are lifted and ringed in gold; they must
    be in the hand. ``title`` replaces the heading (default 手牌 / Hand). Returns an RGB image at
    most 1324 px wide, or with ``mapped`` the same picture in :func:`hand_palette`'s colours
    (mode P, as ``to_palette(render_hand(...), hand_palette())`` gives it), made from pieces
    mapped once and kept: a third of the time. Raises :class:`RenderInputError` on bad cards
    or highlights.
    """
    check_lang(lang)
    hand = as_cards(cards, "hand")
    normal, lit = _split_highlight(hand, as_cards(highlight, "highlight"))
    ranks = sorted({c.rank for c in hand})
    if not ranks:
        empty = _empty_hand(lang, title)
        return to_palette(empty, hand_palette()) if mapped else empty
    cols, rows = _layout(len(ranks))
    slot_w = CARD_W + STACK_EXTRA
    width = max(2 * MARGIN + cols * slot_w + (cols - 1) * GAP_X, 520)
    row_h = CARD_H + LIFT + GAP_Y
    height = HEADER + rows * row_h + MARGIN - GAP_Y + 6
    if mapped:
        img = Image.new("P", (width, height), _felt_index())
        img.putpalette(hand_palette().getpalette() or [])
        heading, tile = _mapped_heading, _mapped_tile
    else:
        img = felt((width, height)).copy()
        heading, tile = _heading, stack_tile
    img.paste(heading(width, lang, title, len(hand)), (0, 0))
    grid_w = cols * slot_w + (cols - 1) * GAP_X
    left = (width - grid_w) // 2
    for i, rank in enumerate(ranks):
        row, col = divmod(i, cols)
        x = left + col * (slot_w + GAP_X)
        y = HEADER + LIFT + row * row_h
        group_lit = [c for c in lit if c.rank == rank]
        stack = [c for c in normal if c.rank == rank] + group_lit
        drawn = stack[-MAX_DRAWN:]  # back to front
        lifted = min(len(group_lit), len(drawn))
        img.paste(tile(drawn[-1], len(drawn), lifted, len(stack)), (x - TILE_LEFT, y - TILE_ABOVE))
    return img


def _empty_hand(lang: str, title: str | None) -> Image.Image:
    """An empty hand: the heading and "no cards" (RGB)."""
    img = felt((520, HEADER + 150)).copy()
    img.paste(_heading(img.width, lang, title, 0), (0, 0))
    ImageDraw.Draw(img).text(
        (img.width // 2, HEADER + 70),
        word("no_cards", lang),
        font=font(40, bold=True),
        fill=theme.FELT_MUTED,
        anchor="mm",
    )
    return img


@lru_cache(maxsize=1)
def _felt_index() -> int:
    """The felt's colour in the hand palette."""
    index = to_palette(felt((1, 1)), hand_palette()).getpixel((0, 0))
    assert isinstance(index, int)
    return index
