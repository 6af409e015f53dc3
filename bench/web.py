"""The browser table under load: many tables, six people's sockets each, whole games.

    python -m bench.web [--tables 50] [--think 0.2,0.6] [--seed 1]

A server process (the table service on a fresh SQLite store and the web server beside it,
as ``gouji bot`` serves it with ``GOUJI_WEB_URL``) runs the tables; this process opens six
WebSockets per table, one per seat, as six browsers would, and plays one game per table:
the seat asked answers after a think time (``--think``, seconds, uniform), with its first
legal play, a pass, no burn, the first cards it may return, "no" to the questions. It
prints, over every action:

- the latency from the action sent to each of the table's six sockets receiving the state
  that follows it, p50 / p99 / max (target p99 ≤ 50 ms);
- bytes per state frame (one socket's update) and per action (all six);
- the first page load: the bytes of the page and of every file it loads, gzipped as served;
- the server process's CPU time per action (user + system, from /proc).

Times are wall-clock on a shared machine: run it under ``nice`` and read the figures as an
upper bound. ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

TARGET_P99 = 0.050  # seconds from an action to every socket's new state
SERVER_READY = "tickets"
CHANNEL_BASE = 1000  # the tables' "channels"


# ---------------------------------------------------------------------- the server process
async def serve(tables: int, db: Path, seed: int) -> None:
    """Run ``tables`` tables of six people each and the web server; print the tickets (one
    JSON line: port, tickets by table and seat), serve until stdin closes."""
    from bot.service.presenter import Listener
    from bot.service.tables import TableService
    from bot.service.tickets import Tickets
    from bot.web.app import WebTable
    from bot.web.hub import LocalNames
    from bot.web.identity import TicketGate
    from data import Store

    store = await Store.open(str(db))
    service = TableService(store, Listener(), ai_delay=0, rng=random.Random(seed))
    tickets = Tickets()
    users = {t * 6 + s + 1: f"P{t}.{s}" for t in range(tables) for s in range(6)}
    site = WebTable(service, TicketGate(tickets), LocalNames(users), default_lang="en")
    port = await site.start("127.0.0.1", 0)
    issued: list[list[str]] = []
    for t in range(tables):
        channel = CHANNEL_BASE + t
        first = t * 6 + 1
        live = await service.open_table(0, channel, first, {"series": False, "turn_time": 600})
        for s in range(1, 6):
            await service.join(channel, first + s, s)
        issued.append([tickets.issue(live.id, first + s, expires=0) for s in range(6)])
    print(json.dumps({SERVER_READY: issued, "port": port}), flush=True)
    for t in range(tables):
        await service.start(CHANNEL_BASE + t, t * 6 + 1)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await site.stop()
    await service.close()
    await store.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------- the players
@dataclass
class Seat:
    """One person's socket: the newest state it got, and when each state came."""

    ws: aiohttp.ClientWebSocketResponse
    state: dict[str, Any] | None = None
    arrivals: list[tuple[int, float]] = field(default_factory=list)  # (version, time)
    bytes: int = 0
    frames: int = 0
    refused: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)


def choose(question: dict[str, Any]) -> dict[str, Any]:
    """The bench player's answer to ``question`` (what a state's ``me.question`` says)."""
    kind, answers = question["kind"], question["answers"]
    act: dict[str, Any] = {"t": "act", "token": question["token"]}
    if kind == "return":
        cards = "".join(
            letter * n for letter, n in zip("3456789TJQKA2BR", question["returnable"], strict=False)
        )
        return {**act, "verb": "return", "cards": cards[: question["returnCount"]]}
    if kind == "burn":
        return {**act, "verb": "noburn"}
    if kind == "turn":
        if question["plays"]:
            return {**act, "verb": "play", "cards": question["plays"][0]}
        return {**act, "verb": "pass" if "pass" in answers else answers[0]}
    return {**act, "verb": next((v for v in answers if v.startswith("no")), answers[0])}


async def read(seat: Seat) -> None:
    async for message in seat.ws:
        if message.type != aiohttp.WSMsgType.TEXT:
            break
        now = time.perf_counter()
        frame = json.loads(message.data)
        if frame["t"] == "state":
            seat.bytes += len(message.data.encode())
            seat.frames += 1
            seat.arrivals.append((frame["v"], now))
            seat.state = frame
            seat.changed.set()
        elif frame["t"] == "refused":  # the bench player's answer was wrong: counted
            seat.refused += 1


async def play_table(
    seats: list[Seat], think: tuple[float, float], rng: random.Random
) -> list[float]:
    """Play the table's game from its sockets; the latencies (seconds) of every action to
    every socket."""
    latencies: list[float] = []
    answered: set[tuple[int, str]] = set()  # (seat, question): a question may ask several
    while True:
        mover = None
        for number, seat in enumerate(seats):
            state = seat.state
            if state is None:
                continue
            question = (state.get("me") or {}).get("question")
            if question and (number, question["token"]) not in answered:
                mover = seat
                break
        states = [s.state for s in seats if s.state is not None]
        if mover is None:
            if states and all(not s["table"]["playing"] for s in states):
                return latencies
            waits = [asyncio.ensure_future(s.changed.wait()) for s in seats]
            await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
            for w in waits:
                w.cancel()
            for s in seats:
                s.changed.clear()
            continue
        assert mover.state is not None
        question = mover.state["me"]["question"]
        answered.add((seats.index(mover), question["token"]))
        await asyncio.sleep(rng.uniform(*think))
        version = max(s.state["v"] for s in seats if s.state is not None)
        sent = time.perf_counter()
        await mover.ws.send_str(json.dumps(choose(question)))
        deadline = sent + 10
        pending = list(seats)
        while pending and time.perf_counter() < deadline:
            for seat in pending:
                seat.changed.clear()
            still = []
            for seat in pending:
                came = next((at for v, at in seat.arrivals if v > version), None)
                if came is None:
                    still.append(seat)
                else:
                    latencies.append(came - sent)
            pending = still
            if pending:  # wait for a state on one of them (its arrival time is its own)
                waits = [asyncio.ensure_future(s.changed.wait()) for s in pending]
                await asyncio.wait(waits, timeout=1, return_when=asyncio.FIRST_COMPLETED)
                for w in waits:
                    w.cancel()
        latencies.extend(10.0 for _ in pending)  # never came: counted as 10 s
        for seat in seats:  # keep only what a later action may need
            seat.arrivals = [(v, at) for v, at in seat.arrivals if v > version]


async def first_load(session: aiohttp.ClientSession, base: str) -> dict[str, int]:
    """The bytes the first page load takes, by file, as served with gzip."""
    import re

    sizes: dict[str, int] = {}
    headers = {"Accept-Encoding": "gzip"}
    async with session.get(f"{base}/", headers=headers, auto_decompress=False) as page:
        body = await page.read()
        sizes["/"] = len(body)
    async with session.get(f"{base}/", headers=headers) as page:
        html = await page.text()
    for path in sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', html))):
        async with session.get(base + path, headers=headers, auto_decompress=False) as got:
            sizes[path] = len(await got.read())
    # app.js imports its modules (all preloaded above) and the stylesheet loads the fonts
    return sizes


async def run(tables: int, think: tuple[float, float], seed: int) -> dict[str, Any]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.web", "--serve", str(tables),
            "--db", str(Path(folder) / "bench.db"), "--seed", str(seed),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert server.stdout is not None and server.stdin is not None
        try:
            line = await asyncio.wait_for(server.stdout.readline(), 120)
            ready = json.loads(line)
            base = f"http://127.0.0.1:{ready['port']}"
            # no limit on the connections: each socket holds one (aiohttp's default is 100)
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as session:
                load = await first_load(session, base)
                tables_seats: list[list[Seat]] = []
                for tickets in ready[SERVER_READY]:
                    seats = []
                    for ticket in tickets:
                        ws = await session.ws_connect(f"{base.replace('http', 'ws')}/ws?t={ticket}")
                        seats.append(Seat(ws))
                    tables_seats.append(seats)
                readers = [asyncio.ensure_future(read(s)) for ts in tables_seats for s in ts]
                cpu_before = cpu_seconds(server.pid)
                began = time.perf_counter()
                rngs = [random.Random(seed * 1000 + t) for t in range(tables)]
                results = await asyncio.gather(
                    *(play_table(ts, think, r) for ts, r in zip(tables_seats, rngs, strict=True))
                )
                wall = time.perf_counter() - began
                cpu = cpu_seconds(server.pid) - cpu_before
                for ts in tables_seats:
                    for s in ts:
                        await s.ws.close()
                for reader in readers:
                    reader.cancel()
        finally:
            server.stdin.close()
            await asyncio.wait_for(server.wait(), 60)
    latencies = [x for r in results for x in r]
    seats_all = [s for ts in tables_seats for s in ts]
    actions = len(latencies) // 6
    frames = sum(s.frames for s in seats_all)
    sent_bytes = sum(s.bytes for s in seats_all)
    return {
        "tables": tables,
        "sockets": len(seats_all),
        "actions": actions,
        "wall_s": round(wall, 1),
        "actions_per_s": round(actions / wall, 1) if wall else 0.0,
        "p50_ms": round(_quantile(latencies, 0.50) * 1000, 1),
        "p99_ms": round(_quantile(latencies, 0.99) * 1000, 1),
        "max_ms": round(max(latencies, default=0.0) * 1000, 1),
        "meets_target": bool(latencies) and _quantile(latencies, 0.99) <= TARGET_P99,
        "refused": sum(s.refused for s in seats_all),
        "frame_bytes": round(sent_bytes / frames) if frames else 0,
        "bytes_per_action": round(sent_bytes / actions) if actions else 0,
        "first_load_bytes": sum(load.values()),
        "first_load": load,
        "server_cpu_ms_per_action": round(cpu / actions * 1000, 2) if actions else 0.0,
    }


def _quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by the nearest rank; 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def report(fig: dict[str, Any]) -> str:
    ok = "meets" if fig["meets_target"] else "MISSES"
    lines = [
        f"{fig['tables']} tables, {fig['sockets']} sockets, {fig['actions']} actions in "
        f"{fig['wall_s']} s ({fig['actions_per_s']} actions/s)",
        f"action -> every socket's new state: p50 {fig['p50_ms']} ms, p99 {fig['p99_ms']} ms, "
        f"max {fig['max_ms']} ms ({ok} the p99 target of {TARGET_P99 * 1000:.0f} ms)",
        f"a state frame: {fig['frame_bytes']} bytes; per action (six sockets): "
        f"{fig['bytes_per_action']} bytes",
        f"server CPU per action: {fig['server_cpu_ms_per_action']} ms",
        f"first page load: {fig['first_load_bytes'] / 1024:.1f} KB gzipped "
        + "("
        + ", ".join(f"{k} {v / 1024:.1f}" for k, v in fig["first_load"].items())
        + ")",
    ]
    return "\n".join(lines)


def _think(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    return float(low), float(high or low)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--think", type=_think, default=(0.2, 0.6), help="seconds, low,high")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the server process
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        if os.environ.get("GOUJI_BENCH_PROFILE"):  # where the server's time goes
            import cProfile

            cProfile.runctx(
                "asyncio.run(serve(args.serve, Path(args.db), args.seed))",
                globals(),
                {"args": args, "serve": serve},
                os.environ["GOUJI_BENCH_PROFILE"],
            )
            return 0
        asyncio.run(serve(args.serve, Path(args.db), args.seed))
        return 0
    fig = asyncio.run(run(args.tables, args.think, args.seed))
    print(json.dumps(fig) if args.json else report(fig))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
