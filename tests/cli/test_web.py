"""``gouji web`` as a person starts it: a process that prints one link per person and one to
watch, serves the table client, and lets each link's socket in as its seat."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.cli import main

LINK = re.compile(r"(http://127\.0\.0\.1:\d+)/#(\S+)")


async def _lines_until(proc: asyncio.subprocess.Process, count: int) -> list[str]:
    assert proc.stdout is not None
    lines: list[str] = []
    while len([line for line in lines if LINK.search(line)]) < count:
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        assert line, f"gouji web ended early: {lines}"
        lines.append(line.decode())
    return lines


async def _hello(session: aiohttp.ClientSession, base: str, ticket: str) -> dict:
    async with session.ws_connect(f"{base.replace('http', 'ws')}/ws?t={ticket}") as ws:
        return json.loads((await ws.receive(timeout=10)).data)


def _ctrl_c_as_in_a_terminal() -> None:
    """Ctrl-C stops the child, as in a terminal, even when the tests run in the background
    (a shell's background job ignores SIGINT, and its children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


async def test_gouji_web_prints_a_link_per_person_and_each_opens_its_seat(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "web", "--no-browser", "--port", "0",
        "--seats", "0,3", "--names", "Ann,Bo", "--lang", "en", "--ai", "easy",
        "--db", str(tmp_path / "web.db"),
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )  # fmt: skip
    try:
        lines = await _lines_until(proc, 3)
        links = [LINK.search(line) for line in lines]
        found = [m.groups() for m in links if m]
        assert any("Seat 0 (Ann)" in line for line in lines)
        assert any("Seat 3 (Bo)" in line for line in lines)
        assert any(line.startswith("Spectator link") for line in lines)
        base = found[0][0]
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/") as page:
                assert page.status == 200 and "<html" in (await page.text()).lower()
            seats = [await _hello(session, base, ticket) for _, ticket in found]
            assert [(h["seat"], h["watching"]) for h in seats] == [
                (0, False),
                (3, False),
                (None, True),
            ]
            refused = await _hello(session, base, found[0][1][:-2] + "xx")
            assert refused["t"] == "gone"
    finally:
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 30) == 0


@pytest.mark.parametrize("seats", ["6", "a", ""])
def test_gouji_web_refuses_seats_that_are_not_0_to_5(seats: str, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["web", "--seats", seats, "--no-browser"])
    assert "seats are numbers 0-5" in capsys.readouterr().err
