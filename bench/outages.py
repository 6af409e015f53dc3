"""Database outages of growing length, waited out by a table in play.

    python -m bench.outages [--lengths 1,5,15,60] [--kinds busy,disk,postgresql] [--json]

For each kind of outage and each length (seconds): a fresh database, the table service
(its real clock, the AI seats answering at once) and a single game played by four people
who press "play the hint" as soon as they are asked. Ten presses into the game the outage
begins; they go on pressing through it (each press is refused with "the table is waiting for
its database"); after the length it ends, and the game is played out. The kinds:

- ``busy``: another process holds the SQLite file's write lock (the store's busy timeout
  is 5 s, as shipped: every write waits it out, then fails);
- ``disk``: the SQLite file's disk is full (a 16 MB tmpfs filled to its last byte, as root;
  else the store's writes fail as on a full disk);
- ``postgresql``: the PostgreSQL server is stopped (fast shutdown: the connection is cut)
  and started again (a throwaway server of ``tests/pgserver.py``, fsync on).

Printed per outage: whether the table survived (it resumed, the game finished, every
acknowledged press is in the log, the result was applied once, nothing broken), the presses
refused during it, the tries, and how long after the database came back the table was
playing again (at most the backoff's longest wait, 5 s, plus one try).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bot.service.errors import UserError
from bot.service.presenter import RecordingPresenter
from bot.service.tables import TableService
from data import Store
from engine.record import replay_series
from tests.data.outages import FullDisk, NoTmpfs, WriteLock, fill_disk, small_disk
from tests.pgserver import PgServer, find_bindir

GUILD, CHANNEL = 1000, 2000
HUMANS = (101, 102, 103, 104)  # seats 0-3; seats 4 and 5 are AI
BEFORE = 10  # presses into the game when the outage begins
THINK = 0.05  # seconds between two looks of the people at the table
KINDS = ("busy", "disk", "postgresql")


@dataclass
class Outage:
    """One outage and what the table made of it."""

    kind: str
    seconds: float
    survived: bool = False
    refused: int = 0
    tries: int = 0
    resumed_after: float | None = None  # seconds from the database's return to play
    acknowledged: int = 0
    how: str = ""


async def _people(service: TableService, live, acked: list[str], outage: Outage) -> None:
    """Press the hint whenever a person is asked, until the game is over."""
    while live.playing:
        waiting = [s for s in live.series.to_act if not live.is_ai(s)]
        if not waiting or not service.quiet(live):
            await asyncio.sleep(THINK)
            continue
        user = live.seats[waiting[0]].user_id
        try:
            acked.append(str(await service.act_hint(live, user)))
        except UserError as exc:
            if exc.key != "db_waiting":
                raise
            outage.refused += 1
            await asyncio.sleep(THINK)


async def _game(
    store: Store, outage: Outage, begin: Callable[[], object], end: Callable[[], object]
) -> None:
    service = TableService(store, RecordingPresenter(), ai_delay=0, warn_before=0)
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {"series": False, "turn_time": 600})
    for user in HUMANS[1:]:
        await service.join(service.tables.table_in(CHANNEL), user)
    await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    acked: list[str] = []
    people = asyncio.create_task(_people(service, live, acked, outage))
    while len(acked) < BEFORE and not people.done():
        await asyncio.sleep(THINK)
    await _done(begin())
    await asyncio.sleep(outage.seconds)
    await _done(end())
    back = time.monotonic()
    while live.stalled_since is not None and not people.done():
        outage.tries = max(outage.tries, live.stall_tries)
        await asyncio.sleep(0.01)
    outage.resumed_after = round(time.monotonic() - back, 2)
    await people
    assert live.series_id is not None
    record = await store.export_series_record(live.series_id)
    logged = [a for g in record["games"] for a in g.get("returns", []) + g["actions"]]
    rest = iter(logged)
    in_log = all(any(a == b for b in rest) for a in acked)
    replay = replay_series({**record, "games_total": 1, "tribute": False})
    once = all([(await store.get_profile(GUILD, u)).games == 1 for u in HUMANS])
    outage.acknowledged = len(acked)
    outage.survived = in_log and once and replay["games"][-1]["finished"] and live.running.finished
    await service.close()


async def _done(step: object) -> None:
    """Await what starting or ending an outage returned, if it is to be awaited."""
    if inspect.isawaitable(step):
        await step


async def measure(kind: str, seconds: float, tmp: Path) -> Outage:
    outage = Outage(kind, seconds)
    if kind == "busy":
        path = tmp / f"busy{seconds}.db"
        held: list[WriteLock] = []

        async def lock() -> None:
            held.append(await WriteLock.take(path))

        async with await Store.open(path) as store:
            await _game(store, outage, lock, lambda: held[0].release())
        outage.how = "another process's write lock on the file (busy timeout 5 s)"
    elif kind == "disk":
        with contextlib.ExitStack() as stack:
            try:
                disk = stack.enter_context(small_disk(tmp / f"disk{seconds}"))
                outage.how = "a 16 MB tmpfs filled to its last byte"
            except NoTmpfs:
                disk = None
            if disk is not None:
                filler: list[Path] = []
                async with await Store.open(disk / "gouji.db") as store:
                    await _game(
                        store,
                        outage,
                        lambda: filler.append(fill_disk(disk)),
                        lambda: filler[0].unlink(),
                    )
            else:
                async with await Store.open(tmp / f"full{seconds}.db") as store:
                    full = FullDisk(store)
                    outage.how = "the store's writes failing as on a full disk (no tmpfs here)"
                    await _game(
                        store,
                        outage,
                        lambda: setattr(full, "full", True),
                        lambda: setattr(full, "full", False),
                    )
    else:
        bindir = find_bindir()
        if bindir is None:
            raise RuntimeError("no PostgreSQL binaries found: apt-get install postgresql")
        server = PgServer(bindir, fsync=True).start()
        try:
            async with await Store.open(server.new_schema_url()) as store:
                await _game(store, outage, server.halt, server.resume)
        finally:
            server.stop()
        outage.how = "the server stopped (fast shutdown) and started"
    return outage


def format_report(outages: Sequence[Outage]) -> str:
    lines = []
    for kind in KINDS:
        mine = [o for o in outages if o.kind == kind]
        if not mine:
            continue
        lines.append(f"{kind} ({mine[0].how}):")
        for o in mine:
            if not o.survived:
                lines.append(f"  {o.seconds:>5g} s: NOT survived")
                continue
            if not o.tries and not o.refused:
                how = "waited out inside the busy timeout: no write failed, no press refused"
            else:
                how = (
                    f"{o.refused} presses refused meanwhile, {o.tries} tries; playing again "
                    f"{o.resumed_after} s after the database was back"
                )
            lines.append(
                f"  {o.seconds:>5g} s: survived; {how}; {o.acknowledged} presses acknowledged, "
                "all in the log, the result applied once"
            )
    return "\n".join(lines)


async def run(kinds: Sequence[str], lengths: Sequence[float]) -> list[Outage]:
    logging.getLogger("gouji").setLevel(logging.ERROR)  # the waits are logged as warnings
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            for seconds in lengths:
                out.append(await measure(kind, seconds, Path(tmp)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="1,5,15,60", help="seconds, comma-separated")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        lengths = [float(x) for x in args.lengths.split(",") if x.strip()]
    except ValueError:
        parser.error("--lengths are seconds, e.g. 1,5,15,60")
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if not lengths or min(lengths) <= 0 or not kinds or set(kinds) - set(KINDS):
        parser.error(f"--lengths above 0; --kinds of {', '.join(KINDS)}")
    if "disk" in kinds and os.geteuid() != 0:
        print("not root: the full disk is simulated (the store's writes fail)", file=sys.stderr)
    outages = asyncio.run(run(kinds, lengths))
    print(
        json.dumps([asdict(o) for o in outages], indent=1) if args.json else format_report(outages)
    )
    return 0 if all(o.survived for o in outages) else 1


if __name__ == "__main__":
    sys.exit(main())
