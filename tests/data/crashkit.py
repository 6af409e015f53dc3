"""Running a child process that writes to a store and killing it with SIGKILL at a chosen
moment; the acknowledgements it printed are what the store must still hold afterwards.

Reusable by other crash tests: pass another child module and its arguments.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
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


def run_and_kill(
    module: str, args: list[str], *, kill_after_acks: int, delay: float, limit: float = 60.0
) -> list[Ack]:
    """Start ``python -m module *args``, wait until it printed ``kill_after_acks`` acks
    (0: until it printed nothing yet — a kill during start-up), sleep ``delay`` seconds,
    SIGKILL it, and return every ack it printed before dying."""
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,
        )
        lines: list[str] = []
        deadline = time.monotonic() + limit
        assert proc.stdout is not None
        try:
            while sum(line.startswith("ack ") for line in lines) < kill_after_acks:
                line = proc.stdout.readline()
                if not line or time.monotonic() > deadline:
                    stderr.seek(0)
                    raise RuntimeError(
                        f"child {module} stopped before {kill_after_acks} acks:\n"
                        + stderr.read().decode(errors="replace")
                    )
                lines.append(line)
            time.sleep(delay)
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            rest, _ = proc.communicate()
        assert proc.returncode == -signal.SIGKILL, f"child ended by itself: {proc.returncode}"
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
