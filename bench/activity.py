"""Signing in from the Discord Activity, measured: many people open the table at once.

    python -m bench.activity [--tables 10] [--seed 1] [--json]

One process runs the fake Discord (tests/fakediscord, its rate limits off: the figure is the
server's), the table service with ``--tables`` started tables of six people, each table's
channel with an Activity instance all six are in, and the web server with the Activity's
sign-in (bot/web/activity.py). Then every person signs in at the same moment, as the
Activity's page does after the SDK's ``authorize``: ``POST /api/token`` with a fresh code,
``POST /api/session`` with the token and the instance, the socket ``/ws?t=TICKET``, until
its first ``state`` frame — the table shown. It prints, over all of them:

- sign-in to the first state frame, p50 / p99 / max (the server's part of the target
  "sign-in to first table shown ≤ 1 s"; the SDK's handshake and the page's own work are
  the browser's, and Discord's three round trips — token, ``/users/@me``, the instance —
  are the fake's here, on this machine: on Discord each is a network round trip);
- the Discord calls per sign-in (3) and the refusals (0);
- the process's CPU time per sign-in (everything in this one process: the fake, the
  clients and the server).

Times are wall-clock on a shared machine: run it under ``nice`` and read them as an upper
bound.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

from bot.service.presenter import Listener
from bot.service.tables import TableService
from bot.service.tickets import Tickets
from bot.web.activity import ActivityKeys, ActivitySignIn
from bot.web.app import WebTable
from bot.web.hub import LocalNames
from bot.web.identity import TicketGate
from data import Store
from tests.fakediscord import FakeDiscord, running_fake

TARGET = 1.0  # seconds: sign-in to the first table shown (the target, whole path)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def activity_sign_in(fake: FakeDiscord, service: TableService, tickets: Tickets) -> ActivitySignIn:
    """The web server's Activity sign-in with the fake Discord's application keys."""
    keys = ActivityKeys(
        fake.application_id, fake.activities.client_secret, fake.token, fake.api_base
    )
    return ActivitySignIn(keys, service, tickets)


def launch_activity(fake: FakeDiscord, channel_id: int, people: Sequence[int]) -> str:
    """The first of ``people`` starts the Activity in the channel and the others join it:
    the instance id."""
    instance = fake.activities.launch(channel_id, people[0])
    for user in people[1:]:
        fake.activities.join(instance.instance_id, user)
    return instance.instance_id


async def open_session(
    http: aiohttp.ClientSession, url: str, code: str, instance_id: str
) -> str | None:
    """What the Activity's page does with the SDK's ``authorize`` code: trade it at
    ``POST /.proxy/api/token``, then ask ``POST /.proxy/api/session`` with the token and the
    instance. The socket's ticket, or None when refused."""
    async with http.post(f"{url}/.proxy/api/token", json={"code": code}) as answer:
        token = (await answer.json()).get("access_token")
    asked = {"access_token": token, "instance_id": instance_id}
    async with http.post(f"{url}/.proxy/api/session", json=asked) as answer:
        ticket = (await answer.json()).get("ticket")
    return None if ticket is None else str(ticket)


async def sign_in(
    http: aiohttp.ClientSession, url: str, fake: FakeDiscord, user_id: int, instance_id: str
) -> tuple[float, bool]:
    """One person's sign-in to their first state frame: (seconds, whether it succeeded)."""
    code = fake.activities.authorize(user_id)
    began = time.perf_counter()
    ticket = await open_session(http, url, code, instance_id)
    if ticket is None:
        return time.perf_counter() - began, False
    async with http.ws_connect(f"{url}/.proxy/ws?t={ticket}") as ws:
        async for message in ws:
            if json.loads(message.data)["t"] == "state":
                return time.perf_counter() - began, True
    return time.perf_counter() - began, False


async def run(tables: int, seed: int) -> dict[str, Any]:
    people = tables * 6
    members = [(f"p{n}", "en-US") for n in range(people)]
    channels = [f"table-{t}" for t in range(tables)]
    with tempfile.TemporaryDirectory() as folder:
        async with (
            running_fake(members=members, channels=channels, rate_limits=False) as fake,
            await Store.open(str(Path(folder) / "bench.db")) as store,
        ):
            service = TableService(store, Listener(), ai_delay=0, rng=random.Random(seed))
            tickets = Tickets()
            names = LocalNames({m.id: m.name for m in fake.members})
            site = WebTable(
                service,
                TicketGate(tickets),
                names,
                activity=activity_sign_in(fake, service, tickets),
                default_lang="en",
            )
            port = await site.start("127.0.0.1", 0)
            seated: list[tuple[int, str]] = []
            for t, name in enumerate(channels):
                channel = fake.channel(name).id
                users = [m.id for m in fake.members[t * 6 : t * 6 + 6]]
                await service.open_table(
                    fake.guild_id, channel, users[0], {"series": False, "turn_time": 600}
                )
                for s, user in enumerate(users[1:], 1):
                    await service.join(service.tables.table_in(channel), user, s)
                await service.start(service.tables.table_in(channel), users[0])
                instance_id = launch_activity(fake, channel, users)
                seated += [(user, instance_id) for user in users]
            calls_before = len(fake.requests)
            cpu_before = time.process_time()
            async with aiohttp.ClientSession() as http:
                url = f"http://127.0.0.1:{port}"
                results = await asyncio.gather(
                    *(sign_in(http, url, fake, user, inst) for user, inst in seated)
                )
            cpu = time.process_time() - cpu_before
            calls = len(fake.requests) - calls_before
            await site.stop()
            await service.close()
    times = [seconds for seconds, _ in results]
    return {
        "people": people,
        "signed_in": sum(ok for _, ok in results),
        "p50_ms": round(percentile(times, 0.5) * 1000, 1),
        "p99_ms": round(percentile(times, 0.99) * 1000, 1),
        "max_ms": round(max(times) * 1000, 1),
        "discord_calls_per_sign_in": round(calls / people, 2),
        "cpu_ms_per_sign_in": round(cpu / people * 1000, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.activity", description=__doc__)
    parser.add_argument("--tables", type=int, default=10, help="tables of six people (10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.tables, args.seed))
    if args.json:
        print(json.dumps(figures))
        return 0
    print(
        f"{figures['signed_in']}/{figures['people']} people signed in at once "
        f"({args.tables} tables): sign-in to the first table shown "
        f"p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms "
        f"(target of the whole path, browser included: ≤ {TARGET * 1000:.0f} ms)"
    )
    print(
        f"Discord calls per sign-in: {figures['discord_calls_per_sign_in']}; "
        f"CPU per sign-in (fake, clients and server in one process): "
        f"{figures['cpu_ms_per_sign_in']} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
