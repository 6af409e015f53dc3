"""SIGKILL the bot at random points of whole series and count what survives.

    python -m bench.kills [--backends sqlite,postgresql] [--series 2] [--every 4-20]
                          [--lease 30] [--seed 1] [--no-rate-limits] [--json]

A real ``gouji bot`` process (``python -m bot.cli bot``, configured by its environment)
plays against the fake Discord of ``tests/fakediscord``, which runs in this process with
four simulated people (seats 0-3; seats 4 and 5 are AI). The people play as fast as their
DM hand controllers come: each new controller is pressed at once (a turn: "play the hint";
a question: its "no"; a return: the first cards offered). Every ``--every`` seconds (drawn
at random from the range) the bot process is killed with SIGKILL — wherever it is: between
an append and its answer, inside a transaction, while dealing — and started again at once;
the new process is the next incarnation of the same instance and takes the tables back at
once, whatever the dead one's claim (``--lease`` seconds, ``GOUJI_CLAIM_LEASE``, default
the bot's 30). ``--series`` five-game series per backend (SQLite, and
PostgreSQL on a throwaway server of ``tests/pgserver.py`` with fsync on).

Counted, per backend: the kills; the presses made, acknowledged (the controller edited to
"✅ …"), refused (a stale question, the table away) and unanswered (made while no bot was
connected, or cut by a kill: Discord drops those); the acknowledged presses missing from
the log (**lost**: must be 0 — each is looked for in its deal's log at its question); the
questions asked again by a restarted process (a controller for a question its person had
already been sent); the stalls (nobody asked anything for ``STALL`` seconds: a question
never asked again — the people then fall back to ``/gouji hand``; must be 0); how long after
each kill the table was served again (the restarted process's first question pressed:
target ≤ 5 s with the default lease); and at the end
every person's profile holds exactly five games per series (nothing applied twice or lost).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.discord_shards import BotProcess
from bench.shard_bot import ASKS_ENV
from bot.discord_bot.endpoints import API_ENV, GATEWAY_ENV
from bot.service.questions import Token
from data import Store
from data.claims import DEFAULT_LEASE
from engine.options import Phase
from engine.state import QUESTIONS
from tests.fakediscord import FakeDiscord, InteractionRecord, SimUser, WaitTimeout, running_fake
from tests.pgserver import PgServer, find_bindir

PEOPLE = ("alice", "bo", "chen", "dana")  # seats 0-3; seats 4 and 5 are AI
GAMES = 5  # a tribute series
STALL = 45.0  # seconds without a new question before the people type /gouji hand
PATIENCE = 120.0  # seconds to wait for the bot's answer to a command, or its start
ANSWER = {  # the press for each kind of question (custom id verb, is it a menu)
    "turn": ("playhint", False),
    **{phase.value: (asked.no.value, False) for phase, asked in QUESTIONS.items()},  # the no
    "burn": ("noburn", False),
    "return": ("return", True),
}


@dataclass
class Press:
    """One press of a person on a controller: at the question ``token`` of seat ``seat``."""

    series: int  # the table's series, 1, 2 …
    seat: int
    token: str
    rec: InteractionRecord

    @property
    def acknowledged(self) -> bool:
        return any(
            "✅" in str(r.payload.get("content") or "")
            for r in self.rec.responses
            if r.kind in ("edit_original", "followup")
        )

    @property
    def answered(self) -> bool:
        return bool(self.rec.responses)


@dataclass
class Run:
    """What one backend's run saw."""

    backend: str
    series: int = 0
    kills: int = 0
    presses: list[Press] = field(default_factory=list)
    asked: dict[tuple[int, str], int] = field(default_factory=dict)  # (seat, token) -> kills
    reasked: int = 0
    stalls: int = 0
    back_after: list[float] = field(default_factory=list)  # seconds: kill -> served again
    lost: list[str] = field(default_factory=list)
    profiles_ok: bool = False
    tracebacks: int = 0
    seconds: float = 0.0


class KilledBot(BotProcess):
    """``gouji bot`` in a process of its own (unsharded: every process claims its tables
    under a name of its own), killed and started again at will."""

    def __init__(self, fake: FakeDiscord, database: dict[str, str], lease: float, log: Path):
        self.env = {
            **os.environ,
            API_ENV: fake.api_base,
            GATEWAY_ENV: fake.gateway_url,
            "DISCORD_TOKEN": fake.token,
            "GOUJI_GUILD": str(fake.guild_id),
            "GOUJI_AI_DELAY": "0",
            "GOUJI_WARN": "0",
            "GOUJI_REFRESH": "0.5",
            "GOUJI_DRAW_PROCESSES": "0",
            "GOUJI_CLAIM_LEASE": str(lease),
            ASKS_ENV: str(log.with_suffix(".asks.jsonl")),  # bench.shard_bot writes its asks
            **database,
        }
        self.fake, self.shard, self.log = fake, 0, log
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start it; return once it is connected to the gateway."""
        sessions = len(self.fake.gateway.sessions)
        await super().start()
        await self.fake.wait_for(
            lambda: self.connected() and len(self.fake.gateway.sessions) > sessions,
            PATIENCE,
            "the bot to connect",
            poll=0.1,
        )

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()


def _controls(msg: Any) -> list[tuple[str, str, dict]]:
    """A DM's hand-controller controls: (verb, token, component) of each."""
    found = []
    for comp in msg.buttons() + msg.selects():
        parts = str(comp.get("custom_id", "")).split(":")
        if len(parts) == 4 and parts[0] in ("g", "gs"):
            found.append((parts[3], parts[2], comp))
    return found


class People:
    """The four people: each presses every new controller at once."""

    def __init__(self, fake: FakeDiscord, run: Run, rng: random.Random) -> None:
        self.fake, self.run, self.rng = fake, run, rng
        self.users = [fake.member(name) for name in PEOPLE]
        self.pressed: set[tuple[int, str]] = set()  # (message id, token)
        self.last_question = time.monotonic()
        self.pressed_at = 0.0  # when a question (not an unsticking /gouji hand) was last pressed
        self.over = False

    def _question(self, seat: int) -> tuple[Any, str, str, dict] | None:
        user = self.users[seat]
        for msg in reversed(user.dms()):
            controls = _controls(msg)
            if not controls:
                continue
            token = controls[0][1]
            if (msg.id, token) in self.pressed:
                return None
            kind = _kind_of(token)
            verb, menu = ANSWER[kind]
            for name, _, comp in controls:
                if name == verb and (comp.get("type") == 3) == menu:
                    return msg, token, verb, comp
            return None
        return None

    async def person(self, seat: int) -> None:
        user = self.users[seat]
        while not self.over:
            try:
                found = await self.fake.wait_for(
                    lambda: self.over or self._question(seat), 1.0, "a question"
                )
            except WaitTimeout:
                continue
            if found is True:
                return
            assert isinstance(found, tuple)
            msg, token, verb, comp = found
            self.pressed.add((msg.id, token))
            key = (seat, token)
            if key in self.run.asked and self.run.asked[key] < self.run.kills:
                self.run.reasked += 1  # a question sent again by a process started since
            self.run.asked[key] = self.run.kills
            self.last_question = self.pressed_at = time.monotonic()
            if comp.get("type") == 3:
                values = [o["value"] for o in comp["options"]][: comp.get("min_values", 1)]
                rec = await user.select(self.fake.messages[msg.id], comp["custom_id"], values)
            else:
                rec = await user.click(self.fake.messages[msg.id], comp["custom_id"])
            self.run.presses.append(Press(self.run.series + 1, seat, token, rec))

    async def unstick(self) -> None:
        """Nobody was asked anything for a while: each person types /gouji hand and presses
        its controller's answer (a stall: a question that was never asked again)."""
        self.run.stalls += 1
        for seat, user in enumerate(self.users):
            try:
                rec = await user.slash("gouji", "hand")
                shown = await rec.original(PATIENCE)
            except (WaitTimeout, ValueError):
                continue
            for verb, token, comp in _controls(shown):
                kind = _kind_of(token)
                if (verb, comp.get("type") == 3) == ANSWER[kind]:
                    if comp.get("type") == 3:
                        values = [o["value"] for o in comp["options"]][: comp.get("min_values", 1)]
                        press = await user.select(shown, comp["custom_id"], values)
                    else:
                        press = await user.click(shown, comp["custom_id"])
                    self.run.presses.append(Press(self.run.series + 1, seat, token, press))
                    break
        self.last_question = time.monotonic()


def _kind_of(token: str) -> str:
    """The question kind a controller's token names."""
    parts = Token.parse(token)
    if parts is None:
        raise ValueError(f"not a question token: {token!r}")
    return parts.kind


def lost_presses(record: dict, presses: Sequence[Press]) -> list[str]:
    """The acknowledged presses whose answer is not in the log at their question: a turn's
    at its index, a question's among that phase's entries by the seat, a return among the
    deal's returns."""
    lost = []
    for press in presses:
        if not press.acknowledged:
            continue
        parts = Token.parse(press.token)
        if parts is None:
            raise ValueError(f"not a question token: {press.token!r}")
        deal, kind, start = parts.deal, parts.kind, parts.start
        games = record["games"]
        entry = games[deal - 1] if deal <= len(games) else {"actions": [], "returns": []}
        actions, returns = entry["actions"], entry.get("returns", [])
        mine = f"{press.seat} "
        if kind == "turn":
            found = start < len(actions) and actions[start].startswith(mine)
        elif kind == "return":
            found = any(r.startswith(mine) for r in returns)
        elif kind == "burn":
            found = any(
                a.startswith(mine) and a.split()[1] in ("burn", "noburn") for a in actions[start:]
            )
        else:  # a question's phase: its yes or its no
            asked = QUESTIONS[Phase(kind)]
            found = any(
                a.startswith(mine) and a.split()[1] in (asked.yes, asked.no) for a in actions
            )
        if not found:
            lost.append(f"seat {press.seat} at {press.token}")
    return lost


async def _command(user: SimUser, *path: str, **options: Any) -> None:
    """A slash command whose answer is public, retried while it is refused (the table not
    back yet after a kill) or unanswered (the bot away)."""
    for _ in range(60):
        rec = await user.slash(*path, **options)
        try:
            reply = await rec.original(20.0)
        except WaitTimeout:
            continue
        if not reply.ephemeral:
            return
        await asyncio.sleep(1.0)
    raise RuntimeError(f"/{' '.join(path)} was refused or unanswered 60 times")


async def play_series(
    fake: FakeDiscord, bot: KilledBot, store: Store, run: Run, every: tuple[float, float], rng
) -> None:
    """One five-game series, the bot killed every ``every`` seconds; until it is over."""
    people = People(fake, run, rng)
    alice = people.users[0]
    await _command(alice, "gouji", "start")
    channel = fake.channel("gouji").id
    (table,) = await store.tables_in_channel(fake.guild_id, channel)
    tasks = [asyncio.create_task(people.person(seat)) for seat in range(4)]
    next_kill = time.monotonic() + rng.uniform(*every)
    killed_at: float | None = None
    try:
        while True:
            if killed_at is not None and people.pressed_at > killed_at:
                run.back_after.append(people.pressed_at - killed_at)
                killed_at = None
            series = await _current_series(store, table.id)
            if series is not None and series.status == "finished":
                return
            if time.monotonic() >= next_kill:
                await bot.kill()
                killed_at = time.monotonic()
                run.kills += 1
                await bot.start()
                next_kill = time.monotonic() + rng.uniform(*every)
                people.last_question = time.monotonic()
            elif time.monotonic() - people.last_question > STALL:
                await people.unstick()
            await asyncio.sleep(0.25)
    finally:
        people.over = True
        fake.notify()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _current_series(store: Store, table_id: int):
    rows = await store._fetch(
        "SELECT id FROM series WHERE table_id = ? ORDER BY number DESC LIMIT 1", (table_id,)
    )
    return await store.get_series(rows[0][0]) if rows else None


async def run_backend(
    backend: str,
    series: int,
    every: tuple[float, float],
    lease: float,
    seed: int,
    rate_limits: bool,
) -> Run:
    """Every figure of one backend."""
    run = Run(backend)
    rng = random.Random(seed)
    began = time.monotonic()
    server = None
    with tempfile.TemporaryDirectory() as tmp:
        if backend == "postgresql":
            bindir = find_bindir()
            if bindir is None:
                raise RuntimeError("no PostgreSQL binaries found: apt-get install postgresql")
            server = PgServer(bindir, fsync=True).start()
            database = {"GOUJI_DATABASE_URL": server.url()}
            url = server.url()
        else:
            path = Path(tmp) / "gouji.db"
            database = {"GOUJI_DB": str(path)}
            url = str(path)
        try:
            async with running_fake(rate_limits=rate_limits) as fake:
                bot = KilledBot(fake, database, lease, Path(tmp) / "bot.log")
                await bot.start()
                async with await Store.open(url) as store:
                    users = [fake.member(name) for name in PEOPLE]
                    await _command(users[0], "gouji", "new", turn_time=600, burn_time=120)
                    for user in users[1:]:
                        await _command(user, "gouji", "join")
                    await _command(users[0], "gouji", "ai", "add")
                    for _ in range(series):
                        await play_series(fake, bot, store, run, every, rng)
                        run.series += 1
                    (table,) = await store.tables_in_channel(
                        fake.guild_id, fake.channel("gouji").id
                    )
                    for number in range(1, series + 1):
                        rows = await store._fetch(
                            "SELECT id FROM series WHERE table_id = ? AND number = ?",
                            (table.id, number),
                        )
                        record = await store.export_series_record(rows[0][0])
                        run.lost += lost_presses(
                            record, [p for p in run.presses if p.series == number]
                        )
                    games = [(await store.get_profile(fake.guild_id, u.id)).games for u in users]
                    run.profiles_ok = games == [GAMES * series] * 4
                await bot.stop()
                run.tracebacks = bot.log.read_text(errors="replace").count("Traceback")
        finally:
            if server is not None:
                server.stop()
    run.seconds = time.monotonic() - began
    return run


def figures(runs: Sequence[Run]) -> dict[str, Any]:
    out = {}
    for run in runs:
        acked = [p for p in run.presses if p.acknowledged]
        out[run.backend] = {
            "series": run.series,
            "kills": run.kills,
            "presses": len(run.presses),
            "acknowledged": len(acked),
            "refused": sum(1 for p in run.presses if p.answered and not p.acknowledged),
            "unanswered": sum(1 for p in run.presses if not p.answered),
            "lost": len(run.lost),
            "lost_detail": run.lost[:10],
            "reasked": run.reasked,
            "stalls": run.stalls,
            "served_again_p50_s": _quantile(run.back_after, 0.5),
            "served_again_max_s": round(max(run.back_after), 2) if run.back_after else None,
            "profiles_ok": run.profiles_ok,
            "tracebacks_in_bot_log": run.tracebacks,
            "seconds": round(run.seconds),
        }
    return out


def format_report(fig: dict[str, Any]) -> str:
    lines = []
    for backend, f in fig.items():
        lines.append(
            f"{backend}: {f['series']} series of {GAMES} games, {f['kills']} SIGKILLs in "
            f"{f['seconds']} s; presses {f['presses']}: acknowledged {f['acknowledged']}, "
            f"refused {f['refused']}, unanswered {f['unanswered']} (bot away or cut by a kill); "
            f"acknowledged but lost: {f['lost']}; questions asked again after a restart: "
            f"{f['reasked']}; stalls (a question never asked again): {f['stalls']}; served "
            f"again after a kill: p50 {f['served_again_p50_s']} s, max {f['served_again_max_s']} s; every "
            f"profile holds {GAMES} games a series: {'yes' if f['profiles_ok'] else 'NO'}"
        )
        if f["lost_detail"]:
            lines.append(f"  lost: {', '.join(f['lost_detail'])}")
    return "\n".join(lines)


def _quantile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile of ``values`` (nearest rank), rounded to 10 ms; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    first, last = float(low), float(high or low)
    if not 0 < first <= last:
        raise argparse.ArgumentTypeError(f"a range of seconds LOW-HIGH, not {text!r}")
    return first, last


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--series", type=int, default=2)
    parser.add_argument("--every", type=_range, default=(4.0, 20.0), help="seconds between kills")
    parser.add_argument("--lease", type=float, default=DEFAULT_LEASE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-rate-limits", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if not backends or set(backends) - {"sqlite", "postgresql"} or args.series < 1:
        parser.error("--backends of sqlite, postgresql; --series at least 1")
    runs = []
    for n, backend in enumerate(backends):
        runs.append(
            asyncio.run(
                run_backend(
                    backend, args.series, args.every, args.lease, args.seed + n,
                    not args.no_rate_limits,
                )
            )
        )  # fmt: skip
    fig = figures(runs)
    print(json.dumps(fig, indent=1) if args.json else format_report(fig))
    return 0 if all(f["lost"] == 0 and f["profiles_ok"] for f in fig.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
