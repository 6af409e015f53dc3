"""Shared fixtures: ``--slow`` for the long runs, a fresh SQLite store file per test, and
``db_url``: a fresh database on each backend (SQLite, PostgreSQL); the long engine runs that
coverage does not trace."""

import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from data import Store
from tests.pgserver import PgServer, find_bindir


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", help="run the long invariant runs too")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long runs, enabled with --slow")


# The long randomized and brute-force runs of the engine go untraced under coverage (`.ci/run`
# measures it with pytest-cov): its tracer makes their tight loops about three times slower
# (Python 3.11 has no sys.monitoring), and what they loop over is the engine's code, which its
# other tests and every game played through the bot cover. file::test, all parameters.
UNTRACED = frozenset(
    {
        "tests/ai/test_sim.py::test_simulator_plays_like_the_engine",
        "tests/game/test_invariants.py::test_random_full_games_keep_every_invariant",
        "tests/game/test_invariants.py::test_random_small_positions_keep_every_invariant_and_burn",
        "tests/game/test_players_under_options.py::"
        "test_hint_and_expert_choose_legal_actions_under_every_option",
        "tests/engine/test_movegen.py::test_perft_answers_agree_with_brute_force",
        "tests/engine/test_movegen.py::test_answers_equal_brute_force",
        # the strong player's and the review's searches: rollouts on the simulator, whole
        # games of them (engine/ai/strong.py, review.py and sim.py stay covered by the
        # shorter tests beside these, and by the strong AI seats the bot's tests play)
        "tests/ai/test_sim.py::test_rollouts_end_as_the_engine_does",
        "tests/ai/test_players.py::test_strong_searches_and_decides_legally_under_every_house_rule",
        "tests/ai/test_players.py::test_strong_is_deterministic_for_a_seed",
        "tests/ai/test_players.py::test_every_player_kind_plays_legal_games",
        "tests/ai/test_review.py::test_a_planted_bad_play_is_the_costliest_mistake",
        "tests/ai/test_review.py::test_every_game_is_reviewed_whatever_its_house_rules",
        "tests/ai/test_review.py::test_the_budget_bounds_the_rollouts",
        "tests/cli/test_replay_review.py::test_review_says_the_plays_and_hands_in_words",
    }
)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Run an ``UNTRACED`` test with tracing off (pytest-cov's ``no_cover`` is not enough under
    xdist: a worker runs two coverage collectors, and pausing one resumes the other)."""
    tracer = sys.gettrace()
    if tracer is None or item.nodeid.split("[")[0] not in UNTRACED:
        return (yield)
    sys.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracer)  # coverage's tracer puts itself back the fast way on its next call


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
