"""The browser table under load: many tables, six people's sockets each, whole games.

    python -m bench.web [--tables 50] [--think 0.2,0.6] [--seed 1] [--activity]

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

With ``--activity`` every person comes the way a Discord Activity's page does (no browser:
the same HTTP calls): the server process also runs the fake Discord (``tests/fakediscord``,
its rate limits off), each table in a channel of its own with an activity instance its six
people are in; each person gets a code from the fake (its stand-in for the Discord client's
consent), trades it at ``POST /.proxy/api/token``, asks ``POST /.proxy/api/session`` for a
ticket and opens ``/.proxy/ws``, the six of a table at once, table after table. It prints
the time from asking for the code to the first state (the table shown), p50 / p99 / max
(target ≤ 1 s), and the first load of the Activity's page.

Times are wall-clock on a shared machine: run it under ``nice`` and read the figures as an
upper bound. ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.activity import activity_sign_in, launch_activity, open_session, percentile

TARGET_P99 = 0.050  # seconds from an action to every socket's new state
TARGET_SIGN_IN = 1.0  # seconds from an Activity's code asked to its table shown (--activity)
SERVER_READY = "tickets"
CHANNEL_BASE = 1000  # the tables' "channels"


# ---------------------------------------------------------------------- the server process
async def serve(tables: int, db: Path, seed: int, activity: bool = False) -> None:
    """Run ``tables`` tables of six people each and the web server; print the tickets (one
    JSON line: port, tickets by table and seat; with ``activity`` the fake Discord's address
    and, by table and seat, the person's user and activity instance), serve until stdin
    closes."""
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
    names = [f"P{t}.{s}" for t in range(tables) for s in range(6)]
    fake = await _fake_discord(tables, names) if activity else None
    if fake is None:
        users = [t * 6 + s + 1 for t in range(tables) for s in range(6)]
        channels = [CHANNEL_BASE + t for t in range(tables)]
        sign_in = None
    else:
        users = [fake.member(name).id for name in names]
        channels = [fake.channel(f"table-{t}").id for t in range(tables)]
        sign_in = activity_sign_in(fake, service, tickets)
    named = LocalNames(dict(zip(users, names, strict=True)))
    site = WebTable(service, TicketGate(tickets), named, default_lang="en", activity=sign_in)
    port = await site.start("127.0.0.1", 0)
    issued: list[list[Any]] = []
    for t, channel in enumerate(channels):
        people = users[t * 6 : t * 6 + 6]
        live = await service.open_table(0, channel, people[0], {"series": False, "turn_time": 600})
        for s in range(1, 6):
            await service.join(service.tables.table_in(channel), people[s], s)
        if fake is None:
            issued.append([tickets.issue(live.id, user, expires=0) for user in people])
            continue
        instance_id = launch_activity(fake, channel, people)
        issued.append([[user, instance_id] for user in people])
    ready: dict[str, Any] = {SERVER_READY: issued, "port": port}
    if fake is not None:
        ready.update(fake=fake.base_url, client_id=fake.application_id)
    print(json.dumps(ready), flush=True)
    for t, channel in enumerate(channels):
        await service.start(service.tables.table_in(channel), users[t * 6])
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await site.stop()
    await service.close()
    await store.close()
    if fake is not None:
        await fake.stop()


async def _fake_discord(tables: int, names: list[str]) -> Any:
    """The fake Discord of the Activity path: the people, a channel per table, no rate
    limits (the bench measures the bot's server, not Discord's limits)."""
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord(
        members=[(name, "en-US") for name in names],
        channels=[f"table-{t}" for t in range(tables)],
        rate_limits=False,
    )
    return await fake.start()


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


async def first_load(session: aiohttp.ClientSession, base: str, page: str = "/") -> dict[str, int]:
    """The bytes the first load of ``page`` takes, by file, as served with gzip."""
    import re

    sizes: dict[str, int] = {}
    headers = {"Accept-Encoding": "gzip"}
    async with session.get(base + page, headers=headers, auto_decompress=False) as got:
        body = await got.read()
        sizes[page] = len(body)
    async with session.get(base + page, headers=headers) as got:
        html = await got.text()
    for path in sorted(set(re.findall(r'(?:href|src)="((?:/\.proxy)?/static/[^"]+)"', html))):
        async with session.get(base + path, headers=headers, auto_decompress=False) as got:
            sizes[path] = len(await got.read())
    # app.js imports its modules (all preloaded above) and the stylesheet loads the fonts
    return sizes


async def sign_in(
    session: aiohttp.ClientSession, base: str, ready: dict[str, Any], user: int, instance: str
) -> tuple[Seat, float]:
    """One person comes through the Activity's sign-in (see the module doc): their socket's
    seat and the seconds from asking for the code to the first state."""
    began = time.perf_counter()
    consent = {"user_id": user, "client_id": ready["client_id"], "scopes": ["identify"]}
    async with session.post(f"{ready['fake']}/_harness/authorize", json=consent) as got:
        code = (await got.json())["code"]
    ticket = await open_session(session, base, code, instance)
    assert ticket is not None, f"user {user} was refused"
    ws = await session.ws_connect(f"{base.replace('http', 'ws')}/.proxy/ws?t={ticket}")
    seat = Seat(ws)
    while seat.state is None:
        message = await ws.receive()
        frame = json.loads(message.data)
        if frame["t"] == "state":
            seat.state = frame
            seat.arrivals.append((frame["v"], time.perf_counter()))
    return seat, time.perf_counter() - began


async def run(
    tables: int, think: tuple[float, float], seed: int, activity: bool = False
) -> dict[str, Any]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.web", "--serve", str(tables),
            "--db", str(Path(folder) / "bench.db"), "--seed", str(seed),
            *(["--activity"] if activity else []),
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
                load = await first_load(session, base, "/.proxy/activity" if activity else "/")
                tables_seats: list[list[Seat]] = []
                signed: list[float] = []  # seconds from the code asked to the table shown
                for people in ready[SERVER_READY]:
                    if activity:
                        came = await asyncio.gather(
                            *(sign_in(session, base, ready, u, i) for u, i in people)
                        )
                        tables_seats.append([seat for seat, _ in came])
                        signed += [took for _, took in came]
                        continue
                    seats = []
                    for ticket in people:
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
    figures: dict[str, Any] = {}
    if activity:
        figures = {
            "sign_in_p50_ms": round(_quantile(signed, 0.50) * 1000, 1),
            "sign_in_p99_ms": round(_quantile(signed, 0.99) * 1000, 1),
            "sign_in_max_ms": round(max(signed, default=0.0) * 1000, 1),
            "sign_in_meets_target": bool(signed) and max(signed) <= TARGET_SIGN_IN,
        }
    return {
        **figures,
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
    return percentile(values, q) if values else 0.0


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
    if "sign_in_p50_ms" in fig:
        met = "meets" if fig["sign_in_meets_target"] else "MISSES"
        lines.insert(
            0,
            f"Activity sign-in -> first table shown: p50 {fig['sign_in_p50_ms']} ms, "
            f"p99 {fig['sign_in_p99_ms']} ms, max {fig['sign_in_max_ms']} ms ({met} the target "
            f"of {TARGET_SIGN_IN * 1000:.0f} ms for every person)",
        )
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
    parser.add_argument(
        "--activity", action="store_true", help="sign in as the Discord Activity's page does"
    )
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the server process
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        if os.environ.get("GOUJI_BENCH_PROFILE"):  # where the server's time goes
            import cProfile

            cProfile.runctx(
                "asyncio.run(serve(args.serve, Path(args.db), args.seed, args.activity))",
                globals(),
                {"args": args, "serve": serve},
                os.environ["GOUJI_BENCH_PROFILE"],
            )
            return 0
        asyncio.run(serve(args.serve, Path(args.db), args.seed, args.activity))
        return 0
    fig = asyncio.run(run(args.tables, args.think, args.seed, args.activity))
    print(json.dumps(fig) if args.json else report(fig))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
