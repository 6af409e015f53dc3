"""Shared fixtures: ``--slow`` for the long runs, a fresh SQLite store file per test, and
``db_url``: a fresh database on each backend (SQLite, PostgreSQL)."""

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from data import Store
from tests.pgserver import PgServer, find_bindir


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


# --- the database backends: SQLite, and PostgreSQL on a throwaway server -----------------

PG_MISSING = (
    "PostgreSQL tests skipped: no PostgreSQL binaries (initdb, pg_ctl) found. Install them "
    "(Debian: apt-get install postgresql) or point GOUJI_PG_BINDIR at their directory."
)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One throwaway PostgreSQL server for the whole run (unix socket in a temporary
    directory; as root it runs as the postgres user). Without binaries: skip, or fail
    when ``CI`` is set."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail(PG_MISSING.replace("skipped", "cannot run") + " CI is set.", pytrace=False)
        pytest.skip(PG_MISSING)
    server = PgServer(bindir)
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database as a URL, once per backend: a SQLite file in ``tmp_path``,
    or a new schema on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gouji.db'}"
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_schema_url()
