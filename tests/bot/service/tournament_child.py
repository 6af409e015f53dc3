"""The child process of the tournament crash test: a tournament run by the table service
and the tournament service over real tables, its people showing up and handing their seats
to the AI (托管), so that the games play by themselves; a restarted child goes on.

    python -m tests.bot.service.tournament_child DB [start]

``start`` creates the event (twelve people, three Swiss rounds of single games) and starts
it; without it, the child restores the tables and the event from the store. It prints
``ack EVENT ROUND*100+TABLE recorded`` (the :mod:`tests.data.crashkit` protocol) each time
it sees a table's results recorded, and ``done`` when the event is finished.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.service.presenter import RecordingPresenter
from bot.service.tables import TableService
from bot.service.tournaments import Board, TournamentService
from data import Store
from data.tournaments import Tournament
from engine.tournament import Config, Format, RoundPlan

GUILD, HOME, ORGANISER = 5 << 22, 900, 1
PEOPLE = tuple(range(2001, 2013))
CHANNELS = (801, 802)
INSTANCE = "tournament crash test"
CONFIG = Config(name="crash", format=Format.SWISS, rounds=3, seed=77, gap=0, channels=CHANNELS)


class Quiet:
    """Posts nothing (the crash test reads the store)."""

    async def round_seated(
        self, event: Tournament, plan: RoundPlan, channels: dict[int, int], board: Board
    ) -> None:
        return None

    async def event_over(self, event: Tournament, board: Board) -> None:
        return None


class Venues:
    async def table_channel(self, event: Tournament, round_number: int, table: int) -> int:
        return event.config.channels[table - 1]


def services(store: Store) -> tuple[TableService, TournamentService]:
    tables = TableService(
        store, RecordingPresenter(), ai_delay=0, rng=random.Random(5), instance=INSTANCE
    )
    return tables, TournamentService(tables, Venues(), Quiet(), poll=0.05)


async def drive(tables: TableService, events: TournamentService, event_id: int) -> None:
    """The people, until the event is over: sit down at a waiting table, hand a started
    one's seats to the AI; print an ack for each table recorded."""
    seen: set[tuple[int, int]] = set()
    handed: set[tuple[int, int]] = set()
    while True:
        state = await tables.store.load_tournament(event_id)
        for t in state.tables:
            if t.status == "finished" and (t.round, t.number) not in seen:
                seen.add((t.round, t.number))
                print(f"ack {event_id} {t.round * 100 + t.number} recorded", flush=True)
        if state.tournament.status != "running":
            print("done", flush=True)
            return
        plan = state.rounds[-1].plan if state.rounds else None
        for t in state.tables:
            if plan is None or t.round != plan.number or t.table_id is None:
                continue
            players = plan.tables[t.number - 1].players
            if t.status == "seated":
                for p in players:
                    try:
                        await events.show_up(GUILD, p)
                    except Exception:  # seated already, or the table is coming back
                        pass
            elif t.status == "playing":
                channel = CHANNELS[t.number - 1]
                for p in players:
                    if (t.table_id, p) not in handed:
                        try:
                            await tables.hand_over(tables.tables.table_in(channel), p)
                            handed.add((t.table_id, p))
                        except Exception:  # coming back after a restart: next look
                            pass
        await asyncio.sleep(0.02)


async def main(db: str, start: bool) -> None:
    async with await Store.open(db) as store:
        tables, events = services(store)
        await tables.restore()
        if start:
            event = await events.create(GUILD, HOME, ORGANISER, CONFIG)
            for p in PEOPLE:
                await events.join(GUILD, p)
            await events.start(GUILD, ORGANISER)
        else:
            event = await events.current(GUILD)
        print("ready", flush=True)
        events.run()
        await drive(tables, events, event.id)
        await events.close()
        await tables.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], "start" in sys.argv[2:]))
