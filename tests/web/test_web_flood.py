"""A flooded web port does not starve the process: the browser table served in a process
with the 1,024 open files a systemd service gets by default, 1,100 silent connections
opened to it (they never send a request), and then a new player's socket is served, the log
stays small and the event loop keeps its pace (issue #50)."""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = 1024  # RLIMIT_NOFILE of the server's process, soft and hard
SILENT = 1100  # connections that never send a request


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@pytest.fixture(autouse=True)
def _files_for_the_flood() -> None:
    """This process opens the flood's connections: it needs more files than the server."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * SILENT + 256
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"the flood needs {wanted} open files; this process may have {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


@asynccontextmanager
async def flood_server(
    tmp_path: Path, *args: str
) -> AsyncIterator[tuple[int, str, Path, list[str]]]:
    """The table served by tests/web/flood_server.py (``args``: its own) in a process of its
    own with :data:`FILES` open files: its port, a player's link, its log's file, and (once
    it has stopped) the lines it printed after the first."""
    log = tmp_path / "server.log"
    with log.open("wb") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.web.flood_server",
            str(tmp_path / "flood.db"),
            *args,
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
            preexec_fn=_limit_files,
        )
    assert proc.stdout is not None and proc.stdin is not None
    tail: list[str] = []
    try:
        first = await asyncio.wait_for(proc.stdout.readline(), 30)
        port, link = first.decode().split()
        yield int(port), link, log, tail
    finally:
        proc.stdin.close()
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), 30)
            tail.extend(out.decode().split("\n"))
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


@asynccontextmanager
async def silent(port: int, count: int) -> AsyncIterator[int]:
    """``count`` TCP connections to ``port`` that send nothing; how many opened."""

    async def one() -> asyncio.StreamWriter | None:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return None
        return writer

    opened: list[asyncio.StreamWriter] = []
    try:
        for start in range(0, count, 100):
            batch = await asyncio.gather(*(one() for _ in range(start, min(count, start + 100))))
            opened += [w for w in batch if w is not None]
        yield len(opened)
    finally:
        for writer in opened:
            writer.close()
            with suppress(OSError):
                await writer.wait_closed()


async def _hello(port: int, ticket: str) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"http://127.0.0.1:{port}/ws?t={ticket}&lang=en") as ws:
            frame = json.loads((await ws.receive()).data)
    assert frame["t"] == "hello", frame


async def hello_after(port: int, link: str, *, within: float) -> float:
    """Seconds from opening a player's socket to its ``hello`` frame, trying again (as the
    page does) until ``within`` seconds have passed."""
    ticket = link.split("#", 1)[1]
    began = time.perf_counter()
    while True:
        try:
            await asyncio.wait_for(_hello(port, ticket), 2)
        except (OSError, aiohttp.ClientError, TimeoutError):
            if time.perf_counter() - began > within:
                raise
            await asyncio.sleep(0.25)
            continue
        return time.perf_counter() - began


def _lag(tail: list[str]) -> float:
    """The server's event loop's worst lateness, ms."""
    return float(next(line for line in tail if line.startswith("lag ")).split()[1])


async def test_1100_silent_connections_leave_room_for_a_player_and_the_log_small(
    tmp_path: Path,
) -> None:
    async with flood_server(tmp_path) as (port, link, log, tail):
        calm = await hello_after(port, link, within=10)
        async with silent(port, SILENT):
            await asyncio.sleep(1)
            flooded = await hello_after(port, link, within=10)
            await asyncio.sleep(2)
            logged = log.stat().st_size
    # without the door: never served (the connections held every file), 28 MB of log in
    # 10 s; the lateness is a guard against a starved loop (333 ms then, 123 ms now)
    assert flooded < 3, f"a player waited {flooded:.2f} s (without the flood: {calm:.3f} s)"
    assert logged < 4096, f"the server logged {logged} bytes: {log.read_text()[:2000]}"
    assert _lag(tail) < 2000, f"the event loop ran {_lag(tail)} ms late"


async def test_out_of_descriptors_all_the_same_the_waiting_are_refused_and_said_once(
    tmp_path: Path,
) -> None:
    """A process whose connections are not capped below its open files (here: 100,000)
    runs out of them: each waiting connection is taken with the spare descriptor and closed,
    the log says so once, and once the silent ones are dropped a player comes in."""
    async with flood_server(tmp_path, "100000") as (port, link, log, tail):
        async with silent(port, SILENT):
            await asyncio.sleep(1)
            flooded = await hello_after(port, link, within=15)
            logged = log.read_text()
    assert flooded < 10, f"a player waited {flooded:.2f} s"
    assert "ran out of file descriptors" in logged
    assert len(logged) < 4096, f"the server logged {len(logged)} bytes: {logged[:2000]}"
    assert _lag(tail) < 2000, f"the event loop ran {_lag(tail)} ms late"
