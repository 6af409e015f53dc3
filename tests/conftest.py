"""Shared fixtures: ``--slow`` for the long runs, a fresh SQLite store file per test, and
``db_url``: a fresh database on each backend (SQLite, PostgreSQL); the long engine runs that
coverage does not trace."""

import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from data import Store
from tests.pgserver import PgServer, find_bindir
from tests.untraced import listed, name_of


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", help="run the long invariant runs too")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long runs, enabled with --slow")


# The tests named in tests/untraced.txt run untraced under coverage (`.ci/run` measures it with
# pytest-cov): its tracer makes traced code two to three times slower (Python 3.11 has no
# sys.monitoring), and every branch they run is run by a traced test too (tests/untraced.py
# chose them and says how to choose again). GOUJI_TRACE_ALL=1 traces every test.
UNTRACED = listed()
TRACE_ALL = os.environ.get("GOUJI_TRACE_ALL") == "1"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Run an ``UNTRACED`` test with tracing off, in the threads it starts too (the bot's
    database and drawing threads, the AI's). pytest-cov's ``no_cover`` is not enough under
    xdist: a worker runs two coverage collectors, and pausing one resumes the other."""
    tracer = sys.gettrace()
    if tracer is None or TRACE_ALL or name_of(item.nodeid) not in UNTRACED:
        return (yield)
    thread_tracer = threading.gettrace()
    sys.settrace(None)
    threading.settrace(None)
    try:
        return (yield)
    finally:
        threading.settrace(thread_tracer)
        sys.settrace(tracer)  # coverage's tracer puts itself back the fast way on its next call


# The tests that play whole games through the bot (and a browser) run first, handed out two
# at a time as workers free up (`.ci/run`: --dist load --maxschedchunk 2): none of them starts
# last and runs alone while the other workers are done.
WHOLE_GAMES_FIRST = ("tests/e2e/", "tests/web/", "tests/activity/", "tests/bench/")


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(WHOLE_GAMES_FIRST))  # stable
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
