"""``bench.discord`` with the bot in processes of its own, sharing PostgreSQL.

    python -m bench.discord_shards [--shards 2] [--tables 10] [--actions 10]
                                   [--think 2-8 | --fast] [--ai-delay 0.5] [--no-rate-limits]
                                   [--draw-processes 1] [--seed 1] [--json]

``--shards 2`` (the default): two ``gouji bot`` processes (``bench.shard_bot``: each
writes down the questions its service asks), shards 0 and 1 of 2 (``GOUJI_SHARD_COUNT=2``, ``GOUJI_SHARDS=0`` / ``1``), share one throwaway PostgreSQL server
(``tests/pgserver.py``, with fsync on, as a real one) and the fake Discord, which holds a
server on each shard with half of the ``--tables`` channels each. ``--shards 1``: one bot
process holds every table — the bot's own figures, as ``bench.discord`` measures them but
without the fake Discord and the simulated people on the bot's event loop (at 500 tables
they took a third of it there).

The people, their tables and the figures are those of ``python -m bench.discord`` (its
:class:`~bench.discord.TableDriver` and report), but for the pictures reused, which only the
bot's memory tells; question → notification pairs the questions the bots wrote down with the
messages the fake saw (one ``time.monotonic()`` clock for the machine). As the bots run in
other processes, the people
see the tables through the shared database, in a mirror that brings up to date, every
``MIRROR_EVERY`` seconds, the tables whose rows changed (applying the actions logged since,
or rebuilding them from the bots' snapshots). CPU: the
bot processes' (from the OS when they exit) and this process's (the fake Discord, the
people, the mirror).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench.discord import (
    PATIENCE,
    PEOPLE_PER_TABLE,
    SEAT_SPREAD,
    SETUP_PATIENCE_PER_TABLE,
    THINK,
    LoopLag,
    MessageIndex,
    Notification,
    TableChanges,
    TableDriver,
    UploadTally,
    _figures,
    _members,
    add_drawing_figures,
    add_play_arguments,
    discord_traffic,
    format_report,
    lag_figures,
    notification_figures,
    opening_figures,
    picture_uploads,
    poll_waits,
    start_spread,
)
from bench.shard_bot import ASKS_ENV, read_asks, read_figures
from bot.cli.collector import collect_in_steps
from bot.discord_bot.endpoints import API_ENV, GATEWAY_ENV
from bot.service.errors import UserError
from bot.service.live import LiveTable
from bot.service.presenter import RecordingPresenter
from bot.service.recovery import rebuild
from bot.service.tables import TableService
from data import ENGINE, Store, shard_of
from engine.actions import Action
from tests.fakediscord import FakeDiscord, running_fake
from tests.pgserver import PgServer, find_bindir

ROOT = Path(__file__).parents[1]
SHARDS = (1, 2)  # the --shards a run may have: one bot process, or one for each shard
MIRROR_EVERY = 0.1  # seconds between two looks at which tables changed in the database
#: Each open table's rows as a version (PostgreSQL): the table's own row, its seats, its
#: latest series and deal, and how far that deal's log goes. A bot writes one of them for
#: everything the people can see change.
_VERSIONS = """
WITH latest AS (
    SELECT s.table_id, max(s.updated_at) AS series_at, max(g.id) AS game_id
    FROM series AS s JOIN games AS g ON g.series_id = s.id
    JOIN tables AS t ON t.id = s.table_id WHERE t.status IN ('lobby', 'playing')
    GROUP BY s.table_id
)
SELECT t.id, t.updated_at, l.series_at, l.game_id,
    (SELECT g.updated_at FROM games AS g WHERE g.id = l.game_id),
    (SELECT max(a.idx) FROM actions AS a WHERE a.game_id = l.game_id),
    (SELECT string_agg(concat_ws(',', st.seat, st.user_id, st.ai_kind, st.standin,
        st.timeouts, st.dm_refused), ';' ORDER BY st.seat) FROM seats AS st
     WHERE st.table_id = t.id)
FROM tables AS t LEFT JOIN latest AS l ON l.table_id = t.id
WHERE t.status IN ('lobby', 'playing')
"""


class Mirror:
    """The open tables as the bots hold them, rebuilt from the shared database; answers
    what :class:`~bench.discord.TableDriver` asks the bot's table service. Each look
    touches only the tables whose rows changed (:data:`_VERSIONS`): at 500 tables,
    rebuilding every one ten times a second would take this process's whole event loop.
    A table that only went on with its deal is played on (:meth:`_play_on`); the others
    are rebuilt."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # an idle table service: only its pure questions about a table are used
        self.service = TableService(store, RecordingPresenter())
        # a table caught between two writes of its bot is replayed from its log: expected
        logging.getLogger("gouji.data").setLevel(logging.ERROR)
        self.tables: dict[int, LiveTable] = {}  # by channel id
        self.versions: dict[int, tuple[Any, ...]] = {}  # by table id
        self.changes = TableChanges()  # by channel id: set when changed (or gone)
        self.refreshes = 0  # looks at the versions
        self.rebuilt = 0  # tables rebuilt
        self.played_on = 0  # tables brought up to date by applying their new actions
        self.closed: dict[int, str] = {}  # by channel id: the status of a table gone

    async def refresh(self) -> None:
        rows = await self.store._fetch(_VERSIONS)
        versions = {int(row[0]): tuple(row[1:]) for row in rows}
        changed = [t for t, v in versions.items() if self.versions.get(t) != v]
        moved = await self._play_on(changed, versions)
        for channel in moved:
            self.changes.of(channel).set()
        played = set(moved.values())
        changed = [t for t in changed if t not in played]
        report = await self.store.load_active_tables(engine=ENGINE, tables=changed)
        tables = {c: live for c, live in self.tables.items() if live.id in versions}
        loaded = set()
        for active in report.tables:
            live = await rebuild(self.store, active)
            if live.series is not None and live.series.current is None:
                continue  # a series whose first deal is not written yet: not loaded
            tables[live.table.channel_id] = live
            self.changes.of(live.table.channel_id).set()
            loaded.add(live.id)
        for gone in self.tables.keys() - tables.keys():  # ended: its people look again
            self.changes.of(gone).set()
            row = await self.store.get_table(self.tables[gone].id)  # said in the errors
            self.closed[gone] = " ".join(filter(None, (row.status, row.broken_reason)))
        # a table that did not load (caught between two writes) is looked at again next time
        self.tables = tables
        self.versions = {t: v for t, v in versions.items() if t in loaded or t not in changed}
        self.refreshes += 1
        self.rebuilt += len(loaded)
        self.played_on += len(moved)

    async def _play_on(
        self, changed: list[int], versions: dict[int, tuple[Any, ...]]
    ) -> dict[int, int]:
        """Bring up to date, by applying the actions logged since, the changed tables whose
        deal, series and seats are as they were (most looks: a turn was played), instead of
        rebuilding them (a snapshot unpickled, its log replayed: at 500 tables that took a
        fifth of this process). Returns the channels of those tables, with their ids."""
        held = {live.id: live for live in self.tables.values() if live.series is not None}
        after: dict[int, tuple[LiveTable, int]] = {}  # by deal id: the table, its last index
        for table in changed:
            old, new, live = self.versions.get(table), versions[table], held.get(table)
            if old is None or live is None or old[4] is None or live.game_id != new[2]:
                continue
            if old[1:4] == new[1:4] and old[5] == new[5]:  # the same deal and seats
                after[int(new[2])] = (live, int(old[4]))
        if not after:
            return {}
        rows = await self.store._fetch(
            "SELECT a.game_id, a.action FROM actions AS a JOIN unnest(?::bigint[], "
            "?::bigint[]) AS k(game_id, after) ON a.game_id = k.game_id AND a.idx > k.after "
            "ORDER BY a.game_id, a.idx",
            ([*after], [idx for _, idx in after.values()]),
        )
        logged: dict[int, list[str]] = {}
        for game_id, action in rows:
            logged.setdefault(int(game_id), []).append(action)
        moved: dict[int, int] = {}
        for game_id, (live, _) in after.items():
            try:
                for text in logged.get(game_id, []):
                    live.running.apply(Action.parse(text))
            except ValueError:  # not what the bot played: rebuilt from the database below
                continue
            moved[live.table.channel_id] = live.id
        return moved

    async def run(self) -> None:
        while True:
            await self.refresh()
            await asyncio.sleep(MIRROR_EVERY)

    def playing(self, channel_id: int) -> bool:
        live = self.tables.get(channel_id)
        return live is not None and live.playing

    def table_in(self, channel_id: int) -> LiveTable:
        """The open table of a channel, else the service's ``UserError``, saying why."""
        live = self.tables.get(channel_id)
        if live is None:
            raise UserError(f"no_table: {self.closed.get(channel_id, 'never loaded')}")
        return live

    def question_token(self, live: LiveTable) -> str:
        return self.service.views.question_token(live)

    def quiet(self, live: LiveTable) -> bool:
        return self.service.quiet(live)


class MirroredDriver(TableDriver):
    """bench.discord's people of one table, seeing it through the :class:`Mirror`: after
    a start they wait until the mirror shows the new game (in one process it is there when
    the command is answered). On a server of another shard than 0 they type every turn:
    Discord sends the presses of DM buttons (no server) to shard 0, whose process does not
    hold the table, so the DM hand controller does not work there (yet)."""

    def __init__(self, *args: Any, typed: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.typed = typed

    def _changed(self) -> asyncio.Event:
        """Set when the mirror rebuilds this table (or it is gone)."""
        mirror: Mirror = self.runner.client.service
        return mirror.changes.of(self.channel_id)

    async def _act(self, user: Any, rng: random.Random) -> None:
        if self.typed:
            await self._act_by_slash(user, rng)
        else:
            await super()._act(user, rng)

    async def _answer(self, user: Any, *path: str, **options: Any) -> None:
        mirror: Mirror = self.runner.client.service
        before = mirror.tables.get(self.channel_id)
        series = before.series_id if before is not None else None
        await super()._answer(user, *path, **options)
        if path[-1] in ("start", "again"):
            await self.fake.wait_for(
                lambda: (
                    mirror.playing(self.channel_id)
                    and mirror.tables[self.channel_id].series_id != series
                ),
                PATIENCE,
                "the new game in the mirror",
                poll=MIRROR_EVERY,
            )


class BotProcess:
    """One ``gouji bot`` process serving shard ``shard`` of ``shards``."""

    def __init__(
        self,
        fake: FakeDiscord,
        url: str,
        shard: int,
        ai_delay: float,
        draw: int,
        log: Path,
        shards: int = 2,
    ):
        asks = self.asks = log.with_suffix(".asks.jsonl")  # what its service asked
        self.env = {
            **os.environ,
            API_ENV: fake.api_base,
            GATEWAY_ENV: fake.gateway_url,
            "DISCORD_TOKEN": fake.token,
            "GOUJI_DATABASE_URL": url,
            "GOUJI_SHARD_COUNT": str(shards),
            "GOUJI_SHARDS": str(shard),
            "GOUJI_AI_DELAY": str(ai_delay),
            "GOUJI_WARN": "0",
            "GOUJI_DRAW_PROCESSES": str(draw),
            ASKS_ENV: str(asks),
        }
        self.fake, self.shard, self.log = fake, shard, log
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log.open("ab") as err:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.shard_bot", env=self.env, cwd=ROOT,
                stdout=asyncio.subprocess.DEVNULL, stderr=err,
            )  # fmt: skip

    def connected(self) -> bool:
        if self.proc is None or self.proc.returncode is not None:
            raise RuntimeError(f"bot process of shard {self.shard} exited:\n{self.tail()}")
        return self.shard in self.fake.gateway.by_shard

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self.proc.wait(), 60)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


async def run_benchmark(
    tables: int = 10,
    actions: int = 10,
    think: tuple[float, float] = THINK,
    ai_delay: float = 0.5,
    seed: int = 1,
    draw_processes: int = 1,
    rate_limits: bool = True,
    shards: int = 2,
) -> dict:
    """Play ``tables`` tables at once on ``shards`` bot processes (one per shard); the
    figures of :func:`bench.discord.run_benchmark`, with the processes' CPU."""
    if shards not in SHARDS or tables < shards or actions < 1:
        raise ValueError(
            "--shards must be 1 or 2, --tables at least --shards, --actions at least 1"
        )
    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError("no PostgreSQL binaries found: apt-get install postgresql")
    rng = random.Random(seed)
    server = PgServer(bindir, fsync=True).start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            async with running_fake(
                members=_members(tables), recommended_shards=shards, rate_limits=rate_limits
            ) as fake:
                channels = [f"t{i:03d}" for i in range(tables)]
                for shard in range(shards):
                    fake.add_guild(f"Shard {shard}", channels[shard::shards], shard=(shard, shards))
                url = server.url()
                bots = [
                    BotProcess(
                        fake, url, i, ai_delay, draw_processes, Path(tmp) / f"shard{i}.log", shards
                    )
                    for i in range(shards)
                ]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                try:
                    for bot in bots:
                        await bot.start()
                    await fake.wait_for(
                        lambda: all(b.connected() for b in bots) and fake.commands.commands_in(None),
                        120, "the bot processes to connect", poll=0.1,
                    )  # fmt: skip
                    fig, notes, began = await _play(
                        fake, url, channels, actions, think, rng, shards
                    )
                finally:
                    for bot in bots:
                        await bot.stop()
                asks = [ask for bot in bots for ask in read_asks(bot.asks)]
                fig["notification"] = notification_figures(asks, notes, began)
                drawn: dict[str, dict[str, int]] = {}
                fig["loop_lag"] = {"the fake's process (Discord, people, mirror)": fig["loop_lag"]}
                for bot in bots:
                    written = read_figures(bot.asks)
                    drawn = add_drawing_figures(drawn, written.get("pictures", {}))
                    lags = written.get("loop_lags", [])
                    fig["loop_lag"][f"bot process {bot.shard}"] = lag_figures(lags, began)
                fig["pictures_uploaded"].update(drawn)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                bots_cpu = sum(
                    getattr(after, f) - getattr(before, f) for f in ("ru_utime", "ru_stime")
                )
                for bot in bots:
                    if "Traceback" in bot.log.read_text(errors="replace"):
                        fig["errors"].append(f"shard {bot.shard} logged a traceback:\n{bot.tail()}")
                fig["bot_processes_cpu_seconds"] = round(bots_cpu, 1)
                fig["draw_processes"] = draw_processes
                fig["think_seconds"] = list(think)
                fig["rate_limits"] = rate_limits
                fig["shards"] = shards
                return fig
    finally:
        server.stop()


def _guild_of(fake: Any, channel: str) -> int:
    """The guild a channel of the fake is in (every table's channel is in one)."""
    guild_id = fake.channel(channel).guild_id
    assert guild_id is not None
    return int(guild_id)


async def _play(
    fake: FakeDiscord,
    url: str,
    channels: list[str],
    actions: int,
    think: tuple[float, float],
    rng: random.Random,
    shards: int,
) -> tuple[dict, list[Notification], float]:
    """The people of every table play (as in bench.discord); the figures, the messages that
    notified someone (for question → notification, once the bots wrote their asks) and when
    the play began."""
    async with await Store.open(url) as store:
        mirror = Mirror(store)
        runner = SimpleNamespace(client=SimpleNamespace(service=mirror))
        tables = len(channels)
        poll_waits(fake)
        index, uploads = MessageIndex(fake), UploadTally(fake)
        drivers = [
            MirroredDriver(
                fake,
                runner,  # a stand-in runner: its client is the mirror
                fake.channel(name).id,
                fake.members[i * PEOPLE_PER_TABLE : (i + 1) * PEOPLE_PER_TABLE],
                index,
                typed=shard_of(_guild_of(fake, name), shards) != 0,
            )
            for i, name in enumerate(channels)
        ]
        # as in bench.discord: tables opened over a while, answers given longer meanwhile
        for driver in drivers:
            driver.patience = PATIENCE + SETUP_PATIENCE_PER_TABLE * tables
        opened = time.monotonic()
        await asyncio.gather(
            *(d.seat_everyone(rng.uniform(0, SEAT_SPREAD * tables)) for d in drivers)
        )
        await mirror.refresh()  # every open table in the mirror before its people look
        mirroring = asyncio.create_task(mirror.run())
        lag = LoopLag()
        lag.start()
        try:
            began, cpu, loop_cpu = time.monotonic(), time.process_time(), time.thread_time()
            uploads.counting = True
            await asyncio.gather(*(d.start(rng.uniform(0, start_spread(tables))) for d in drivers))
            for driver in drivers:
                driver.patience = PATIENCE
            tallies = await asyncio.gather(
                *(d.play(actions, think, random.Random(rng.random())) for d in drivers)
            )
            seconds = time.monotonic() - began
            cpu, loop_cpu = time.process_time() - cpu, time.thread_time() - loop_cpu
        finally:
            mirroring.cancel()
            lag.stop()
    fig = _figures(fake, began, seconds, tables, list(tallies))
    fig["loop_lag"] = lag.figures(began)
    fig["setup"] = opening_figures(fake, opened, began)
    fig["cpu_seconds"] = {"process": round(cpu, 1), "event_loop": round(loop_cpu, 1)}
    fig["discord"] = discord_traffic(fake, began, list(tallies))
    fig["pictures_uploaded"] = picture_uploads(fake, uploads, drivers)
    fig["mirror_refreshes"] = mirror.refreshes
    fig["mirror_rebuilt"] = mirror.rebuilt
    fig["mirror_played_on"] = mirror.played_on
    return fig, index.notifications, began


def format_shards_report(fig: dict) -> str:
    """bench.discord's report, with the bot processes' CPU in place of the one process's."""
    lines = format_report(fig).splitlines()
    cpu, shards = fig["cpu_seconds"], fig["shards"]
    where = (
        "the bot process (every table, one PostgreSQL)"
        if shards == 1
        else f"the {shards} bot processes (shards 0 and 1 of {shards}, one PostgreSQL)"
    )
    lines = [
        line
        if not line.startswith("CPU: ")
        else (
            f"CPU: {fig['bot_processes_cpu_seconds']} s in {where}, pictures drawn by "
            f"{fig['draw_processes'] or 'threads, no'} worker processes each; {cpu['process']} s "
            f"in this process (fake Discord, people, the mirror: {fig['mirror_refreshes']} "
            f"looks, {fig['mirror_rebuilt']} tables rebuilt, {fig['mirror_played_on']} played on)"
        )
        for line in lines
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bench.discord_shards``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bench.discord_shards", description=__doc__)
    add_play_arguments(parser, tables=10)
    parser.add_argument(
        "--shards",
        type=int,
        choices=SHARDS,
        default=2,
        help="bot processes, one per shard (1: one process holds every table)",
    )
    parser.add_argument(
        "--draw-processes", type=int, default=1, help="processes drawing pictures, per bot"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.tables < args.shards or args.actions < 1 or min(args.ai_delay, args.draw_processes) < 0:
        parser.error("--tables must be at least --shards, --actions at least 1, times not negative")
    collect_in_steps()  # as gouji bot does (the fake and the people pause less too)
    fig = asyncio.run(
        run_benchmark(
            args.tables, args.actions, args.think, args.ai_delay, args.seed,
            args.draw_processes, not args.no_rate_limits, args.shards,
        )
    )  # fmt: skip
    print(json.dumps(fig, indent=1) if args.json else format_shards_report(fig))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
