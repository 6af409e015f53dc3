"""Fixtures for the bot tests: a fresh SQLite store file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "gouji.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(db_path) as opened:
        yield opened
