"""A tournament's standings (比赛排名) as a picture, in the leaderboard's style: the event's
name and round, each player's rank (medals for the top three), name, points and rounds (out
or left marked), then the current round's tables and who sits at each.

The words come worded by the caller (the bot's catalogs): this module draws what it is given.

>>> view = StandingsPicture("周赛", "Round 1 of 4", "pts", (StandingRow(1, "阿明", 6, "1"),), ())
>>> render_standings(view).size[0]
960
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import theme
from .draw import rounded
from .encode import to_png
from .errors import RenderInputError
from .fonts import display_name, font

WIDTH, TOP, ROW, TABLE_ROW = 960, 112, 54, 44
MOST_ROWS = 40  # a longer event's picture shows its first forty; the text has everyone
MEDALS = {1: theme.PLACE_COLOURS[1], 2: theme.PLACE_COLOURS[2], 3: theme.PLACE_COLOURS[3]}


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's line: ``rank``, ``name``, ``points``, ``rounds`` (worded: "3 rounds"),
    ``mark`` (worded: out, left; empty while in)."""

    rank: int
    name: str
    points: int
    rounds: str
    mark: str = ""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table of the current round: its ``label`` ("Table 1"), its six seats' names (an AI
    seat worded as the caller words it), whether it has finished."""

    label: str
    names: tuple[str, ...]
    finished: bool = False


@dataclass(frozen=True, slots=True)
class StandingsPicture:
    """The picture's content: ``title`` (the event's name), ``subtitle`` (its round and
    status), ``points`` (the word after a score), the rows in rank order, the tables."""

    title: str
    subtitle: str
    points: str
    rows: tuple[StandingRow, ...]
    tables: tuple[TableRow, ...]
    more: str = ""  # worded "… and 12 more", when there are more rows than drawn


def render_standings(view: StandingsPicture) -> Image.Image:
    """Draw the standings (an RGB image 960 px wide)."""
    if any(len(t.names) != 6 for t in view.tables):
        raise RenderInputError("a tournament table has six seats")
    rows = view.rows[:MOST_ROWS]
    more = bool(view.more) and len(view.rows) > MOST_ROWS
    height = TOP + max(len(rows), 1) * ROW + (ROW if more else 0)
    height += (24 + len(view.tables) * TABLE_ROW if view.tables else 0) + 32
    img = Image.new("RGB", (WIDTH, height), theme.PANEL_BG_BOTTOM)
    draw = ImageDraw.Draw(img)
    draw.text(
        (40, 48), display_name(view.title, font(36), 560), font=font(36), fill=theme.TEXT,
        anchor="lm",
    )  # fmt: skip
    draw.text(
        (WIDTH - 40, 50), display_name(view.subtitle, font(24), 320), font=font(24),
        fill=theme.PLACE_COLOURS[1], anchor="rm",
    )  # fmt: skip
    for i, row in enumerate(rows):
        _row(img, draw, TOP - 20 + i * ROW, i, row, view.points)
    y = TOP - 20 + len(rows) * ROW
    if more:
        draw.text(
            (WIDTH // 2, y + ROW // 2), view.more, font=font(22), fill=theme.MUTED, anchor="mm"
        )
        y += ROW
    if view.tables:
        y += 24
        for table in view.tables:
            _table(draw, y, table)
            y += TABLE_ROW
    return img


def _row(
    img: Image.Image, draw: ImageDraw.ImageDraw, y0: int, i: int, row: StandingRow, points: str
) -> None:
    cy = y0 + ROW // 2
    band = theme.PANEL if i % 2 else theme.PANEL_ALT
    rounded(img, [24, y0 + 3, WIDTH - 24, y0 + ROW - 3], 14, band)
    medal = MEDALS.get(row.rank)
    if medal is not None:
        draw.ellipse([52, cy - 19, 90, cy + 19], fill=medal)
    ink = (30, 26, 12) if medal is not None else theme.MUTED
    draw.text((71, cy), str(row.rank), font=font(22, bold=True), fill=ink, anchor="mm")
    faded = theme.MUTED if row.mark else theme.TEXT
    name = display_name(row.name, font(26), 430)
    draw.text((116, cy), name, font=font(26), fill=faded, anchor="lm")
    if row.mark:
        x = 116 + font(26).getlength(name) + 14
        draw.text((x, cy), display_name(row.mark, font(18), 120), font=font(18),
                  fill=theme.BURN, anchor="lm")  # fmt: skip
    score = f"{row.points:+d}" if row.points else "0"
    draw.text((WIDTH - 200, cy), f"{score} {points}", font=font(26), fill=faded, anchor="rm")
    draw.text((WIDTH - 48, cy), display_name(row.rounds, font(18), 130), font=font(18),
              fill=theme.MUTED, anchor="rm")  # fmt: skip


def _table(draw: ImageDraw.ImageDraw, y: int, table: TableRow) -> None:
    ink = theme.MUTED if table.finished else theme.TEXT
    draw.text((40, y + TABLE_ROW // 2), display_name(table.label, font(20), 110), font=font(20),
              fill=theme.PLACE_COLOURS[1], anchor="lm")  # fmt: skip
    x = 160
    for seat, who in enumerate(table.names):
        name = display_name(who, font(18), 120)
        draw.text((x, y + TABLE_ROW // 2), name, font=font(18),
                  fill=theme.TEAM_COLOURS[seat % 2] if not table.finished else ink, anchor="lm")  # fmt: skip
        x += 128


def standings_png(view: StandingsPicture) -> bytes:
    """The standings picture as PNG bytes (what the bot posts)."""
    return to_png(render_standings(view))
