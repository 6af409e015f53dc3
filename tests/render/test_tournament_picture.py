"""The tournament standings picture (render/tournament.py): drawn at the board's width, one
band a player (the first forty), the tables under them, six seats a table."""

from __future__ import annotations

import pytest

from render.errors import RenderInputError
from render.tournament import (
    MOST_ROWS,
    ROW,
    StandingRow,
    StandingsPicture,
    TableRow,
    render_standings,
    standings_png,
)


def view(players: int, tables: int = 0, more: str = "") -> StandingsPicture:
    rows = tuple(
        StandingRow(i + 1, f"player {i}", 10 - i, "2 rounds", "out" if i == 3 else "")
        for i in range(players)
    )
    seats = tuple(TableRow(f"Table {t + 1}", tuple("abcdef")) for t in range(tables))
    return StandingsPicture("Weekly", "Round 2 of 4 · running", "pts", rows, seats, more)


def test_the_picture_grows_with_the_players_and_the_tables() -> None:
    small, big = render_standings(view(6)), render_standings(view(12))
    assert small.size[0] == big.size[0] == 960
    assert big.size[1] - small.size[1] == 6 * ROW
    with_tables = render_standings(view(12, tables=2))
    assert with_tables.size[1] > big.size[1]


def test_a_long_event_shows_its_first_forty_and_says_how_many_more() -> None:
    capped = render_standings(view(60, more="… and 20 more"))
    forty = render_standings(view(MOST_ROWS))
    assert capped.size[1] == forty.size[1] + ROW
    assert standings_png(view(60, more="… and 20 more")).startswith(b"\x89PNG")


def test_a_table_has_six_seats() -> None:
    bad = StandingsPicture("x", "y", "pts", (), (TableRow("Table 1", ("a", "b")),))
    with pytest.raises(RenderInputError):
        render_standings(bad)
