"""The series scoreboard: five games by six players — places, points, tribute, what each
seat did of note (开点, 烧成, 被闷) and totals; the tribute owed next game below."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.rating import change_text, figure_text
from engine.scoring import team_of

from . import theme
from .draw import pill, rounded
from .errors import RenderInputError
from .fonts import display_name, font
from .labels import check_lang, place_name, plain_word, word
from .models import SeriesGame, SeriesView

MARGIN = 32
NAME_W = 290
TOTAL_W = 150
GAME_W = 146
TITLE_H = 92
HEAD_H = 64
ROW_H = 86
TEAM_H = 58
MARK_H = 22  # a row grows by this when a game marks its seats (开点, 烧成, 被闷)
OWED_H = 46  # the line of tribute owed next game
GREEN, RED = (92, 214, 140), (246, 106, 100)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def _rating_colour(change: float) -> theme.RGB:
    shown = change_text(change)
    return GREEN if shown.startswith("+") else RED if shown.startswith("−") else theme.MUTED


def _points_colour(n: int) -> theme.RGB:
    return GREEN if n > 0 else RED if n < 0 else theme.MUTED


def _cell(
    img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, game: SeriesGame, s: int, lang: str
) -> None:
    """One player's result in one game, centred on (x, y)."""
    place = game.places[s]
    if place is not None:
        pill(
            img,
            (x, y - 16),
            place_name(place, lang),
            20,
            theme.PLACE_COLOURS[place],
            ink=(20, 20, 24),
            anchor="mm",
        )
    else:
        draw.text((x, y - 16), "·", font=font(26, bold=True), fill=theme.MUTED, anchor="mm")
    points = game.points[s]
    tribute = game.tribute[s]
    line = _signed(points)
    draw.text(
        (x - (32 if tribute else 0), y + 20),
        line,
        font=font(24, bold=True),
        fill=_points_colour(points),
        anchor="mm",
    )
    if tribute:
        draw.text(
            (x + 8, y + 21),
            f"{word('tribute', lang)}{_signed(tribute)}",
            font=font(16, bold=True),
            fill=theme.MUTED,
            anchor="lm",
        )
    marks = " · ".join(plain_word(m, lang) for m in game.marks[s])
    if marks:
        size = 15 if font(15).getlength(marks) <= GAME_W - 8 else 12
        draw.text((x, y + 45), marks, font=font(size), fill=theme.TURN, anchor="mm")


def render_series(view: SeriesView, lang: str = "zh") -> Image.Image:
    """Draw a tribute series: a row per seat (team colour, name — with, once the series is
    over, what it did to the seat's rating, 技术分), a column per game (place, points, net
    tribute cards), totals with penalties, and the two team totals. Games not played yet
    are left empty. Returns an RGB image 1232 px wide for five games."""
    check_lang(lang)
    if not isinstance(view, SeriesView):
        raise RenderInputError(f"render_series needs a SeriesView, not {type(view).__name__}")
    n_games = view.total_games
    row_h = ROW_H + (MARK_H if any(m for g in view.games for m in g.marks) else 0)
    width = 2 * MARGIN + NAME_W + n_games * GAME_W + TOTAL_W
    height = TITLE_H + HEAD_H + 6 * row_h + 2 * TEAM_H + MARGIN + 12
    if view.owed:
        height += OWED_H
    img = Image.new("RGB", (width, height), theme.PANEL_BG_BOTTOM)
    draw = ImageDraw.Draw(img)
    draw.text(
        (MARGIN, 48),
        word("series", lang) if n_games > 1 else word("game", lang, n=1),  # one game: no series
        font=font(36, bold=True),
        fill=theme.TEXT,
        anchor="lm",
    )
    if view.caption:
        draw.text(
            (width - MARGIN, 50),
            display_name(view.caption, font(24), width * 0.55),
            font=font(24),
            fill=theme.MUTED,
            anchor="rm",
        )
    top = TITLE_H
    table_box = (MARGIN, top, width - MARGIN, top + HEAD_H + 6 * row_h)
    rounded(img, table_box, 18, theme.PANEL)
    gx0 = MARGIN + NAME_W
    # Column heads.
    draw.text(
        (MARGIN + 24, top + HEAD_H // 2),
        word("player", lang),
        font=font(22, bold=True),
        fill=theme.MUTED,
        anchor="lm",
    )
    for g in range(n_games):
        cx = gx0 + g * GAME_W + GAME_W // 2
        game = view.games[g] if g < len(view.games) else None
        notes = []
        if game and game.chuan_san_hu:
            notes.append((word("sweep", lang), theme.PLACE_COLOURS[1]))
        if game and view.doubled(g):
            notes.append(("×2", theme.PLACE_COLOURS[1]))
        if game and not game.finished:
            notes.append((word("playing", lang), theme.TURN))
        draw.text(
            (cx, top + HEAD_H // 2 - (9 if notes else 0)),
            word("game", lang, n=g + 1),
            font=font(22, bold=True),
            fill=theme.TEXT if game else theme.MUTED,
            anchor="mm",
        )
        if notes:
            text = " ".join(t for t, _ in notes)
            draw.text(
                (cx, top + HEAD_H // 2 + 16),
                text,
                font=font(15, bold=True),
                fill=notes[0][1],
                anchor="mm",
            )
    tx = width - MARGIN - TOTAL_W // 2
    draw.text(
        (tx, top + HEAD_H // 2),
        word("total", lang),
        font=font(22, bold=True),
        fill=theme.TEXT,
        anchor="mm",
    )
    totals = view.totals()
    for s in range(6):
        y0 = top + HEAD_H + s * row_h
        cy = y0 + ROW_H // 2
        if s % 2 == 0:
            draw.rectangle([MARGIN, y0, width - MARGIN - 1, y0 + row_h - 1], fill=theme.PANEL_ALT)
        draw.line([MARGIN, y0, width - MARGIN - 1, y0], fill=theme.PANEL_LINE, width=1)
        team = team_of(s)
        rounded(img, [MARGIN + 16, cy - 22, MARGIN + 24, cy + 22], 4, theme.TEAM_COLOURS[team])
        name = display_name(view.names[s], font(26), NAME_W - 56, empty=f"#{s}")
        rated = view.ratings[s] if view.ratings else None
        draw.text(
            (MARGIN + 38, cy - (12 if rated else 0)),
            name,
            font=font(26),
            fill=theme.TEXT,
            anchor="lm",
        )
        if rated is not None:
            change, after = rated
            line = f"{plain_word('rating', lang)} {change_text(change)} → {figure_text(after)}"
            draw.text(
                (MARGIN + 38, cy + 18),
                line,
                font=font(17),
                fill=_rating_colour(change),
                anchor="lm",
            )
        for g, game in enumerate(view.games):
            _cell(img, draw, gx0 + g * GAME_W + GAME_W // 2, cy, game, s, lang)
        penalty = view.penalties[s]
        draw.text(
            (tx, cy - (10 if penalty else 0)),
            _signed(totals[s]),
            font=font(32, bold=True),
            fill=_points_colour(totals[s]),
            anchor="mm",
        )
        if penalty:
            draw.text(
                (tx, cy + 22),
                f"{word('penalty', lang)} {_signed(penalty)}",
                font=font(15, bold=True),
                fill=RED,
                anchor="mm",
            )
    for g in range(n_games + 1):
        x = gx0 + g * GAME_W
        draw.line([x, top + 10, x, top + HEAD_H + 6 * row_h - 10], fill=theme.PANEL_LINE, width=1)
    # Team totals.
    y = top + HEAD_H + 6 * row_h + 16
    for team, total in enumerate(view.team_totals()):
        colour = theme.TEAM_COLOURS[team]
        box = (MARGIN, y, width - MARGIN, y + TEAM_H - 10)
        rounded(img, box, 14, theme.TEAM_DARK[team])
        label = word("team_a" if team == 0 else "team_b", lang)
        members = " · ".join(
            display_name(view.names[s], font(20), 170, empty=f"#{s}") for s in range(team, 6, 2)
        )
        draw.text(
            (MARGIN + 22, y + (TEAM_H - 10) // 2),
            label,
            font=font(24, bold=True),
            fill=colour,
            anchor="lm",
        )
        lw = font(24, bold=True).getlength(label)
        draw.text(
            (MARGIN + 40 + lw, y + (TEAM_H - 10) // 2),
            members,
            font=font(20),
            fill=theme.TEXT,
            anchor="lm",
        )
        pill(img, (tx, y + (TEAM_H - 10) // 2), _signed(total), 26, colour, anchor="mm", pad=0.6)
        y += TEAM_H
    if view.owed:
        owed = " · ".join(
            f"{plain_word('tribute_' + kind, lang)} "
            f"{display_name(view.names[p], font(20), 150, empty=f'#{p}')} → "
            f"{display_name(view.names[r], font(20), 150, empty=f'#{r}')} ×{n}"
            for p, r, n, kind in view.owed
        )
        line = display_name(
            f"{plain_word('owed', lang)}{'：' if lang == 'zh' else ': '}{owed}",
            font(22),
            width - 2 * MARGIN,
        )
        draw.text((MARGIN + 8, y + OWED_H // 2), line, font=font(22), fill=theme.TEXT, anchor="lm")
    return img
