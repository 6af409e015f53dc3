"""The child process of the crash tests: it writes to a store and prints every write the
store acknowledged, until the parent kills it with SIGKILL.

    python -m tests.data.crash_child DB SCENARIO SEED

It prints ``ready`` once the store is open, then one line per acknowledged write:
``ack GAME_ID INDEX ACTION``. A line is printed only after the write returned, so every
printed line is a promise the store must keep after the kill.

To add a scenario (e.g. whole games through the engine), write an ``async def
scenario(store, rng, ack)`` and register it in :data:`SCENARIOS`; ``ack(game_id, index,
action)`` prints the line.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Awaitable, Callable

from data import Store
from engine import deal

Ack = Callable[[int, int, str], None]
Scenario = Callable[[Store, random.Random, Ack], Awaitable[None]]

CHANNEL = 1
RANKS = "3456789TJQKA2"


def action_for(index: int) -> str:
    """The action the ``append`` scenario writes at ``index`` (the parent checks them)."""
    seat = index % 6
    return (
        f"{seat} pass" if index % 3 == 2 else f"{seat} play {RANKS[index % 13]}{'shdc'[index % 4]}"
    )


async def current_game(store: Store) -> tuple[int, int]:
    """The game the ``append`` scenario writes to, made on first use: (game id, next index)."""
    report = await store.load_active_tables()
    for active in report.tables:
        if active.table.channel_id == CHANNEL and active.games:
            log = active.games[-1]
            return log.game.id, len(log.actions)
    table = await store.create_table(1, CHANNEL, 1, {})
    await store.set_table_status(table.id, "playing")
    series = await store.start_series(table.id)
    hands = [" ".join(map(str, hand)) for hand in deal(1)]
    game = await store.start_game(series.id, 1, hands)
    return game.id, 0


async def append_scenario(store: Store, rng: random.Random, ack: Ack) -> None:
    """Append actions forever, one per commit or, now and then, three in one transaction."""
    game_id, index = await current_game(store)
    while True:
        if rng.random() < 0.2:
            batch = [action_for(index + k) for k in range(3)]
            indexes = await store.append_actions(game_id, batch, expected_index=index)
            for i, action in zip(indexes, batch, strict=True):
                ack(game_id, i, action)
            index += len(batch)
        else:
            action = action_for(index)
            ack(game_id, await store.append_action(game_id, action, expected_index=index), action)
            index += 1


SCENARIOS: dict[str, Scenario] = {"append": append_scenario}


def print_ack(game_id: int, index: int, action: str) -> None:
    """Tell the parent a write was acknowledged (one write(2) per line, flushed)."""
    sys.stdout.write(f"ack {game_id} {index} {action}\n")
    sys.stdout.flush()


async def main(path: str, scenario: str, seed: int) -> None:
    async with await Store.open(path) as store:
        print("ready", flush=True)
        await SCENARIOS[scenario](store, random.Random(seed), print_ack)


if __name__ == "__main__":
    db, name, seed_text = sys.argv[1:4]
    asyncio.run(main(db, name, int(seed_text)))
