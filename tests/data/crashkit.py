"""Running a child process that writes to a store and killing it with SIGKILL at a chosen
moment; the acknowledgements it printed are what the store must still hold afterwards.

Reusable by other crash tests: pass another child module and its arguments.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.context
import os
import runpy
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Ack:
    """One acknowledged write: ``ack GAME_ID INDEX ACTION``."""

    game_id: int
    index: int
    action: str


def parse_acks(output: str) -> list[Ack]:
    """The complete ``ack`` lines of the child's output (a line cut by the kill is not one)."""
    acks = []
    for line in output.splitlines(keepends=True):
        if line.startswith("ack ") and line.endswith("\n"):
            _, game_id, index, action = line.rstrip("\n").split(" ", 3)
            acks.append(Ack(int(game_id), int(index), action))
    return acks


#: The children of the crash tests, imported once into the fork server (see
#: :func:`run_and_kill`); another child module works too, importing what it needs as it starts.
PRELOADED = ("tests.data.crashkit", "tests.data.crash_child", "tests.data.game_child")


def _forks() -> multiprocessing.context.ForkServerContext:
    """multiprocessing's fork server, with the crash children imported before it forks."""
    context = multiprocessing.get_context("forkserver")
    assert isinstance(context, multiprocessing.context.ForkServerContext)
    context.set_forkserver_preload(list(PRELOADED))  # takes effect when it starts
    return context


def _run_child(module: str, args: list[str], stdout: Connection, stderr: str) -> None:
    """In the forked child: stdout to the parent's pipe, stderr to a file, then run
    ``module`` as ``python -m module *args`` would (``__main__``, ``sys.argv``)."""
    os.dup2(stdout.fileno(), 1)
    stdout.close()
    with open(stderr, "wb") as err:
        os.dup2(err.fileno(), 2)
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


def run_and_kill(
    module: str, args: list[str], *, kill_after_acks: int, delay: float, limit: float = 60.0
) -> list[Ack]:
    """Run ``module`` as ``python -m module *args`` would, wait until it printed
    ``kill_after_acks`` acks (0: until it printed nothing yet — a kill during start-up),
    sleep ``delay`` seconds, SIGKILL it, and return every ack it printed before dying.

    The child is a process of its own, forked from a server that imported the project
    once (multiprocessing's ``forkserver``, :data:`PRELOADED`): what a fresh ``python -m``
    spends importing, the same at every start and nothing that any store does, is spent once
    instead of once per kill. Everything the child does with the store (open, migrate,
    restore, write) it does after the fork, where the kill can land."""
    context = _forks()
    reader, writer = context.Pipe(duplex=False)
    with tempfile.NamedTemporaryFile(prefix="crash-child-", suffix=".err") as stderr:
        proc = context.Process(target=_run_child, args=(module, args, writer, stderr.name))
        proc.start()
        writer.close()  # the child's copy is the only writer: EOF when it dies
        lines: list[str] = []
        deadline = time.monotonic() + limit
        with open(reader.fileno(), encoding="utf-8", closefd=False) as stdout:
            try:
                while sum(line.startswith("ack ") for line in lines) < kill_after_acks:
                    line = stdout.readline()
                    if not line or time.monotonic() > deadline:
                        raise RuntimeError(
                            f"child {module} stopped before {kill_after_acks} acks:\n"
                            + Path(stderr.name).read_text(errors="replace")
                        )
                    lines.append(line)
                time.sleep(delay)
            finally:
                if proc.is_alive():  # (not if it died by itself: then its pid is not ours)
                    proc.kill()  # SIGKILL
                proc.join()
                rest = stdout.read()
                reader.close()
        assert proc.exitcode == -signal.SIGKILL, f"child ended by itself: {proc.exitcode}"
        return parse_acks("".join(lines) + rest)


async def settled(url: str, limit: int = 1000) -> None:
    """Make PostgreSQL finish with a killed child: a COMMIT sent just before the SIGKILL is
    still carried out by the child's server session, so a test that reads the store twice
    could see it land between its reads. Every session of the store's (``application_name``
    gouji; none of the test's own is open at that moment) is ended, and waited for: a COMMIT
    in progress then has either happened or not, for good. SQLite: nothing to wait for."""
    if not url.startswith("postgresql"):
        return
    import asyncpg

    parts = urlsplit(url)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"])
    conn = await asyncpg.connect(urlunsplit(parts._replace(query=query)))
    sessions = "FROM pg_stat_activity WHERE application_name = 'gouji'"
    try:
        await conn.execute(f"SELECT pg_terminate_backend(pid) {sessions}")
        for _ in range(limit):
            left = await conn.fetchval(f"SELECT count(*) {sessions}")
            if not left:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{left} sessions of the killed child are still there")
    finally:
        await conn.close()
