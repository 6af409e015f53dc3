"""Fixtures for the store tests: a fresh database file per test, and real deals."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from data import Store
from engine import deal


def dealt_hands(seed: int) -> list[str]:
    """The six hands of a real deal, in card notation with suits."""
    return [" ".join(str(card) for card in hand) for hand in deal(seed)]


@contextmanager
def raw_sql(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection to a closed store's file, committed on exit: for tests
    that damage rows on purpose or build old files."""
    with closing(sqlite3.connect(path)) as conn:
        with conn:
            yield conn


async def new_game(store: Store, guild_id: int = 1, channel_id: int = 100, seed: int = 7):
    """A playing table with one series and one deal; returns (table, series, game)."""
    table = await store.create_table(guild_id, channel_id, 5000, {"bie_san": False})
    await store.set_table_status(table.id, "playing")
    series = await store.start_series(table.id)
    game = await store.start_game(series.id, seed, dealt_hands(seed))
    return table, series, game
