"""Fixtures for the store tests: a fresh database per test on each backend (``store`` and
``db_url`` run every test against SQLite and PostgreSQL), and real deals."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from pathlib import Path

import pytest

from data import Store
from data.backend import Conn
from data.connect import connect
from engine import deal


def dealt_hands(seed: int) -> list[str]:
    """The six hands of a real deal, in card notation with suits."""
    return [" ".join(str(card) for card in hand) for hand in deal(seed)]


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """A fresh store, once on SQLite and once on PostgreSQL."""
    async with await Store.open(db_url) as opened:
        yield opened


@contextmanager
def raw_sqlite(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection to a closed store's file, committed on exit: for tests
    that build old SQLite files or need SQLite's own switches."""
    with closing(sqlite3.connect(path)) as conn:
        with conn:
            yield conn


@asynccontextmanager
async def raw_sql(url: str) -> AsyncIterator[Conn]:
    """The database behind a store, bypassing it (``?`` placeholders on both backends), in
    one transaction: for tests that damage rows on purpose."""
    db = await connect(url)
    try:
        async with db.guard(), db.transaction():
            yield db
    finally:
        await db.close()


def sqlite_file(url: str) -> Path | None:
    """The file of a ``sqlite:///`` URL, None for PostgreSQL."""
    return Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None


async def new_game(store: Store, guild_id: int = 1, channel_id: int = 100, seed: int = 7):
    """A playing table with one series and one deal; returns (table, series, game)."""
    table = await store.create_table(guild_id, channel_id, 5000, {"bie_san": False})
    await store.set_table_status(table.id, "playing")
    series = await store.start_series(table.id)
    game = await store.start_game(series.id, seed, dealt_hands(seed))
    return table, series, game
