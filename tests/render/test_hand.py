"""The hand picture: grouping, counts, highlight, sizes, legibility, bad input."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

from engine.cards import Card, deal, parse_cards
from render.encode import to_palette, to_png
from render.errors import RenderInputError
from render.hand import (
    CARD_H,
    CARD_W,
    GAP_X,
    GAP_Y,
    HEADER,
    LIFT,
    MARGIN,
    STACK_EXTRA,
    STACK_PAD,
    TILE_ABOVE,
    TILE_H,
    TILE_LEFT,
    TILE_W,
    draw_count,
    hand_palette,
    render_hand,
    stack_art,
    stack_tile,
)


def test_a_dealt_hand_of_36_fits_discord() -> None:
    hand = deal(5)[0]
    assert len(hand) == 36
    image = render_hand(hand)
    assert image.mode == "RGB"
    assert image.width <= 1600
    assert len(to_png(image)) <= 300 * 1024


def test_text_and_cards_draw_the_same_picture() -> None:
    text = "3h 3s 7d 7d 7c T"
    a = render_hand(text)
    b = render_hand(parse_cards(text))
    assert ImageChops.difference(a, b).getbbox() is None


def test_one_stack_per_rank_in_rank_order() -> None:
    few = render_hand("RR 33 TTTT")
    assert few.size == render_hand("T3R3TRTT").size  # the order written does not matter
    # Three ranks need three stacks side by side; six ranks still fit one row.
    assert render_hand("3 4 5 6 7 8").height == few.height
    assert render_hand("3 4 5 6 7 8 9").height > few.height


def test_sixteen_of_a_rank_take_one_stack() -> None:
    sixteen = render_hand("9" * 16)
    one = render_hand("9")
    assert sixteen.size == one.size
    assert ImageChops.difference(sixteen, one).getbbox() is not None  # edges and the ×16 badge


def test_all_fifteen_ranks_at_most_1600_wide() -> None:
    image = render_hand("3456789TJQKA2BR" * 2 + "222222")
    assert image.width <= 1600
    assert image.height < image.width


def test_highlight_lifts_the_card() -> None:
    plain = render_hand("5 8 K")
    lit = render_hand("5 8 K", highlight="8")
    diff = ImageChops.difference(plain, lit).getbbox()
    assert diff is not None
    # Only the middle stack changes (with its glow), not the first.
    assert diff[0] > MARGIN + CARD_W
    # The lifted card stands above where the others start.
    strip = lit.crop((diff[0], HEADER, diff[2], HEADER + LIFT))
    lightest = strip.convert("L").getextrema()[1]
    assert isinstance(lightest, int | float) and lightest > 200  # one band: (darkest, lightest)


def test_highlight_by_suit_and_by_card_objects() -> None:
    by_text = render_hand("4h 4s 9", highlight="4s")
    by_cards = render_hand([Card(1, "h"), Card(1, "s"), Card(6)], highlight=[Card(1, "s")])
    assert ImageChops.difference(by_text, by_cards).getbbox() is None


@pytest.mark.parametrize(
    ("hand", "highlight", "message"),
    [("33", "4", "does not hold"), ("33", "333", "more often"), ("4h", "4s", "does not hold")],
)
def test_bad_highlight_is_refused(hand: str, highlight: str, message: str) -> None:
    with pytest.raises(RenderInputError, match=message):
        render_hand(hand, highlight=highlight)


def test_bad_cards_are_refused() -> None:
    with pytest.raises(RenderInputError, match="unknown card 'X'"):
        render_hand("33X")
    with pytest.raises(RenderInputError, match="is not a card"):
        render_hand(["3"])  # type: ignore[list-item]  # text, not a Card: a bad input on purpose
    with pytest.raises(RenderInputError, match="use one of zh, en"):
        render_hand("3", lang="fr")


def test_empty_hand() -> None:
    image = render_hand([])
    assert image.size == render_hand("").size
    assert image.width < 600


def test_languages_differ_only_in_words() -> None:
    zh, en = render_hand("3 4"), render_hand("3 4", lang="en")
    assert zh.size == en.size
    diff = ImageChops.difference(zh, en).getbbox()
    assert diff is not None and diff[3] <= HEADER  # only the heading changes


def test_rank_index_is_legible_at_400_px() -> None:
    """Downscaled to 400 px wide, the 10 and the J of a full hand still differ clearly and
    the index keeps its contrast."""
    full = render_hand("3456789TJQKA2BR" + "9" * 8)
    scale = 400 / full.width
    small = full.resize((400, round(full.height * scale)))
    index_w, index_h = round(CARD_W * 0.45 * scale), round(CARD_W * 0.5 * scale)
    assert index_h >= 14  # the rank index is at least ~14 px tall on a phone

    def index_of(rank: int):
        row, col = divmod(rank, 5)  # 15 ranks: three rows of five
        x = round((MARGIN + 4 + col * (CARD_W + STACK_EXTRA + GAP_X)) * scale)
        y = round((HEADER + LIFT + row * (CARD_H + LIFT + GAP_Y) + 6) * scale)
        return small.crop((x, y, x + index_w, y + index_h)).convert("L")

    ten, jack = index_of(7), index_of(8)
    assert ImageChops.difference(ten, jack).getbbox() is not None
    lo, hi = ten.getextrema()
    assert hi - lo > 150


def test_warm_up_draws_every_face_ahead() -> None:
    import render
    from render.cards import card_face

    render.warm_up()
    stack_tile.cache_clear()  # (the warm-up's hand palette drew these stacks already)
    before = card_face.cache_info()
    render_hand("3h 4s 5d 6c 7 8 9 T J Q K A 2 B R")
    after = card_face.cache_info()
    assert after.misses == before.misses and after.hits > before.hits


@pytest.mark.parametrize(
    ("front", "n", "lit", "count"),
    [
        (Card(14), 16, 16, 36),  # every card lifted, the widest badge
        (Card(12, "d"), 16, 1, 20),
        (Card(7, "h"), 1, 1, 1),
        (Card(0, "s"), 5, 0, 5),
        (Card(3, "c"), 2, 2, 2),
    ],
)
def test_a_stack_stays_inside_its_tile(front: Card, n: int, lit: int, count: int) -> None:
    # tiles are pasted whole, side by side: any of a stack (glow, shadow, badge) outside its
    # tile would be cut off by the next one
    room = 100
    canvas = Image.new("RGBA", (TILE_W + 2 * room, TILE_H + 2 * room), (0, 0, 0, 0))
    art = stack_art(front, n, lit)
    canvas.alpha_composite(
        art, (room + TILE_LEFT - STACK_PAD, room + TILE_ABOVE - LIFT - STACK_PAD)
    )
    draw_count(canvas, room + TILE_LEFT, room + TILE_ABOVE, count, lifted=lit > 0)
    drawn = canvas.getchannel("A").getbbox()
    assert drawn is not None
    assert drawn[0] >= room and drawn[1] >= room, drawn
    assert drawn[2] <= room + TILE_W and drawn[3] <= room + TILE_H, drawn


def test_the_mapped_hand_is_the_hand_in_the_hand_palette() -> None:
    # render_hand(mapped=True) builds the picture from tiles mapped once: pixel for pixel what
    # mapping the whole RGB picture gives
    rng = random.Random(3)
    palette = hand_palette().getpalette()
    for i in range(30):
        dealt = deal(i)[i % 6]
        hand = rng.sample(dealt, rng.randint(0, len(dealt)))
        lit = rng.sample(hand, min(len(hand), rng.randint(0, 3))) or None
        title = "小明的手牌 ♥" if i % 7 == 0 else None
        lang = ("zh", "en")[i % 2]
        mapped = render_hand(hand, highlight=lit, lang=lang, title=title, mapped=True)
        whole = to_palette(render_hand(hand, highlight=lit, lang=lang, title=title), hand_palette())
        assert mapped.mode == "P" and mapped.getpalette() == palette
        assert mapped.size == whole.size and mapped.tobytes() == whole.tobytes(), i
