"""Shared fixtures: ``--slow`` for the long runs, and a fresh SQLite store file per test."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Store


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", help="run the long invariant runs too")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long runs, enabled with --slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long run: use --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "gouji.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(db_path) as opened:
        yield opened
