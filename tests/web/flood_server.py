"""A browser table in a process of its own, for the flood test (test_web_flood.py) and its
measurements: ``python -m tests.web.flood_server DB`` serves one table
(:class:`bot.web.local.LocalTable`) on a free port of 127.0.0.1 (``python -m
tests.web.flood_server DB N``: keeping up to N connections, whatever its open files), logs as ``gouji bot`` does
(INFO and up, to stderr), prints ``PORT LINK`` once it listens, and stops when its stdin
closes, printing then how late its event loop ran at worst (ms): a task that sleeps 50 ms
notes how much later it woke, as the bot's Discord side would feel it.

Run it with ``RLIMIT_NOFILE`` at 1,024 (the default of a systemd service) to see what a
flood of silent connections does to a process with that many files.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.web.local import LocalTable
from data import Store

TICK = 0.05  # seconds the lag probe sleeps


async def _lag(worst: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(TICK)
        worst[0] = max(worst[0], loop.time() - before - TICK)


async def _stdin_closed() -> None:
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)


async def main(db: str, connections: int | None) -> None:
    worst = [0.0]
    async with await Store.open(db) as store:
        local = LocalTable(store, {0: "济南"}, options={"series": False}, ai_delay=0)
        local.site.connections = connections
        async with local:
            print(local.port, local.link(0), flush=True)
            probe = asyncio.create_task(_lag(worst))
            await _stdin_closed()
            probe.cancel()
    print(f"lag {worst[0] * 1000:.1f}", flush=True)


if __name__ == "__main__":
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None))
