"""What a front end's reads cost: ``python -m bench.views [--states N] [--seed S]``.

Plays a table of the table service (four people by the hint, two AI seats, a real SQLite
store in a temporary folder) and at each of the first N states a person is asked something
times what every front end takes there: the public view, each of the six seats' private view
(the hand, the question with its ranked plays, the public view), and the JSON of all seven
(what a browser table would be sent). Prints the median and the 99th percentile of each, in
CPU time (``time.process_time``; other processes on a busy machine do not inflate it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

HUMANS = (101, 102, 103, 104)


def _figures(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{name}: p50 {statistics.median(ordered) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms "
        f"CPU over {len(ordered)} states"
    )


async def measure(states: int, seed: int) -> dict[str, list[float]]:
    """CPU seconds of each read at each of the first ``states`` states a person is asked."""
    from bot.service.presenter import RecordingPresenter
    from bot.service.tables import TableService
    from bot.service.views import to_json
    from data import Store

    taken: dict[str, list[float]] = {"public": [], "private": [], "json": []}
    with tempfile.TemporaryDirectory() as folder:
        async with await Store.open(Path(folder) / "bench.db") as store:
            service = TableService(store, RecordingPresenter(), ai_delay=0, rng=random.Random(seed))
            live = await service.open_table(1, 1, HUMANS[0], {})
            for user in HUMANS[1:]:
                await service.join(service.tables.table_in(1), user)
            await service.add_ai(service.tables.table_in(1), HUMANS[0])
            await service.start(service.tables.table_in(1), HUMANS[0])
            while live.playing and len(taken["public"]) < states:
                await service.settle(live)
                if not live.playing:
                    break
                async with live.lock:
                    start = time.process_time()
                    public = service.views.public_view_locked(live)
                    viewed = time.process_time()
                    private = [service.views.private_view_locked(live, seat) for seat in range(6)]
                    seated = time.process_time()
                    for view in (public, *private):
                        json.dumps(to_json(view))
                    done = time.process_time()
                taken["public"].append(viewed - start)
                taken["private"].append((seated - viewed) / 6)
                taken["json"].append((done - seated) / 7)
                seat = next(s for s in live.running.to_act if not live.is_ai(s))
                user_id = live.seats[seat].user_id
                assert user_id is not None  # a person's seat
                await service.act_hint(live, user_id)
            await service.close()
    return taken


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=400, help="states measured (default 400)")
    parser.add_argument("--seed", type=int, default=3, help="seed of the deals (default 3)")
    args = parser.parse_args()
    if args.states < 1:
        parser.error("--states must be at least 1")
    taken = await measure(args.states, args.seed)
    print(_figures("public view", taken["public"]))
    print(_figures("private view (one seat)", taken["private"]))
    print(_figures("JSON of one view", taken["json"]))


if __name__ == "__main__":
    asyncio.run(main())
