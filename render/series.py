"""The series scoreboard: five games by six players — places, points, tribute, what each
seat did of note (开点, 烧成, 被闷) and totals; the tribute owed next game below."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class _Grid:
    """Where the scoreboard's parts go: its size, the rows' height, the game columns."""

    games: int
    row_h: int
    width: int
    height: int
    top: int = TITLE_H

    @classmethod
    def of(cls, view: SeriesView) -> _Grid:
        row_h = ROW_H + (MARK_H if any(m for g in view.games for m in g.marks) else 0)
        width = 2 * MARGIN + NAME_W + view.total_games * GAME_W + TOTAL_W
        height = TITLE_H + HEAD_H + 6 * row_h + 2 * TEAM_H + MARGIN + 12
        return cls(view.total_games, row_h, width, height + (OWED_H if view.owed else 0))

    @property
    def games_x(self) -> int:
        """The left edge of the first game's column."""
        return MARGIN + NAME_W

    @property
    def total_x(self) -> int:
        """The centre of the totals' column."""
        return self.width - MARGIN - TOTAL_W // 2

    @property
    def rows_end(self) -> int:
        """The bottom of the last seat's row."""
        return self.top + HEAD_H + 6 * self.row_h

    def game_x(self, g: int) -> int:
        """The centre of game ``g``'s column."""
        return self.games_x + g * GAME_W + GAME_W // 2


def render_series(view: SeriesView, lang: str = "zh") -> Image.Image:
    """Draw a tribute series: a row per seat (team colour, name — with, once the series is
    over, what it did to the seat's rating, 技术分), a column per game (place, points, net
    tribute cards), totals with penalties, and the two team totals. Games not played yet
    are left empty. Returns an RGB image 1232 px wide for five games."""
    check_lang(lang)
    if not isinstance(view, SeriesView):
        raise RenderInputError(f"render_series needs a SeriesView, not {type(view).__name__}")
    grid = _Grid.of(view)
    img = Image.new("RGB", (grid.width, grid.height), theme.PANEL_BG_BOTTOM)
    draw = ImageDraw.Draw(img)
    _title(draw, view, grid, lang)
    rounded(img, (MARGIN, grid.top, grid.width - MARGIN, grid.rows_end), 18, theme.PANEL)
    _column_heads(draw, view, grid, lang)
    totals = view.totals()
    for s in range(6):
        _seat_row(img, draw, view, grid, s, totals[s], lang)
    for g in range(grid.games + 1):
        x = grid.games_x + g * GAME_W
        draw.line([x, grid.top + 10, x, grid.rows_end - 10], fill=theme.PANEL_LINE, width=1)
    y = _team_totals(img, draw, view, grid, lang)
    if view.owed:
        _owed(draw, view, grid, y, lang)
    return img


def _title(draw: ImageDraw.ImageDraw, view: SeriesView, grid: _Grid, lang: str) -> None:
    """The title (one game: no series) and the caption on the right."""
    draw.text(
        (MARGIN, 48),
        word("series", lang) if grid.games > 1 else word("game", lang, n=1),
        font=font(36, bold=True),
        fill=theme.TEXT,
        anchor="lm",
    )
    if view.caption:
        draw.text(
            (grid.width - MARGIN, 50),
            display_name(view.caption, font(24), grid.width * 0.55),
            font=font(24),
            fill=theme.MUTED,
            anchor="rm",
        )


def _column_heads(draw: ImageDraw.ImageDraw, view: SeriesView, grid: _Grid, lang: str) -> None:
    """ "Player", each game (with 串三户, ×2 or "playing" under it) and "total"."""
    top = grid.top
    draw.text(
        (MARGIN + 24, top + HEAD_H // 2),
        word("player", lang),
        font=font(22, bold=True),
        fill=theme.MUTED,
        anchor="lm",
    )
    for g in range(grid.games):
        cx = grid.game_x(g)
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
    draw.text(
        (grid.total_x, top + HEAD_H // 2),
        word("total", lang),
        font=font(22, bold=True),
        fill=theme.TEXT,
        anchor="mm",
    )


def _seat_row(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SeriesView,
    grid: _Grid,
    s: int,
    total: int,
    lang: str,
) -> None:
    """Seat ``s``'s row: its team colour, name and rating change, its games, its total."""
    width, row_h, tx = grid.width, grid.row_h, grid.total_x
    y0 = grid.top + HEAD_H + s * row_h
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
        _cell(img, draw, grid.game_x(g), cy, game, s, lang)
    penalty = view.penalties[s]
    draw.text(
        (tx, cy - (10 if penalty else 0)),
        _signed(total),
        font=font(32, bold=True),
        fill=_points_colour(total),
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


def _team_totals(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: SeriesView, grid: _Grid, lang: str
) -> int:
    """A band per team: its name, members and total. Returns the y below them."""
    y = grid.rows_end + 16
    for team, total in enumerate(view.team_totals()):
        colour = theme.TEAM_COLOURS[team]
        box = (MARGIN, y, grid.width - MARGIN, y + TEAM_H - 10)
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
        middle = (grid.total_x, y + (TEAM_H - 10) // 2)
        pill(img, middle, _signed(total), 26, colour, anchor="mm", pad=0.6)
        y += TEAM_H
    return y


def _owed(draw: ImageDraw.ImageDraw, view: SeriesView, grid: _Grid, y: int, lang: str) -> None:
    """The tribute owed next game, on one line at ``y``."""
    owed = " · ".join(
        f"{plain_word('tribute_' + kind, lang)} "
        f"{display_name(view.names[p], font(20), 150, empty=f'#{p}')} → "
        f"{display_name(view.names[r], font(20), 150, empty=f'#{r}')} ×{n}"
        for p, r, n, kind in view.owed
    )
    line = display_name(
        plain_word("owed_line", lang, owed=owed),
        font(22),
        grid.width - 2 * MARGIN,
    )
    draw.text((MARGIN + 8, y + OWED_H // 2), line, font=font(22), fill=theme.TEXT, anchor="lm")
