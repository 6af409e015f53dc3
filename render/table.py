"""The table picture: six seats round the felt in play order, the standing hand in the middle.

Seat ``bottom_seat`` is drawn at the bottom; play goes counter-clockwise (bottom, lower right,
upper right, top, upper left, lower left), so seat s+3 always sits opposite seat s.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.scoring import opposite_of, team_of

from . import theme
from .cards import SS, card_back, card_face, card_height, card_shadow
from .draw import pill, rounded
from .encode import palette_of
from .errors import RenderInputError
from .fonts import display_name, font
from .hand import as_cards
from .labels import check_lang, place_name, plain_word, word
from .models import LastAction, SeatView, TableView

WIDTH, HEIGHT = 1280, 960
CENTRE = (WIDTH // 2, HEIGHT // 2 + 4)
TABLE_RADII = (430, 300)
PLATE_W, PLATE_H = 336, 128
# Plate centres by position round the table: 0 bottom, then counter-clockwise.
PLATE_CENTRES = ((640, 872), (1090, 640), (1090, 300), (640, 86), (190, 300), (190, 640))
# Where each position's last action is drawn: (x, y, anchor) — the row of cards or the bubble
# is centred on x ('m'), ends at x ('r', right-hand seats) or starts at x ('l', left-hand seats).
ACTION_ANCHORS = (
    (640, 748, "m"),
    (902, 612, "r"),
    (902, 348, "r"),
    (640, 205, "m"),
    (378, 348, "l"),
    (378, 612, "l"),
)
ACTION_SPAN = 210
MINI_W = 50
STANDING_W = 72
AVATAR = 66
# The hands panel of a replay (TableView.hands): one row per seat under the table.
HAND_ROW_H = 72
HAND_CARD_W = 42
HAND_NAME_W = 276
HAND_RANK_GAP = 6  # extra room between ranks
HANDS_TOP_PAD = 14


@lru_cache(maxsize=1)
def table_palette() -> Image.Image:
    """The 256 colours every table picture is encoded with (``to_png(picture,
    palette=table_palette())``: mapping to it takes a third of the time of choosing one),
    chosen once from tables that show every colour a table has
    (:func:`render.demo.colour_sample_tables`)."""
    from .demo import colour_sample_tables

    return palette_of([render_table(view, lang) for view, lang in colour_sample_tables()])


def position_of(seat: int, bottom_seat: int) -> int:
    """Where ``seat`` is drawn: 0 bottom, 1 lower right, ... 5 lower left (counter-clockwise)."""
    return (seat - bottom_seat) % 6


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """Felt and the table with its rim (cached; copy before use)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.PANEL_BG_BOTTOM)
    layer = Image.new("RGBA", (WIDTH * 2, HEIGHT * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    cx, cy = CENTRE[0] * 2, CENTRE[1] * 2
    rx, ry = TABLE_RADII[0] * 2, TABLE_RADII[1] * 2
    draw.ellipse([cx - rx - 34, cy - ry - 34, cx + rx + 34, cy + ry + 34], fill=(84, 52, 34, 255))
    draw.ellipse([cx - rx - 22, cy - ry - 22, cx + rx + 22, cy + ry + 22], fill=(120, 78, 48, 255))
    draw.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=theme.FELT + (255,))
    draw.ellipse(
        [cx - rx + 26, cy - ry + 26, cx + rx - 26, cy + ry - 26],
        outline=(30, 104, 70, 255),
        width=4,
    )
    layer = layer.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    img.paste(layer, (0, 0), layer)
    return img


@lru_cache(maxsize=16)
def _plate(team: int, turn: bool, dim: bool) -> Image.Image:
    """A seat's name plate: dark, edged in the team colour (gold and thicker on its turn)."""
    W, H = (PLATE_W + 16) * SS, (PLATE_H + 16) * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    o = 8 * SS
    edge = theme.TURN if turn else theme.TEAM_COLOURS[team]
    if turn:
        draw.rounded_rectangle([0, 0, W - 1, H - 1], radius=30 * SS, fill=theme.TURN + (90,))
    fill = (24, 27, 34) if dim else theme.PANEL
    draw.rounded_rectangle(
        [o, o, W - o - 1, H - o - 1],
        radius=22 * SS,
        fill=fill + (255,),
        outline=edge + (255,),
        width=(5 if turn else 3) * SS,
    )
    return img.resize((PLATE_W + 16, PLATE_H + 16), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def _avatar(team: int) -> Image.Image:
    """A round badge in the team colour."""
    d = AVATAR * SS
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse([0, 0, d - 1, d - 1], fill=theme.TEAM_COLOURS[team] + (255,))
    draw.ellipse(
        [3 * SS, 3 * SS, d - 3 * SS - 1, d - 3 * SS - 1], outline=(255, 255, 255, 120), width=2 * SS
    )
    return img.resize((AVATAR, AVATAR), Image.Resampling.LANCZOS)


def _paste(img: Image.Image, art: Image.Image, xy: tuple[float, float]) -> None:
    img.paste(art, (round(xy[0]), round(xy[1])), art)


def _anchored(x: float, span: float, anchor: str) -> float:
    """The left edge of something ``span`` wide placed at ``x`` with anchor l, m or r."""
    return {"l": x, "m": x - span / 2, "r": x - span}[anchor]


def draw_cards_row(
    img: Image.Image, cards: str, at: tuple[int, int], width: int, max_span: int, anchor: str = "m"
) -> tuple[int, int, int, int]:
    """Cards face up, overlapped, low to high, vertically centred on ``at``; returns their box."""
    hand = sorted(as_cards(cards, "cards"), key=lambda c: c.rank)
    n = len(hand)
    h = card_height(width)
    step = min(width * 0.5, (max_span - width) / (n - 1)) if n > 1 else 0
    span = width + step * (n - 1)
    x0, y0 = _anchored(at[0], span, anchor), at[1] - h / 2
    shadow = card_shadow(width, 5)
    _paste(img, shadow, (x0 - 4, y0 - 3))
    for i, card in enumerate(hand):
        _paste(img, card_face(card.rank, card.suit, width), (x0 + i * step, y0))
    return round(x0), round(y0), round(x0 + span), round(y0 + h)


def _seat_name(seat: SeatView, index: int, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """A seat's name ready to draw; ``#index`` when it has none."""
    return display_name(seat.name, face, max_width, empty=f"#{index}")


def _draw_plate(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, s: int, lang: str
) -> None:
    seat = view.seats[s]
    team = team_of(s)
    cx, cy = PLATE_CENTRES[position_of(s, view.bottom_seat)]
    turn = s in view.to_act
    x0, y0 = cx - PLATE_W // 2, cy - PLATE_H // 2
    _paste(img, _plate(team, turn, seat.revolted or seat.place is not None), (x0 - 8, y0 - 8))
    ax, ay = x0 + 16, y0 + 16
    _paste(img, _avatar(team), (ax, ay))
    name_font = font(30)
    name = _seat_name(seat, s, name_font, PLATE_W - AVATAR - 44)
    draw.text(
        (ax + AVATAR // 2, ay + AVATAR // 2),
        name[0] if name[0] != "…" else "?",
        font=font(32),
        fill=(255, 255, 255),
        anchor="mm",
    )
    tx = ax + AVATAR + 14
    draw.text((tx, y0 + 32), name, font=name_font, fill=theme.TEXT, anchor="lm")
    if seat.place is not None:
        pill(
            img,
            (tx, y0 + 70),
            place_name(seat.place, lang),
            24,
            theme.PLACE_COLOURS[seat.place],
            ink=(20, 20, 24),
        )
    elif not seat.revolted:
        back = card_back(26)
        _paste(img, back, (tx, y0 + 70 - back.height // 2))
        draw.text(
            (tx + 36, y0 + 70),
            f"{seat.cards_left}",
            font=font(32, bold=True),
            fill=theme.TEXT,
            anchor="lm",
        )
        cw = font(32, bold=True).getlength(f"{seat.cards_left}")
        draw.text(
            (tx + 42 + cw, y0 + 72),
            word("cards", lang),
            font=font(20, bold=True),
            fill=theme.MUTED,
            anchor="lm",
        )
    _draw_markers(img, seat, x0 + 16, y0 + PLATE_H - 20, PLATE_W - 32, lang)
    if view.burn is not None and s in (view.burn.burner, view.burn.burned):
        tag = word("burn", lang) if s == view.burn.burner else word("burned", lang)
        pill(img, (x0 + PLATE_W - 14, y0 + 8), tag, 20, theme.BURN, anchor="rm")
    marked = _seat_tag(view, s, lang)
    if marked is not None:
        pill(img, (x0 + 14, y0 - 2), marked[0], 20, marked[1], bold=False, anchor="lm")
    if turn:
        label_y = y0 - 14 if position_of(s, view.bottom_seat) != 3 else y0 + PLATE_H + 14
        label = "▶ " + word("to_play", lang)
        if view.clock is not None:
            label += " · " + plain_word("seconds_left", lang).format(n=view.clock)
        pill(img, (cx, label_y), label, 20, theme.TURN, ink=(30, 26, 10), bold=False, anchor="mm")


def _seat_tag(view: TableView, s: int, lang: str) -> tuple[str, theme.RGB] | None:
    """What a private picture says of a seat: "you" on the viewer's, 对家 on the opposite."""
    if view.viewer is None:
        return None
    if s == view.viewer:
        return plain_word("you", lang), theme.TEAM_COLOURS[team_of(s)]
    if s == opposite_of(view.viewer):
        return plain_word("opposite", lang), theme.OPPOSITE
    return None


# The team legend in the lower left corner: a column per team, a line per player.
LEGEND_ROW = 30
LEGEND_BOX = (24, HEIGHT - 24 - 4 * LEGEND_ROW - 20, 24 + 428, HEIGHT - 24)
LEGEND_COLUMN = (LEGEND_BOX[2] - LEGEND_BOX[0]) // 2


def legend_order(view: TableView, team: int) -> list[int]:
    """A team's seats as the legend lists them: for a viewer, the viewer (or the 对家) first,
    then in play order from there; else by seat."""
    seats = [s for s in range(6) if team_of(s) == team]
    if view.viewer is None:
        return seats
    lead = view.viewer if team_of(view.viewer) == team else opposite_of(view.viewer)
    return sorted(seats, key=lambda s: (s - lead) % 6)


def _draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, lang: str) -> None:
    """The two teams (联邦) in the lower left corner, side by side: for a viewer "your team"
    first, each under its colour with its players' names, the viewer's marked "you" and the
    opposite seat's 对家."""
    first = team_of(view.viewer) if view.viewer is not None else 0
    x0, y0 = LEGEND_BOX[:2]
    rounded(img, LEGEND_BOX, 16, theme.PANEL, theme.PANEL_LINE, 2)
    face = font(22)
    for col, team in enumerate((first, 1 - first)):
        x = x0 + 16 + col * LEGEND_COLUMN
        cy = y0 + 10 + LEGEND_ROW // 2
        colour = theme.TEAM_COLOURS[team]
        draw.ellipse([x, cy - 8, x + 16, cy + 8], fill=colour)
        if view.viewer is not None:
            name = plain_word("our_team" if team == first else "their_team", lang)
        else:
            name = word("team_a" if team == 0 else "team_b", lang)
        draw.text((x + 24, cy), name, font=font(22), fill=colour, anchor="lm")
        for row, s in enumerate(legend_order(view, team), start=1):
            y = cy + row * LEGEND_ROW
            room = LEGEND_COLUMN - 24
            marked = _seat_tag(view, s, lang)
            if marked is not None:
                room -= round(font(18).getlength(marked[0])) + 24
            seat_name = _seat_name(view.seats[s], s, face, room)
            draw.text((x, y), seat_name, font=face, fill=theme.TEXT, anchor="lm")
            if marked is not None:
                at = (x + round(face.getlength(seat_name)) + 8, y)
                pill(img, at, marked[0], 18, marked[1], bold=False, anchor="lm")


def _draw_markers(img: Image.Image, seat: SeatView, x: int, y: int, room: int, lang: str) -> None:
    """The seat's markers as small pills in one row: smaller type if they would not fit, and
    if even that is too wide, the last ones folded into a "+N" pill."""
    labels = [
        (word(k, lang), theme.MARKER_COLOURS[k])
        for k in ("declared", "opened", "headless", "revolted", "ai")
        if getattr(seat, k)
    ]

    def widths_at(size: int) -> list[int]:
        return [round(font(size, bold=True).getlength(text) + size * 0.9 + 6) for text, _ in labels]

    for size in (19, 16, 13):
        widths = widths_at(size)
        if sum(widths) <= room:
            break
    every, shown = labels, len(labels)
    while sum(widths) > room and shown > 1:
        shown -= 1
        labels = every[:shown] + [(f"+{len(every) - shown}", theme.PANEL_LINE)]
        widths = widths_at(size)
    for (text, colour), w in zip(labels, widths, strict=True):
        pill(img, (x, y), text, size, colour)
        x += round(w)


def _draw_action(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, s: int, lang: str
) -> None:
    action: LastAction | None = view.seats[s].last_action
    if action is None:
        return
    x, y, anchor = ACTION_ANCHORS[position_of(s, view.bottom_seat)]
    if action.verb in ("play", "burn"):
        box = draw_cards_row(img, action.cards, (x, y), MINI_W, ACTION_SPAN, anchor)
        if action.verb == "burn":
            pill(img, (box[0] + 4, box[1] - 10), word("burn", lang), 18, theme.BURN, anchor="lm")
    else:
        colour = {"pass": (88, 96, 112), "yield": (46, 140, 160), "noburn": (88, 96, 112)}[
            action.verb
        ]
        pill(img, (x, y), word(action.verb, lang), 28, colour, anchor=anchor + "m", pad=0.8)


def _draw_centre(img: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, lang: str) -> None:
    """The standing hand, large, and who played it; a faint 够级 on an empty table."""
    cx, cy = CENTRE
    if view.standing_seat is None:
        draw.text(CENTRE, "够级", font=font(150, bold=True), fill=(28, 100, 68), anchor="mm")
    if view.standing_seat is not None:
        box = draw_cards_row(img, view.standing, (cx, cy - 6), STANDING_W, 420)
        who = _seat_name(view.seats[view.standing_seat], view.standing_seat, font(22), 220)
        label = word("played_by", lang, who=who)
        colour = theme.TEAM_COLOURS[team_of(view.standing_seat)]
        pill(
            img,
            (cx, box[3] + 22),
            label,
            22,
            theme.PANEL,
            ink=colour,
            bold=False,
            anchor="mm",
            pad=0.7,
        )


def _draw_banners(img: Image.Image, view: TableView, lang: str) -> None:
    """Melee and a burn in progress, top right under the caption."""
    banners = []
    if view.melee:
        banners.append((word("melee", lang), (150, 92, 220)))
    if view.burn is not None:
        burner = _seat_name(view.seats[view.burn.burner], view.burn.burner, font(22), 140)
        burned = _seat_name(view.seats[view.burn.burned], view.burn.burned, font(22), 140)
        banners.append((f"{word('burning', lang)}  {burner} → {burned}", theme.BURN))
    y = 96
    for text, colour in banners:
        pill(img, (WIDTH - 28, y), text, 22, colour, anchor="rm", pad=0.7, bold=False)
        y += 46


def _draw_counter(img: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, lang: str) -> None:
    counter = view.counter
    if counter is None:
        return
    x0, y0 = 24, 22
    rounded(img, [x0, y0, x0 + 306, y0 + 112], 16, theme.PANEL, theme.PANEL_LINE, 2)
    draw.text(
        (x0 + 16, y0 + 22),
        word("counter", lang),
        font=font(20, bold=True),
        fill=theme.MUTED,
        anchor="lm",
    )
    x = x0 + 16
    for rank, left in ((14, counter.big_jokers), (13, counter.small_jokers), (12, counter.twos)):
        face = card_face(rank, None, 36)
        _paste(img, face, (x, y0 + 44))
        draw.text(
            (x + 42, y0 + 44 + face.height // 2),
            f"×{left}",
            font=font(24, bold=True),
            fill=theme.TEXT if left else theme.MUTED,
            anchor="lm",
        )
        x += 92


def _draw_hand_row(img: Image.Image, cards: str, x0: int, x1: int, cy: int) -> None:
    """One seat's hand, low to high, overlapped, a little more room between ranks."""
    hand = sorted(as_cards(cards, "hands"), key=lambda c: (c.rank, c.suit or ""))
    if not hand:
        return
    h = card_height(HAND_CARD_W)
    gaps = len({c.rank for c in hand}) - 1
    room = x1 - x0 - HAND_CARD_W - gaps * HAND_RANK_GAP
    step = min(HAND_CARD_W * 0.62, room / (len(hand) - 1)) if len(hand) > 1 else 0
    x, y = float(x0), cy - h // 2
    for i, card in enumerate(hand):
        if i and card.rank != hand[i - 1].rank:
            x += HAND_RANK_GAP
        if i == 0 or i == len(hand) - 1:
            _paste(img, card_shadow(HAND_CARD_W, 4), (round(x) - 3, y - 2))
        _paste(img, card_face(card.rank, card.suit, HAND_CARD_W), (round(x), y))
        x += step


def _draw_hands(img: Image.Image, view: TableView, top: int, lang: str) -> None:
    """Every seat's hand, one row each, in play order from the bottom seat (a replay)."""
    draw = ImageDraw.Draw(img)
    for row in range(6):
        s = (view.bottom_seat + row) % 6
        seat = view.seats[s]
        y0 = top + row * HAND_ROW_H
        cy = y0 + HAND_ROW_H // 2
        fill = theme.PANEL if row % 2 == 0 else theme.PANEL_ALT
        rounded(img, (16, y0 + 3, WIDTH - 16, y0 + HAND_ROW_H - 3), 14, fill)
        team = theme.TEAM_COLOURS[team_of(s)]
        rounded(img, (16, y0 + 3, 24, y0 + HAND_ROW_H - 3), 4, team)
        name = _seat_name(seat, s, font(24), 144)
        draw.text((38, cy), name, font=font(24), fill=theme.TEXT, anchor="lm")
        tag_x = 38 + 158
        if seat.place is not None:
            pill(
                img,
                (tag_x, cy),
                place_name(seat.place, lang),
                20,
                theme.PLACE_COLOURS[seat.place],
                ink=(20, 20, 24),
            )
        elif seat.revolted:
            pill(img, (tag_x, cy), word("revolted", lang), 20, theme.MARKER_COLOURS["revolted"])
        else:
            count = len(as_cards(view.hands[s], "hands"))
            draw.text(
                (tag_x, cy),
                f"{count} {word('cards', lang)}",
                font=font(22, bold=True),
                fill=theme.MUTED,
                anchor="lm",
            )
        if view.hands[s]:
            _draw_hand_row(img, view.hands[s], 16 + HAND_NAME_W, WIDTH - 30, cy)
        else:
            draw.text(
                (16 + HAND_NAME_W, cy),
                word("no_cards", lang),
                font=font(22),
                fill=theme.MUTED,
                anchor="lm",
            )


def hands_height() -> int:
    """How much taller the table picture is with every hand shown."""
    return HANDS_TOP_PAD + 6 * HAND_ROW_H + 16


def render_table(view: TableView, lang: str = "zh") -> Image.Image:
    """Draw the table: seats, names, teams, cards left, places, markers, last actions, the
    standing hand and who played it, whose turn it is, a burn, melee and the card counter.
    Returns a 1280x960 RGB image — with ``view.hands``, taller by :func:`hands_height`,
    every hand drawn under the table; raises :class:`RenderInputError` on bad cards."""
    check_lang(lang)
    if not isinstance(view, TableView):
        raise RenderInputError(f"render_table needs a TableView, not {type(view).__name__}")
    img = _background().copy()
    draw = ImageDraw.Draw(img)
    _draw_counter(img, draw, view, lang)
    if view.caption:
        caption = display_name(view.caption, font(24), 420)
        draw.text((WIDTH - 28, 40), caption, font=font(24), fill=theme.MUTED, anchor="rm")
    _draw_centre(img, draw, view, lang)
    _draw_banners(img, view, lang)
    for s in range(6):
        _draw_action(img, draw, view, s, lang)
    for s in range(6):
        _draw_plate(img, draw, view, s, lang)
    _draw_legend(img, draw, view, lang)
    if not view.hands:
        return img
    tall = Image.new("RGB", (WIDTH, HEIGHT + hands_height()), theme.PANEL_BG_BOTTOM)
    tall.paste(img, (0, 0))
    _draw_hands(tall, view, HEIGHT + HANDS_TOP_PAD - 8, lang)
    return tall
