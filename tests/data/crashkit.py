"""Running a child process that writes to a store and killing it with SIGKILL at a chosen
moment; the acknowledgements it printed are what the store must still hold afterwards.

Reusable by other crash tests: pass another child module and its arguments.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

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
        lines = []
        deadline = time.monotonic() + limit
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
