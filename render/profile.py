"""A player's profile card and a server's leaderboard."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from PIL import Image, ImageDraw, ImageFont

from engine.rating import figure_text

from . import theme
from .cards import SS
from .draw import pill, rounded
from .errors import RenderInputError
from .fonts import clean_text, display_name, font
from .labels import check_lang, place_name, plain_word, word
from .models import LeaderboardRow, ProfileView, RatingRow, RatingView
from .titles import title_for, title_name

GOLD, SILVER, BRONZE = theme.PLACE_COLOURS[1], theme.PLACE_COLOURS[2], theme.PLACE_COLOURS[3]
PROFILE_W, PROFILE_H = 960, 560
BOARD_W, BOARD_ROW, BOARD_TOP = 960, 70, 116


@lru_cache(maxsize=8)
def _disc(diameter: int, colour: theme.RGB, ring: theme.RGB | None = None) -> Image.Image:
    """A smooth filled circle (RGBA), optionally ringed."""
    d = diameter * SS
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse([0, 0, d - 1, d - 1], fill=(ring or colour) + (255,))
    if ring:
        w = max(2, diameter // 16) * SS
        draw.ellipse([w, w, d - w - 1, d - w - 1], fill=colour + (255,))
    return img.resize((diameter, diameter), Image.Resampling.LANCZOS)


def _initial(name: str) -> str:
    text = clean_text(name)
    return text[0].upper() if text else "?"


def _title(
    given: str | None, score: int, face: ImageFont.FreeTypeFont, max_width: int, lang: str
) -> tuple[str, bool]:
    """(title text, whether to draw it bold): the rule-book title for the score, in bold, or a
    title given by the caller, cleaned and fitted like a name and drawn in the regular face
    (the bold face holds only the project's own words); a rule-book title in ``lang``."""
    if given and clean_text(given):
        return display_name(title_name(given, lang), face, max_width), False
    return title_name(title_for(score), lang), True


def _score_text(score: int) -> str:
    return f"{score:,}" if score >= 0 else f"−{-score:,}"


def _stat(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    value: str,
    label: str,
) -> None:
    rounded(img, box, 16, theme.PANEL_ALT)
    cx = (box[0] + box[2]) // 2
    draw.text((cx, box[1] + 42), value, font=font(38, bold=True), fill=theme.TEXT, anchor="mm")
    draw.text((cx, box[3] - 24), label, font=font(20, bold=True), fill=theme.MUTED, anchor="mm")


def _rating_tile(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    rating: RatingView | None,
    lang: str,
) -> None:
    """The rating (技术分): the conservative figure, mu ± sigma and the rank on the server
    (or 定级中 while provisional); without a rated game, a dash."""
    rounded(img, box, 16, theme.PANEL_ALT)
    cx = (box[0] + box[2]) // 2
    label = plain_word("rating", lang)
    if rating is None:
        draw.text((cx, box[1] + 42), "—", font=font(38, bold=True), fill=theme.MUTED, anchor="mm")
        draw.text(
            (cx, box[3] - 24),
            plain_word("no_rating", lang),
            font=font(20),
            fill=theme.MUTED,
            anchor="mm",
        )
        return
    colour = theme.MUTED if rating.provisional else GOLD
    draw.text(
        (cx, box[1] + 34),
        figure_text(rating.figure),
        font=font(36, bold=True),
        fill=colour,
        anchor="mm",
    )
    detail = f"{rating.mu:.1f} ± {rating.sigma:.1f}"
    if rating.provisional:
        detail += " · " + plain_word("provisional", lang)
    draw.text((cx, box[1] + 62), detail, font=font(15), fill=theme.MUTED, anchor="mm")
    draw.text(
        (cx, box[3] - 16),
        f"{label} #{rating.rank}/{rating.players}",
        font=font(18),
        fill=theme.MUTED,
        anchor="mm",
    )


def render_profile(view: ProfileView, lang: str = "zh") -> Image.Image:
    """Draw a profile card: name, title, score, games played, opens, burns, the rating
    (技术分) and a bar for each place 头科..大落. Returns a 960x560 RGB image."""
    check_lang(lang)
    if not isinstance(view, ProfileView):
        raise RenderInputError(f"render_profile needs a ProfileView, not {type(view).__name__}")
    img = Image.new("RGB", (PROFILE_W, PROFILE_H), theme.PANEL_BG_BOTTOM)
    draw = ImageDraw.Draw(img)
    rounded(img, [24, 24, PROFILE_W - 24, PROFILE_H - 24], 26, theme.PANEL)
    disc = _disc(120, (54, 62, 80), GOLD)
    img.paste(disc, (56, 56), disc)
    draw.text((116, 116), _initial(view.name), font=font(60), fill=theme.TEXT, anchor="mm")
    name = display_name(view.name, font(40), 470)
    draw.text((204, 82), name, font=font(40), fill=theme.TEXT, anchor="lm")
    title, bold = _title(view.title, view.score, font(26), 400, lang)
    box = pill(img, (204, 140), title, 26, GOLD, ink=(40, 30, 8), bold=bold)
    where = []
    if view.server:
        where.append(display_name(view.server, font(22), 260))
    if view.position is not None:
        where.append(f"#{view.position}")
    if where:
        draw.text(
            (box[2] + 16, 141), " · ".join(where), font=font(22), fill=theme.MUTED, anchor="lm"
        )
    draw.text(
        (PROFILE_W - 60, 86),
        _score_text(view.score),
        font=font(64, bold=True),
        fill=GOLD,
        anchor="rm",
    )
    draw.text(
        (PROFILE_W - 60, 140),
        word("score", lang),
        font=font(22, bold=True),
        fill=theme.MUTED,
        anchor="rm",
    )
    # Stat tiles, the rating last.
    tiles = (
        (str(view.games), word("games", lang)),
        (str(view.opens), word("opens", lang)),
        (str(view.burns), word("burns", lang)),
    )
    tw = (PROFILE_W - 2 * 56 - 3 * 20) // 4
    for i, (value, label) in enumerate(tiles):
        x = 56 + i * (tw + 20)
        _stat(img, draw, (x, 200, x + tw, 300), value, label)
    x = 56 + 3 * (tw + 20)
    _rating_tile(img, draw, (x, 200, x + tw, 300), view.rating, lang)
    # Places: one bar each.
    draw.text(
        (56, 334), word("places", lang), font=font(22, bold=True), fill=theme.MUTED, anchor="lm"
    )
    most = max(max(view.places), 1)
    bw = (PROFILE_W - 2 * 56 - 5 * 18) // 6
    base, tall = 480, 112
    for p in range(6):
        x = 56 + p * (bw + 18)
        count = view.places[p]
        h = max(6, round(tall * count / most))
        rounded(img, [x, base - tall, x + bw, base], 10, theme.PANEL_ALT)
        rounded(img, [x, base - h, x + bw, base], 10, theme.PLACE_COLOURS[p + 1])
        draw.text(
            (x + bw // 2, base - h - 18 if h < tall - 30 else base - h + 20),
            str(count),
            font=font(24, bold=True),
            fill=theme.TEXT if h < tall - 30 else (20, 20, 24),
            anchor="mm",
        )
        draw.text(
            (x + bw // 2, base + 24),
            place_name(p + 1, lang),
            font=font(22, bold=True),
            fill=theme.TEXT,
            anchor="mm",
        )
    return img


Row = TypeVar("Row", LeaderboardRow, RatingRow)


def _board(
    rows: Sequence[Row],
    kind: type[Row],
    caller: str,
    server: str,
    lang: str,
    limit: int,
    *,
    subtitle: str | None = None,
    server_width: int = 520,
) -> tuple[Image.Image, ImageDraw.ImageDraw, list[tuple[Row, int]]]:
    """The frame both boards share: the first ``limit`` rows checked (each a ``kind``, else
    ``caller`` refuses them), the title (and a subtitle after it, in gold), the server's name
    (at most ``server_width`` px), "nobody yet" when there are no rows, and each row's band
    and position (medals for the top three). Returns the image, its drawing and each row
    with the height of its middle, where the board draws the rest of the row."""
    check_lang(lang)
    if limit < 1:
        raise RenderInputError(f"limit must be at least 1, not {limit}")
    rows = list(rows)[:limit]
    for row in rows:
        if not isinstance(row, kind):
            raise RenderInputError(
                f"{caller} needs {kind.__name__} items, not {type(row).__name__}"
            )
    height = BOARD_TOP + max(len(rows), 1) * BOARD_ROW + 40
    img = Image.new("RGB", (BOARD_W, height), theme.PANEL_BG_BOTTOM)
    draw = ImageDraw.Draw(img)
    title = word("leaderboard", lang)
    draw.text((40, 56), title, font=font(38, bold=True), fill=theme.TEXT, anchor="lm")
    if subtitle is not None:
        tx = 40 + font(38, bold=True).getlength(title) + 16
        draw.text((tx, 60), subtitle, font=font(28), fill=GOLD, anchor="lm")
    if server:
        draw.text(
            (BOARD_W - 40, 58),
            display_name(server, font(24), server_width),
            font=font(24),
            fill=theme.MUTED,
            anchor="rm",
        )
    if not rows:
        draw.text(
            (BOARD_W // 2, BOARD_TOP + BOARD_ROW // 2),
            word("empty_board", lang),
            font=font(28, bold=True),
            fill=theme.MUTED,
            anchor="mm",
        )
    medals = {1: GOLD, 2: SILVER, 3: BRONZE}
    placed = []
    for i, row in enumerate(rows):
        y0 = BOARD_TOP + i * BOARD_ROW
        cy = y0 + BOARD_ROW // 2
        position = row.position if row.position is not None else i + 1
        rounded(
            img,
            [24, y0 + 4, BOARD_W - 24, y0 + BOARD_ROW - 4],
            16,
            theme.PANEL if i % 2 else theme.PANEL_ALT,
        )
        if position in medals:
            disc = _disc(44, medals[position])
            img.paste(disc, (52, cy - 22), disc)
            ink = (30, 26, 12)
        else:
            ink = theme.MUTED
        draw.text((74, cy), str(position), font=font(24, bold=True), fill=ink, anchor="mm")
        placed.append((row, cy))
    return img, draw, placed


def render_leaderboard(
    rows: Sequence[LeaderboardRow], server: str = "", lang: str = "zh", limit: int = 10
) -> Image.Image:
    """Draw a server's leaderboard: the first ``limit`` rows in the order given, each with its
    position (medals for the top three), name, title (from the score if not given), score and
    games. Returns an RGB image 960 px wide."""
    img, draw, placed = _board(rows, LeaderboardRow, "render_leaderboard", server, lang, limit)
    for row, cy in placed:
        title, bold = _title(row.title, row.score, font(20), 260, lang)
        title_box = pill(
            img, (BOARD_W - 250, cy), title, 20, (70, 60, 30), ink=GOLD, anchor="rm", bold=bold
        )
        name = display_name(row.name, font(28), title_box[0] - 130)
        draw.text((116, cy), name, font=font(28), fill=theme.TEXT, anchor="lm")
        draw.text(
            (BOARD_W - 48, cy - 9),
            _score_text(row.score),
            font=font(28, bold=True),
            fill=theme.TEXT,
            anchor="rm",
        )
        draw.text(
            (BOARD_W - 48, cy + 19),
            word("games_count", lang, n=row.games),
            font=font(15, bold=True),
            fill=theme.MUTED,
            anchor="rm",
        )
    return img


def render_rating_board(
    rows: Sequence[RatingRow], server: str = "", lang: str = "zh", limit: int = 10
) -> Image.Image:
    """Draw a server's board by skill rating (技术分): the first ``limit`` rows in the order
    given, each with its position (medals for the top three), name (an AI level marked AI),
    the conservative figure, mu ± sigma and games, and 定级中 on a provisional one. Returns
    an RGB image 960 px wide."""
    img, draw, placed = _board(
        rows,
        RatingRow,
        "render_rating_board",
        server,
        lang,
        limit,
        subtitle=plain_word("rating_board", lang),
        server_width=380,
    )
    for row, cy in placed:
        right = BOARD_W - 250
        if row.provisional:
            box = pill(
                img, (right, cy), plain_word("provisional", lang), 18, (60, 64, 80),
                ink=theme.MUTED, anchor="rm", bold=False,
            )  # fmt: skip
            right = box[0] - 12
        name = display_name(row.name, font(28), right - 130)
        draw.text(
            (116, cy), name, font=font(28), fill=theme.MUTED if row.ai else theme.TEXT, anchor="lm"
        )
        draw.text(
            (BOARD_W - 48, cy - 9),
            figure_text(row.figure),
            font=font(28, bold=True),
            fill=theme.MUTED if row.provisional else theme.TEXT,
            anchor="rm",
        )
        games = word("games_count", lang, n=row.games)
        draw.text(
            (BOARD_W - 48, cy + 19),
            f"{row.mu:.1f} ± {row.sigma:.1f} · {games}",
            font=font(15),
            fill=theme.MUTED,
            anchor="rm",
        )
    return img
