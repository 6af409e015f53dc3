"""How fast the bot answers, and how much it asks of Discord, with many tables playing at
once, through the fake Discord (with Discord's rate limits on).

    python -m bench.discord [--tables 50] [--actions 10] [--think 2-8 | --fast]
                            [--ai-delay 0.5] [--no-rate-limits] [--draw-processes 1]
                            [--seed 1] [--json] [--profile]

One bot process (the real discord.py client, :class:`bot.discord_bot.client.GoujiBot`) and the fake
Discord of ``tests/fakediscord`` in one event loop: one guild with ``--tables`` channels, a
table in each, four simulated people (their own members) and two AI seats per table, single
games (``/gouji again`` when one ends), started within two seconds of each other (at most
5 a second: 500 tables over 100 s). The opening of the tables is not measured, but its
first answers are printed apart ("opening"). Every
table's people act concurrently, each after thinking a time drawn from ``--think`` (seconds,
a range ``LOW-HIGH`` or one number; 2-8 s as real players; ``--fast`` is 0.25-0.75 s): a
turn is a press on their DM hand controller: the first play of its menu, or the hint then a
pass; a question (declare, revolt, burn) is its "no" button. One turn in five (and any whose
controller did not come) is typed: the /gouji play autocomplete then a play, or a hint then a
pass; a question is then /gouji hand and a press on its button. Each person acts
``--actions`` times per table, then the game in progress is played to its end, so that
every figure is over whole games.

Printed: p50, p99 and the largest time from the gateway's dispatch of an interaction to its
first answer (the fake's ``latency``), for autocomplete and for the other interactions
separately, against the targets (p99 ≤ 150 ms for both); the whole answer (the real answer:
the controller with its picture, a deferred command's follow-up; p99 ≤ 1 s); the CPU used. Then what the bot asked of Discord, over whole
games: bot-token requests per engine action by route (every action of the game counts, the
AI seats' and the clock's too: the engine's own record of each finished game), the 429s it
met by route and scope, the DMs each person received per own turn (an engine action at
their seat) and how many of them were replaced by a later question's (deleted), the
ghost pings (channel messages that notified someone, deleted before they
answered: the target is none), per game the table channel's messages created, deleted and
lasting, and the pictures uploaded: hand pictures per person per game (each game is its own
series here), table and result pictures per game; last, question → notification p50/p99:
from the service asking a person something to the first message that notified them of it
(a DM controller carrying that question's controls — one sent earlier, with a new deal's
hand, counts as 0 —, or a mention ``allowed_mentions`` lets through sent after it; the
issue's target is p99 ≤ 300 ms), and the questions nothing notified them of. The
fake runs in the same process, so its own work is in the figures too (as a busy Discord
would add network time). ``--profile`` prints where the event loop's time went.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import cProfile
import io
import itertools
import json
import math
import pstats
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from bot.cli.collector import collect_in_steps
from bot.discord_bot.client import GoujiBot
from bot.pictures.drawing import Drawer
from bot.service.config import DISCORD_GLOBAL_LIMIT, PICTURE_WAIT, BotConfig
from bot.service.errors import UserError
from bot.service.live import LiveTable
from bot.service.presenter import Listener
from bot.service.tables import TableService
from engine.game import Game
from engine.series import Series
from engine.state import QUESTIONS
from tests.fakediscord import (
    BotRunner,
    FakeDiscord,
    InteractionRecord,
    MessageRecord,
    SimUser,
    WaitTimeout,
    message_tally,
    request_tally,
    running_fake,
)
from tests.fakediscord.limits import token_kind
from tests.fakediscord.model import DM, LOADING

SLASH_SHARE = 0.2  # of the people's turns typed as slash commands
TARGET_P99 = 0.150  # seconds, for interactions and for autocomplete
TARGET_FULL_P99 = 1.0  # seconds, for the whole answer (the controller with its picture)
TARGET_NOTIFICATION_P99 = 0.300  # seconds, from a question to what notified its person
AUTOCOMPLETE = 4  # interaction type
PEOPLE_PER_TABLE = 4  # seats 0-3; seats 4 and 5 are AI
START_SPREAD = 2.0  # seconds over which the tables start (at least)
#: At most, on average: 500 tables start over 100 s. Each start deals, and asks each of its
#: four people 宣点 in a new DM: sent with the bot's token (nobody has pressed anything yet),
#: which carries 45 requests a second. At 25 starts a second (as this bench once did),
#: 2,000 deal DMs queued for 45 s behind it and the play never caught up.
STARTS_PER_SECOND = 5
SEAT_SPREAD = 0.2  # seconds per table over which the tables are opened and filled
POLL = 0.02  # seconds between two looks of a simulated person at something
LOOK = 0.5  # seconds between two looks at the table when the bot tells of no change
PATIENCE = 30.0  # seconds a person waits for an answer or the table to move on ("stuck")
SETUP_PATIENCE_PER_TABLE = 0.1  # seconds more for an answer while the tables are opened
#: the "no" a person answers each question with: a game phase's (engine.state.QUESTIONS), a burn's
QUESTION_VERBS = {
    **{phase.value: asked.no.value for phase, asked in QUESTIONS.items()},
    "burn": "noburn",
}
TARGET_REQUESTS_PER_ACTION = 1.5  # bot-token requests per engine action
TARGET_LASTING_PER_GAME = 3  # channel messages a game leaves
THINK = (2.0, 8.0)  # seconds a person thinks before an action, as real players
FAST_THINK = (0.25, 0.75)  # --fast: the quick players of the smoke test


@dataclass
class Tally:
    """What the simulated people did, and what went wrong for them."""

    actions: int = 0
    games: int = 0
    stuck: int = 0  # the table did not move on after an action within PATIENCE seconds
    unstarted: bool = False  # its opening or /gouji start was not answered: it does not play
    errors: list[str] = field(default_factory=list)
    engine_actions: int = 0  # every seat's, in the finished games
    own_turns: Counter[int] = field(default_factory=Counter)  # user id -> actions at their seat


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) by the nearest-rank method; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def summarize(latencies: Sequence[float], target: float = TARGET_P99) -> dict[str, Any]:
    """Count, p50, p99 and max in milliseconds, and whether p99 meets ``target`` (s)."""
    p99 = percentile(latencies, 0.99)
    return {
        "count": len(latencies),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p99_ms": round(p99 * 1000, 1),
        "max_ms": round(max(latencies, default=0.0) * 1000, 1),
        "meets_target": bool(latencies) and p99 <= target,
    }


def by_minute(
    timed: Sequence[tuple[float, float]], began: float, target: float
) -> dict[int, dict[str, Any]]:
    """``(when, latency)`` pairs summarized by minute of the play since ``began``."""
    minutes: dict[int, list[float]] = {}
    for at, latency in timed:
        minutes.setdefault(max(0, int((at - began) // 60)), []).append(latency)
    return {m: summarize(found, target) for m, found in sorted(minutes.items())}


class LoopLag:
    """How late the running event loop wakes a task that sleeps :attr:`EVERY` seconds: how
    long its other work held up each of its callbacks (every time the loop notes, a
    request's arrival or an answer's, is that much late).

    >>> lag = LoopLag(); lag.start()  # in the loop; ``lag.figures(began)`` once done
    """

    EVERY = 0.05

    def __init__(self) -> None:
        self.lags: list[tuple[float, float]] = []  # (when, seconds late)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(self.EVERY)
            now = time.monotonic()
            self.lags.append((now, max(0.0, now - before - self.EVERY)))

    def figures(self, began: float) -> dict[str, Any]:
        """The lags from ``began`` on (:func:`lag_figures`)."""
        return lag_figures(self.lags, began)


def lag_figures(lags: Sequence[tuple[float, float]], began: float) -> dict[str, Any]:
    """:attr:`LoopLag.lags` (``(when, seconds late)``) from ``began`` on: p50, p99, max, and
    p99 by minute."""
    since = [(at, lag) for at, lag in lags if at >= began]
    fig = summarize([lag for _, lag in since])
    del fig["meets_target"]
    fig["by_minute"] = {m: k["p99_ms"] for m, k in by_minute(since, began, 0.0).items()}
    return fig


def answer_latency(rec: InteractionRecord) -> float | None:
    """Seconds from dispatch to the real answer: the first response that is not a
    "thinking…" deferral (type 5 or 6), e.g. the follow-up of a deferred command."""
    if rec.dispatched_at is None:
        return None
    for response in rec.responses:
        if not (response.kind == "callback" and response.type in (5, 6)):
            return response.at - rec.dispatched_at
    return None


class UploadTally:
    """Every file the bot uploads from now on, by channel and file name (the fake stores
    each upload as a new attachment: a kept attachment is not counted again)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.uploads: Counter[tuple[int, str]] = Counter()  # (channel id, file name) -> n
        self.counting = False
        new = fake.new_attachment

        def counted(channel_id: int, upload: Any, description: str | None) -> Any:
            if self.counting:
                self.uploads[(channel_id, upload.filename)] += 1
            return new(channel_id, upload, description)

        fake.new_attachment = counted  # type: ignore[method-assign]


def picture_uploads(
    fake: FakeDiscord, uploads: UploadTally, drivers: Sequence[TableDriver]
) -> dict[str, Any]:
    """Pictures uploaded: hand pictures per person per game (a single game is a whole
    series here) in their DMs and elsewhere (a /gouji hand reply), and per game the table
    and result pictures of the channels."""
    per_person: list[float] = []
    dm_ids = set()
    for driver in drivers:
        games = max(1, driver.tally.games)
        for user in driver.people:
            channel = fake.dm_channels.get(user.id)
            if channel is None:
                continue
            dm_ids.add(channel.id)
            per_person.append(uploads.uploads[(channel.id, "hand.png")] / games)
    games = max(1, sum(d.tally.games for d in drivers))
    outside = sum(n for (c, name), n in uploads.uploads.items() if c not in dm_ids)
    hands_outside = sum(
        n for (c, name), n in uploads.uploads.items() if c not in dm_ids and name == "hand.png"
    )
    people = max(1, sum(len(d.people) for d in drivers))
    return {
        "hand_per_person_per_game": round(sum(per_person) / max(1, len(per_person)), 1),
        "hand_per_person_per_game_max": round(max(per_person, default=0.0), 1),
        "hand_replies_per_person_per_game": round(hands_outside / people / games * len(drivers), 1),
        "channel_per_game": round((outside - hands_outside) / games, 1),
        "total": sum(uploads.uploads.values()),
    }


def drawing_figures(draw: Drawer) -> dict[str, dict[str, int]]:
    """What the bot's drawer did: hand (and scoreboard) pictures drawn and reused from
    :mod:`bot.pictures.cache`, table pictures drawn and given again unchanged."""
    kept = draw.cache
    return {
        "hand_and_scoreboard_pictures": {
            "drawn": kept.misses,
            "reused": kept.hits,
            "kept": len(kept),
        },
        "table_pictures": {"drawn": draw.latest_drawn, "unchanged": draw.latest_unchanged},
    }


def add_drawing_figures(
    total: dict[str, dict[str, int]], more: dict[str, dict[str, int]]
) -> dict[str, dict[str, int]]:
    """Two bot processes' :func:`drawing_figures`, summed."""
    return {
        what: {k: total.get(what, {}).get(k, 0) + n for k, n in counts.items()}
        for what, counts in more.items()
    }


class MessageIndex:
    """The messages the fake adds, by channel, kept as they come: the people look at their
    DMs many times a second, and the fake's own look-ups scan every message (at 50 tables
    that scanning cost the shared event loop more than the bot's own work). Each message
    that notified someone is noted with the questions its controls carried when it was
    created (a later edit changes them): :func:`notification_delays` pairs by question."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.by_channel: dict[int, list[Any]] = {}
        self.notifications: list[Notification] = []
        self._ids: dict[int, tuple[float | None, list[str]]] = {}  # see custom_ids
        add = fake.add_message

        async def indexed(msg: Any) -> Any:
            added = await add(msg)
            self.by_channel.setdefault(msg.channel_id, []).append(msg)
            if msg.notified:
                asks = question_ids(msg.buttons() + msg.selects())
                self.notifications += [Notification(u, msg.created_at, asks) for u in msg.notified]
            return added

        fake.add_message = indexed  # type: ignore[method-assign]

    def custom_ids(self, msg: MessageRecord) -> list[str]:
        """The custom ids of the message's buttons and menus as it is now (kept until it is
        edited: the people look at their controllers fifty times a second)."""
        kept = self._ids.get(msg.id)
        if kept is None or kept[0] != msg.edited_at:
            kept = self._ids[msg.id] = (
                msg.edited_at,
                [c.get("custom_id", "") for c in msg.buttons() + msg.selects()],
            )
        return kept[1]

    def dms(self, user: SimUser) -> list[Any]:
        """What ``user.dms()`` gives (the bot's messages in their DMs, oldest first)."""
        channel = user.dm_channel()
        held = self.by_channel.get(channel.id) if channel is not None else None
        if not held:
            return []
        held[:] = [m for m in held if not m.deleted]  # a deleted message never comes back
        return list(held)


Question = tuple[int, str]  # (table id, the service's question token)
QUESTION_CONTROLS = ("g", "gs", "gr", "gg")  # custom id prefixes "g:{table}:{token}:…"


def question_ids(components: Sequence[dict[str, Any]]) -> frozenset[Question]:
    """The questions that controls answer (their custom ids name the table and token)."""
    found = set()
    for component in components:
        parts = str(component.get("custom_id", "")).split(":")
        if len(parts) >= 3 and parts[0] in QUESTION_CONTROLS and parts[1].isdigit():
            found.add((int(parts[1]), parts[2]))
    return frozenset(found)


@dataclass(frozen=True)
class Notification:
    """A message that notified ``user`` at ``at``, carrying the controls of ``asks``."""

    user: int
    at: float
    asks: frozenset[Question]


class TableDriver:
    """The four people of one table, acting in turn until each has acted enough."""

    def __init__(
        self,
        fake: FakeDiscord,
        runner: BotRunner,
        channel_id: int,
        people: list[SimUser],
        index: MessageIndex | None = None,
    ) -> None:
        self.fake, self.runner, self.channel_id, self.people = fake, runner, channel_id, people
        self.index = index or MessageIndex(fake)
        self.tally = Tally()
        self.changes: TableChanges | None = None  # the bot's events, when in this process
        self.patience = PATIENCE  # seconds to wait for an answer (longer while opening)

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        service = cast(GoujiBot, self.runner.client).service
        if service is None:
            raise RuntimeError("the bot has no table service yet")
        return service

    @property
    def live(self) -> LiveTable:
        return self.service.tables.table_in(self.channel_id)

    async def _answer(self, user: SimUser, *path: str, **options: Any) -> None:
        rec = await user.slash(*path, channel=self.channel_id, **options)
        await rec.original(timeout=self.patience)

    def _changed(self) -> asyncio.Event | None:
        """Set when this table changes, if the people can be told (the bot's events)."""
        return None if self.changes is None else self.changes.of(self.live.id)

    async def _look(self) -> None:
        """Wait until the bot tells of a change at this table (or ``LOOK`` seconds)."""
        changed = self._changed()
        if changed is None:
            await asyncio.sleep(POLL)
            return
        changed.clear()
        try:
            await asyncio.wait_for(changed.wait(), LOOK)
        except TimeoutError:
            pass

    async def seat_everyone(self, after: float = 0.0) -> None:
        """Open the table (a single game, a long clock) ``after`` seconds from now, sit down,
        add the AI seats."""
        await asyncio.sleep(after)
        owner = self.people[0]
        try:
            await self._answer(owner, "gouji", "new", series=False, turn_time=600, burn_time=120)
            for user in self.people[1:]:
                await self._answer(user, "gouji", "join")
            await self._answer(owner, "gouji", "ai", "add")
        except WaitTimeout as exc:  # counted and said; the other tables play on
            self.tally.unstarted = True
            self.tally.errors.append(f"table in channel {self.channel_id}: opening: {exc}")

    async def start(self, after: float) -> None:
        """The creator starts the game ``after`` seconds from now."""
        await asyncio.sleep(after)
        if self.tally.unstarted:
            return
        try:
            await self._answer(self.people[0], "gouji", "start")
        except WaitTimeout as exc:  # counted and said; the other tables play on
            self.tally.unstarted = True
            self.tally.errors.append(f"table in channel {self.channel_id}: /gouji start: {exc}")

    def _progress(self) -> tuple[object, ...]:
        live, service = self.live, self.service
        if not live.playing:
            return ("over", live.series_id)
        series = _series(live)
        return (len(series.deals), service.views.question_token(live), series.to_act)

    async def _person_to_act(self) -> int | None:
        """Wait until the AI seats are done; the seat of a person asked now, or None when the
        game is over."""
        while True:
            live = self.live
            if not live.playing:
                return None
            # the seats the bot asked (its clock runs for them once the automatic moves are
            # made): not ``service.quiet``, whose legal moves for every look took a
            # fifth of the event loop at 500 tables (py-spy)
            # (a table rebuilt from the database, bench.discord_shards, has no clock state)
            if self.changes is not None:
                people = [s for s in _series(live).to_act if s in live.waiting]
            else:
                people = [s for s in _series(live).to_act if not live.is_ai(s)]
                people = people if self.service.quiet(live) else []
            if people:
                return people[0]
            await self._look()

    async def play(self, actions: int, think: tuple[float, float], rng: random.Random) -> Tally:
        """Act until the people have acted ``actions`` times each (on average) and the game
        in progress is over. A table the bot closed stops there (counted as stuck)."""
        try:
            return await self._play(actions, think, rng)
        except UserError as exc:  # the bot holds no open table here now
            self.tally.stuck += 1
            self.tally.errors.append(f"table in channel {self.channel_id}: closed: {exc}")
            return self.tally

    async def _play(self, actions: int, think: tuple[float, float], rng: random.Random) -> Tally:
        goal = actions * PEOPLE_PER_TABLE
        while not self.tally.unstarted:
            seat = await self._person_to_act()
            if seat is None:
                self.tally.games += 1
                self._count_game()
                if self.tally.actions >= goal:
                    return self.tally
                try:
                    await self._answer(self.people[0], "gouji", "again")
                except WaitTimeout as exc:  # this table stops here; the others play on
                    self.tally.stuck += 1
                    self.tally.errors.append(f"table {self.live.id}: /gouji again: {exc}")
                    return self.tally
                continue
            await asyncio.sleep(rng.uniform(*think))
            before = self._progress()
            try:
                await self._act(self.people[seat], rng)
                await self._moved_on(before)
            except (WaitTimeout, TimeoutError) as exc:
                self.tally.stuck += 1
                self.tally.errors.append(f"table {self.live.id} seat {seat}: {exc}")
            self.tally.actions += 1
        return self.tally

    def _count_game(self) -> None:
        """Count the engine actions of the game just finished, and each person's own."""
        live = self.live
        for deal in _series(live).deals:
            for action in deal.game.actions if deal.game else ():
                self.tally.engine_actions += 1
                user = live.seats[action.seat].user_id
                if user is not None:
                    self.tally.own_turns[user] += 1

    async def _moved_on(self, before: tuple[object, ...], timeout: float = PATIENCE) -> None:
        """Wait until the table is past ``before`` (looked at on the bot's events: the fake's
        ``wait_for`` wakes on every request, which costs the shared event loop much at many
        tables)."""
        deadline = time.monotonic() + timeout
        while self._progress() == before:
            if time.monotonic() > deadline:
                raise WaitTimeout(f"table {self.live.id} did not move on in {timeout} s")
            await self._look()

    async def _controller(self, user: SimUser, timeout: float = 10.0) -> MessageRecord | None:
        """The person's DM hand controller for the question asked now (polled), or None
        when their DMs carry none in time."""
        live, service = self.live, self.service
        prefixes = tuple(
            f"{k}:{live.id}:{service.views.question_token(live)}:" for k in ("g", "gs")
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for msg in reversed(self.index.dms(user)):
                if any(i.startswith(prefixes) for i in self.index.custom_ids(msg)):
                    return cast(MessageRecord, msg)
            await asyncio.sleep(POLL)
        return None

    async def _act(self, user: SimUser, rng: random.Random) -> None:
        """A person acts from their DM hand controller: a question's "no", or a turn: the
        hint then a pass (30 %), else the first play of the menu (a pass when none). One
        turn in five is typed instead (the slash commands keep working)."""
        typing = _game(self.live).window is None and rng.random() < SLASH_SHARE
        shown = None if typing else await self._controller(user)
        if shown is None:
            await self._act_by_slash(user, rng)
            return
        msg: MessageRecord = shown

        def control(verb: str, select: bool = False) -> str | None:
            comps = msg.selects() if select else msg.buttons()
            ids = [c["custom_id"] for c in comps if c["custom_id"].endswith(f":{verb}")]
            return ids[0] if ids else None

        async def press(custom_id: str, values: list[str] | None = None) -> None:
            if values is None:
                rec = await user.click(msg, custom_id)
            else:
                rec = await user.select(msg, custom_id, values)
            # answered, or only acknowledged: a press on a controller re-sent meanwhile (the
            # new controller shows it; counted apart as ``full_superseded``)
            await self.fake.wait_for(
                lambda: len(rec.responses) >= 2 or (rec.responses and _on_deleted(self.fake, rec)),
                10,
                "a press answered",
            )

        for verb in QUESTION_VERBS.values():
            if (cid := control(verb)) is not None:
                await press(cid)
                return
        if (cid := control("return", select=True)) is not None:
            (menu,) = [s for s in msg.selects() if s["custom_id"] == cid]
            values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
            await press(cid, values)
            return
        passing = control("pass")
        if rng.random() < 0.3 and passing is not None:
            await press(control("hint") or passing)
            msg = self.fake.messages[msg.id]
            await press(passing)
            return
        menu_id = control("play", select=True)
        if menu_id is not None:
            (menu,) = [s for s in msg.selects() if s["custom_id"] == menu_id]
            await press(menu_id, [menu["options"][0]["value"]])
        else:
            await press(passing or control("yield") or control("playhint") or "")

    async def _act_by_slash(self, user: SimUser, rng: random.Random) -> None:
        """The slash commands (a person whose controller did not come)."""
        live = self.live
        game = _game(live)
        seat = live.seat_of(user.id)
        if seat is None:
            raise WaitTimeout(f"user {user.id} has no seat at table {live.id}")
        if game.phase in QUESTIONS or game.window is not None:
            await self._answer_question(user, "burn" if game.window is not None else game.phase)
            return
        legal = {a.verb for a in game.legal_actions(seat)}
        if rng.random() < 0.3:
            await self._answer(user, "gouji", "hint")
            if "pass" in legal:
                await self._answer(user, "gouji", "pass")
                return
        choices = await user.autocomplete(
            "gouji", "play", "cards", typed="", channel=self.channel_id, timeout=PATIENCE
        )
        if choices and rng.random() < 0.5:  # typing narrows the list
            first = choices[0]["value"][:1]
            choices = await user.autocomplete(
                "gouji", "play", "cards", typed=first, channel=self.channel_id, timeout=PATIENCE
            )
        if choices:
            await self._answer(user, "gouji", "play", cards=choices[0]["value"])
        else:
            await self._answer(user, "gouji", "pass")

    async def _answer_question(self, user: SimUser, kind: str) -> None:
        """/gouji hand, then the "no" button of the question it carries."""
        rec = await user.slash("gouji", "hand", channel=self.channel_id)
        shown = await rec.original(timeout=PATIENCE)
        verb = QUESTION_VERBS[kind]
        ids = [b["custom_id"] for b in shown.buttons() if b["custom_id"].endswith(f":{verb}")]
        if not ids:
            raise WaitTimeout(f"/gouji hand offered no {verb} button")
        await (await user.click(shown, ids[0])).response(timeout=PATIENCE)


def start_spread(tables: int) -> float:
    """Seconds over which ``tables`` tables start: ``START_SPREAD``, or longer so that no
    more than ``STARTS_PER_SECOND`` start a second on average (each start deals four hands
    to draw and DM: a burst of hundreds in a second is no server's evening, and more DMs
    than Discord takes from one bot)."""
    return max(START_SPREAD, tables / STARTS_PER_SECOND)


def _series(live: LiveTable) -> Series:
    if live.series is None:
        raise WaitTimeout(f"table {live.id} has no series")
    return live.series


def _game(live: LiveTable) -> Game:
    if live.game is None:
        raise WaitTimeout(f"table {live.id} has no game in progress")
    return live.game


def _members(tables: int) -> list[tuple[str, str]]:
    locales = ("zh-CN", "en-US")
    return [(f"p{i:04d}", locales[i % 2]) for i in range(tables * PEOPLE_PER_TABLE)]


async def run_benchmark(
    tables: int = 50,
    actions: int = 10,
    think: tuple[float, float] = THINK,
    ai_delay: float = 0.5,
    seed: int = 1,
    db_dir: str | None = None,
    profiler: cProfile.Profile | None = None,
    draw_processes: int = 1,
    rate_limits: bool = True,
    time_scale: float = 1.0,
    picture_wait: float | None = PICTURE_WAIT,
    global_limit: int = DISCORD_GLOBAL_LIMIT,
) -> dict[str, Any]:
    """Play ``tables`` tables at once and return the figures (see the module doc); with a
    ``profiler``, profile the event loop while the tables play; ``time_scale`` shortens the
    fake's rate-limit windows (1.0: Discord's own, what the figures are for; the tests' scale
    for a test of the figures' shape); ``picture_wait`` as ``GOUJI_PICTURE_WAIT`` (None: a
    DM waits for its hand picture); ``global_limit`` the bot token's requests a second, in
    the fake and the bot (``GOUJI_GLOBAL_LIMIT``: Discord's 50, or as it raised it)."""
    if tables < 1 or actions < 1:
        raise ValueError("--tables and --actions must be at least 1")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=db_dir) as tmp:
        channels = [f"t{i:03d}" for i in range(tables)]
        async with running_fake(
            members=_members(tables),
            channels=channels,
            rate_limits=rate_limits,
            time_scale=time_scale,
            global_limit=global_limit,
        ) as fake:
            config = BotConfig(
                token=fake.token,
                db_path=str(Path(tmp) / "bench.db"),
                guild_id=fake.guild_id,
                ai_delay=ai_delay,
                warn_before=0.0,
                draw_processes=draw_processes,
                picture_wait=picture_wait,
                global_limit=global_limit,
            )

            def factory() -> GoujiBot:
                return GoujiBot(config, rng=random.Random(seed), guild_ready_timeout=0.05)

            async with BotRunner(fake, factory) as runner:
                bot = runner.client
                if bot.service is None:
                    raise RuntimeError("the bot started without its table service")
                poll_waits(fake)
                index = MessageIndex(fake)
                uploads = UploadTally(fake)
                asked, changes = Asked(bot.service), TableChanges()
                bot.service.listen(asked)
                bot.service.listen(changes)
                drivers = [
                    TableDriver(
                        fake,
                        runner,
                        fake.channel(name).id,
                        fake.members[i * PEOPLE_PER_TABLE : (i + 1) * PEOPLE_PER_TABLE],
                        index,
                    )
                    for i, name in enumerate(channels)
                ]
                # people open their tables over a while (not measured), not all in one instant;
                # meanwhile an answer may take longer the more tables there are (the setup's
                # first answers are printed apart)
                for driver in drivers:
                    driver.changes = changes
                    driver.patience = PATIENCE + SETUP_PATIENCE_PER_TABLE * tables
                opened = time.monotonic()
                spread = SEAT_SPREAD * tables
                await asyncio.gather(*(d.seat_everyone(rng.uniform(0, spread)) for d in drivers))
                began, cpu, loop_cpu = time.monotonic(), time.process_time(), time.thread_time()
                uploads.counting = True
                lag = LoopLag()  # one loop: the bot's, the fake's and the people's
                lag.start()
                if profiler is not None:
                    profiler.enable()
                # people press start over a few seconds, not all in the same instant
                await asyncio.gather(
                    *(d.start(rng.uniform(0, start_spread(tables))) for d in drivers)
                )
                for driver in drivers:
                    driver.patience = PATIENCE
                tallies = await asyncio.gather(
                    *(d.play(actions, think, random.Random(rng.random())) for d in drivers)
                )
                if profiler is not None:
                    profiler.disable()
                lag.stop()
                seconds = time.monotonic() - began
                cpu, loop_cpu = time.process_time() - cpu, time.thread_time() - loop_cpu
                await bot.presenter.drain()
                drawn = drawing_figures(bot.draw)
            fig = _figures(fake, began, seconds, tables, list(tallies))
            fig["setup"] = opening_figures(fake, opened, began)
            fig["loop_lag"] = {"the one process (bot, fake Discord, people)": lag.figures(began)}
            fig["cpu_seconds"] = {"process": round(cpu, 1), "event_loop": round(loop_cpu, 1)}
            fig["draw_processes"] = draw_processes
            fig["picture_wait"] = picture_wait
            fig["think_seconds"] = list(think)
            fig["rate_limits"] = rate_limits
            fig["global_limit"] = global_limit
            fig["discord"] = discord_traffic(fake, began, list(tallies))
            fig["pictures_uploaded"] = picture_uploads(fake, uploads, drivers)
            fig["pictures_uploaded"].update(drawn)
            fig["notification"] = notification_figures(asked.asks, index.notifications, began)
            return fig


def opening_figures(fake: FakeDiscord, opened: float, began: float) -> dict[str, Any]:
    """The first answers while the tables were opened and filled, from ``opened`` to
    ``began`` (apart from the figures of the play)."""
    return summarize(
        [
            x
            for r in fake.interactions.values()
            if opened <= r.created_at < began and (x := r.latency) is not None
        ]
    )


def _on_deleted(fake: FakeDiscord, rec: InteractionRecord) -> bool:
    """Whether the message ``rec`` was made on is deleted."""
    msg = fake.messages.get(rec.message_id) if rec.message_id is not None else None
    return msg is not None and msg.deleted


def _figures(
    fake: FakeDiscord, began: float, seconds: float, tables: int, tallies: list[Tally]
) -> dict[str, Any]:
    recs = [r for r in fake.interactions.values() if r.created_at >= began]
    answered = [r for r in recs if r.latency is not None]
    auto = [x for r in answered if r.type == AUTOCOMPLETE and (x := r.latency) is not None]
    other = [x for r in answered if r.type != AUTOCOMPLETE and (x := r.latency) is not None]
    full = [answer_latency(r) for r in answered if r.type != AUTOCOMPLETE]
    full_timed = [
        (r.created_at, x)
        for r in answered
        if r.type != AUTOCOMPLETE and (x := answer_latency(r)) is not None
    ]
    # a press on a controller re-sent meanwhile (a new question) is acknowledged only: the
    # new controller shows what it did
    superseded = [
        r
        for r in answered
        if r.type != AUTOCOMPLETE and answer_latency(r) is None and _on_deleted(fake, r)
    ]
    return {
        "tables": tables,
        "seconds": round(seconds, 1),
        "actions": sum(t.actions for t in tallies),
        "games_finished": sum(t.games for t in tallies),
        "interactions": summarize(other),
        "autocomplete": summarize(auto),
        "full_answers": summarize([x for x in full if x is not None], TARGET_FULL_P99),
        "full_by_minute": {
            m: k["p99_ms"] for m, k in by_minute(full_timed, began, TARGET_FULL_P99).items()
        },
        "full_superseded": len(superseded),
        "by_kind": _by_kind(answered, lambda r: r.latency),
        "full_by_kind": _by_kind([r for r in answered if r.type != AUTOCOMPLETE], answer_latency),
        "unanswered": len(recs) - len(answered),
        "stuck": sum(t.stuck for t in tallies),
        "unstarted": sum(t.unstarted for t in tallies),
        "errors": [e for t in tallies for e in t.errors][:5],
        "requests": len(fake.requests),
        "failed_requests": sum(1 for r in fake.requests if r.status >= 400),
        "target_p99_ms": TARGET_P99 * 1000,
        "target_full_p99_ms": TARGET_FULL_P99 * 1000,
    }


def discord_traffic(fake: FakeDiscord, began: float, tallies: list[Tally]) -> dict[str, Any]:
    """What the bot asked of Discord from ``began`` on, over whole games (see the module doc).

    Per engine action: bot-token requests (interaction callbacks and follow-ups apart: Discord
    does not count them in the global limit). Per own turn: the DMs sent to a person (each
    notifies), posted with the bot's token or as follow-ups of their last press, and deleted.
    Per game: the table channels' non-ephemeral bot messages.
    """
    requests, messages = request_tally(fake, began), message_tally(fake, began)
    engine_actions = sum(t.engine_actions for t in tallies)
    games = sum(t.games for t in tallies)

    def per(n: float, d: int) -> float:
        return round(n / d, 3) if d else 0.0

    own_turns: Counter[int] = Counter()
    for t in tallies:
        own_turns.update(t.own_turns)
    dms = {c.recipient_id: c for c in messages.values() if c.dm}
    # a new DM notifies whether the bot's token posted it or a press's token followed up on it
    posted = [
        per(dms[u].posted + dms[u].replies if u in dms else 0, n) for u, n in own_turns.items()
    ]
    followed = sum(dms[u].replies for u in own_turns if u in dms)
    deleted = sum(dms[u].deleted for u in own_turns if u in dms)
    channels = [c for c in messages.values() if not c.dm]
    per_game = {
        key: per(sum(getattr(c, key) for c in channels), games)
        for key in ("created", "posted", "replies", "deleted", "lasting", "edits")
    }
    dm = {
        "people": len(posted),
        "posted_mean": per(sum(posted), len(posted)),
        "posted_max": max(posted, default=0.0),
        # sent as a follow-up of the person's last press: outside the bot's global limit
        "followed_mean": per(followed, sum(own_turns.values())),
        # a controller replaced by the next question's (it notified, and was answered)
        "deleted_mean": per(deleted, sum(own_turns.values())),
    }
    pings = deleted_pings(fake, began)
    per_action = per(requests.bot_total, engine_actions)
    places = bot_requests_by_place(fake, began)
    idle = idle_edits(fake, began)
    return {
        "engine_actions": engine_actions,
        "games": games,
        "bot_requests": requests.bot_total,
        "bot_requests_per_action": per_action,
        "bot_requests_per_action_by_route": {
            route: per(n, engine_actions) for route, n in requests.bot.most_common()
        },
        "bot_requests_per_action_by_place": {
            place: per(n, engine_actions) for place, n in sorted(places.items())
        },
        "idle_edits_per_action": {place: per(n, engine_actions) for place, n in idle.items()},
        "interaction_requests": sum(requests.interaction.values()),
        "rate_limited": {
            "total": requests.throttled_total,
            "by_scope": dict(requests.throttled_by_scope()),
            "by_route": {f"{r} [{scope}]": n for (r, scope), n in requests.throttled.items()},
        },
        "dm_per_own_turn": dm,
        "deleted_pings": pings,
        "channel_messages_per_game": per_game,
        "meets_targets": {
            "requests_per_action": per_action <= TARGET_REQUESTS_PER_ACTION,
            "no_429": requests.throttled_total == 0,
            "one_notification_per_own_turn": dm["posted_max"] <= 1,
            "no_deleted_notification": pings == 0,
            "lasting_per_game": per_game["lasting"] <= TARGET_LASTING_PER_GAME,
        },
    }


CHANNEL_PATH = re.compile(r"^/api/v\d+/channels/(\d+)/|^/channels/(\d+)/")


def bot_requests_by_place(fake: FakeDiscord, began: float) -> Counter[str]:
    """The bot-token requests on a channel's messages from ``began`` on, by where and what:
    ``"DM PATCH"``, ``"table channel POST"``... (a DM is one person's controller; a table
    channel holds the table message, the mentions, the cards)."""
    out: Counter[str] = Counter()
    for r in fake.requests:
        if r.at < began or r.route is None or not r.route.startswith("/channels/"):
            continue
        if token_kind(r.route) != "bot":
            continue
        found = CHANNEL_PATH.search(r.path)
        if found is None:
            continue
        channel = fake.channels.get(int(found.group(1) or found.group(2)))
        place = "DM" if channel is not None and channel.type == DM else "table channel"
        out[f"{place} {r.method}"] += 1
    return out


def idle_edits(fake: FakeDiscord, began: float) -> Counter[str]:
    """Edits of the bot's messages that changed nothing anyone sees (the same content,
    controls and attachments' bytes as before), in DMs and in table channels."""
    out: Counter[str] = Counter()
    for msg in fake.messages.values():
        if msg.author_id != fake.bot_user.id or msg.created_at < began or msg.ephemeral:
            continue
        states = [*msg.history, msg.snapshot()]
        for before, after in itertools.pairwise(states):
            if before.flags & LOADING:
                continue  # a deferred answer filled in
            same = (before.content, before.components, before.embeds) == (
                after.content,
                after.components,
                after.embeds,
            ) and [a.data for a in before.attachments] == [a.data for a in after.attachments]
            if same:
                out["DM" if msg.guild_id is None else "table channel"] += 1
    return out


class TableChanges(Listener):
    """An event per table, set whenever the bot's service tells of a change there: the
    simulated people look at their table when it changed, not 50 times a second (at 500
    tables their looks alone held the shared event loop)."""

    def __init__(self) -> None:
        self.events: dict[int, asyncio.Event] = {}

    def of(self, table_id: int) -> asyncio.Event:
        event = self.events.get(table_id)
        if event is None:
            event = self.events[table_id] = asyncio.Event()
        return event

    def _changed(self, live: LiveTable) -> None:
        event = self.events.get(live.id)
        if event is not None:
            event.set()

    def table_changed(self, live: LiveTable) -> None:
        self._changed(live)

    def prompt(self, live: LiveTable, seat: int, kind: str) -> None:
        self._changed(live)

    def answered(self, live: LiveTable, seat: int) -> None:
        self._changed(live)

    def hand_changed(self, live: LiveTable, seat: int) -> None:
        self._changed(live)

    def closed(self, live: LiveTable, key: str) -> None:
        self._changed(live)


def poll_waits(fake: FakeDiscord) -> None:
    """Make the fake's ``wait_for`` (what a simulated person waits with: an answer, a
    follow-up, autocomplete choices) look after ``POLL`` seconds, then less and less often
    (up to every ``LOOK`` seconds), instead of on every recorded change: with hundreds of people waiting, each request woke them all (at 500
    tables the opening of the tables spent a quarter of the event loop there). The figures
    are the fake's own timestamps, so a later look changes none of them."""

    async def polled(
        predicate: Callable[[], Any],
        timeout: float = 5.0,
        what: str = "a condition",
        poll: float | None = None,
    ) -> Any:
        deadline, pause = time.monotonic() + timeout, POLL
        while not (value := predicate()):
            if time.monotonic() > deadline:
                raise WaitTimeout(f"gave up after {timeout}s waiting for {what}")
            await asyncio.sleep(pause)
            pause = min(2 * pause, LOOK)  # a long wait is looked at less often
        return value

    fake.wait_for = polled  # type: ignore[method-assign]


@dataclass(frozen=True)
class Ask:
    """The service asked ``user`` the question ``token`` of table ``table`` at ``at``."""

    user: int
    table: int
    token: str
    at: float
    kind: str = ""


class Asked(Listener):
    """Every question the service asks a person (its ``prompt``), with its token."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.asks: list[Ask] = []

    def prompt(self, live: Any, seat: int, kind: str) -> None:
        user = live.seats[seat].user_id
        if user is not None:
            token = self.service.views.question_token(live)
            self.asks.append(Ask(user, live.id, token, time.monotonic(), str(kind)))


@dataclass
class Delays:
    """Question → notification: the delays (s), and the questions that brought none."""

    missing: list[Ask] = field(default_factory=list)
    paired: list[tuple[Ask, float, str]] = field(default_factory=list)  # ask, delay, "dm"/"mention"

    @property
    def seconds(self) -> list[float]:
        """The delays, in the questions' order."""
        return [delay for _, delay, _ in self.paired]

    def by_kind(self) -> dict[str, dict[str, Any]]:
        """The delays of each kind of question (a turn, a burn window, 宣点 …)."""
        kinds: dict[str, list[float]] = {}
        for ask, delay, _ in self.paired:
            kinds.setdefault(ask.kind, []).append(delay)
        return {kind: summarize(found) for kind, found in sorted(kinds.items())}

    def slowest(self, count: int = 5) -> list[str]:
        """The ``count`` slowest pairs, for reading the tail."""
        ranked = sorted(self.paired, key=lambda p: -p[1])[:count]
        return [
            f"{delay * 1000:.0f} ms: {ask.kind} at table {ask.table} for user {ask.user} by {how}"
            for ask, delay, how in ranked
        ]


def notification_delays(asks: Sequence[Ask], notes: Sequence[Notification]) -> Delays:
    """Seconds from each question to the first message that notified its person of it: a
    DM controller carrying the question's controls (one sent before the question was
    asked, e.g. a new deal's hand while the AI seats act first, counts as 0), else a
    mention (no controls) sent after the question and not counted for an earlier one. A
    question neither brought is ``missing``: it was never notified."""
    carried: dict[tuple[int, int, str], float] = {}
    mentions: dict[int, list[float]] = {}
    for note in notes:
        for table, token in note.asks:
            key = (note.user, table, token)
            carried[key] = min(carried.get(key, note.at), note.at)
        if not note.asks:
            mentions.setdefault(note.user, []).append(note.at)
    for times in mentions.values():
        times.sort()
    used: dict[int, int] = {}  # user -> mentions counted so far
    found = Delays()
    for ask in sorted(asks, key=lambda a: a.at):
        at, how = carried.get((ask.user, ask.table, ask.token)), "dm"
        if at is None:
            times, how = mentions.get(ask.user, []), "mention"
            i = max(used.get(ask.user, 0), bisect.bisect_left(times, ask.at))
            if i < len(times):
                at, used[ask.user] = times[i], i + 1
        if at is None:
            found.missing.append(ask)
        else:
            found.paired.append((ask, max(0.0, at - ask.at), how))
    return found


def notification_figures(
    asks: Sequence[Ask], notes: Sequence[Notification], began: float
) -> dict[str, Any]:
    """Question → notification (:func:`notification_delays`), as the report prints it; with
    the delays of the questions asked in each minute from ``began`` (the tables' start, when
    every table deals at once, apart from the play that follows)."""
    delays = notification_delays(asks, notes)
    fig = summarize(delays.seconds, TARGET_NOTIFICATION_P99)
    timed = [(ask.at, delay) for ask, delay, _ in delays.paired]
    fig["by_minute"] = by_minute(timed, began, TARGET_NOTIFICATION_P99)
    fig["missing"] = len(delays.missing)
    fig["missing_examples"] = [
        f"table {a.table} user {a.user} question {a.token}" for a in delays.missing[:5]
    ]
    fig["by_kind"] = delays.by_kind()
    fig["slowest"] = delays.slowest()
    return fig


def deleted_pings(fake: FakeDiscord, began: float) -> int:
    """Ghost pings: channel messages of the bot that notified someone and were deleted
    before any of them answered (interacted) — a mention removed once answered is not one."""
    acted: dict[int, list[float]] = {}
    for rec in fake.interactions.values():
        acted.setdefault(rec.user_id, []).append(rec.created_at)

    def answered(m: Any) -> bool:
        end = m.deleted_at or 0.0
        return any(m.created_at <= t <= end for u in m.notified for t in acted.get(u, []))

    return sum(
        1
        for m in fake.messages.values()
        if m.author_id == fake.bot_user.id
        and m.created_at >= began
        and m.guild_id is not None
        and m.deleted
        and m.notified
        and not answered(m)
    )


def _kind(rec: InteractionRecord) -> str:
    """ "play", "hint", … for a command, "button" for a component, "autocomplete"."""
    if rec.type == AUTOCOMPLETE:
        return "autocomplete"
    if rec.type == 2:
        options = rec.data.get("options") or [{}]
        return str(options[0].get("name", rec.data.get("name", "?")))
    return "button"


def _by_kind(
    recs: list[InteractionRecord], latency: Callable[[Any], float | None]
) -> dict[str, dict[str, Any]]:
    kinds: dict[str, list[float]] = {}
    for rec in recs:
        value = latency(rec)
        if value is not None:
            kinds.setdefault(_kind(rec), []).append(value)
    return {name: summarize(values) for name, values in sorted(kinds.items())}


def format_report(fig: dict[str, Any]) -> str:
    """The figures as a few lines of text."""
    lines = [
        f"{fig['tables']} tables, {fig['actions']} human actions in {fig['seconds']} s "
        f"({fig['games_finished']} games finished, {fig['requests']} requests to Discord, "
        f"{fig['failed_requests']} failed)"
    ]
    for key, name in (
        ("interactions", "interactions"),
        ("autocomplete", "autocomplete"),
        ("full_answers", "full answer"),
    ):
        s = fig[key]
        verdict = "meets" if s["meets_target"] else "MISSES"
        target = f"{verdict} p99 ≤ {fig['target_p99_ms']:.0f} ms"
        if key == "full_answers":  # the controller with its picture, a command's follow-up
            target = f"{verdict} p99 ≤ {fig['target_full_p99_ms']:.0f} ms"
        lines.append(
            f"{name:>13}: n={s['count']:5d}  p50 {s['p50_ms']:6.1f} ms  p99 {s['p99_ms']:6.1f} ms"
            f"  max {s['max_ms']:6.1f} ms  — {target}"
        )
    if fig.get("full_superseded"):
        lines.append(
            f"{'':>13}  {fig['full_superseded']} presses on a controller re-sent meanwhile: "
            "acknowledged, the new controller shows them"
        )
    setup = fig["setup"]
    lines.append(
        f"{'opening':>13}: n={setup['count']:5d}  p50 {setup['p50_ms']:6.1f} ms  p99 "
        f"{setup['p99_ms']:6.1f} ms  max {setup['max_ms']:6.1f} ms  — first answers while "
        "the tables were opened and filled (not in the figures above)"
    )
    cpu = fig["cpu_seconds"]
    lines.append(
        f"CPU: {cpu['process']} s in this process ({cpu['event_loop']} s on the event loop "
        f"thread), pictures drawn by {fig['draw_processes'] or 'threads, no'} worker processes"
    )
    for key, name in (("by_kind", "first answer"), ("full_by_kind", "full answer")):
        lines.append(
            f"   {name} by kind (p50/p99 ms): "
            + ", ".join(f"{k} {v['p50_ms']:.0f}/{v['p99_ms']:.0f}" for k, v in fig[key].items())
        )
    lines.append(
        "   full answer by minute of the play (p99 ms): "
        + ", ".join(f"{m}: {p99:.0f}" for m, p99 in fig["full_by_minute"].items())
    )
    for where, lag in fig["loop_lag"].items():
        lines.append(
            f"   event loop late, {where} (ms): p50 {lag['p50_ms']:.0f}, p99 "
            f"{lag['p99_ms']:.0f}, max {lag['max_ms']:.0f}; p99 by minute: "
            + ", ".join(f"{m}: {p99:.0f}" for m, p99 in lag["by_minute"].items())
        )
    limit = fig.get("global_limit", DISCORD_GLOBAL_LIMIT)  # bench.discord_shards: Discord's
    lines += _traffic_lines(fig["discord"], fig["rate_limits"], limit)
    pics = fig["pictures_uploaded"]
    lines.append(
        f"   pictures uploaded: hand per person per game {pics['hand_per_person_per_game']} "
        f"in DMs (max {pics['hand_per_person_per_game_max']}), "
        f"{pics['hand_replies_per_person_per_game']} in replies; "
        f"table and result per game {pics['channel_per_game']}; total {pics['total']}"
    )
    lines += _in_process_lines(fig)
    if fig["unanswered"] or fig["stuck"] or fig["unstarted"]:
        lines.append(
            f"unanswered: {fig['unanswered']}, stuck: {fig['stuck']}, "
            f"tables not opened or started in time: {fig['unstarted']}"
        )
        lines += [f"  {e}" for e in fig["errors"]]
    return "\n".join(lines)


def _in_process_lines(fig: dict[str, Any]) -> list[str]:
    """The figures only the bot's memory tells: pictures drawn and reused, question →
    notification (``bench.discord_shards``: from what each bot process wrote down,
    ``bench.shard_bot``)."""
    pics = fig["pictures_uploaded"]
    if "hand_and_scoreboard_pictures" in pics:
        reuse = pics["hand_and_scoreboard_pictures"]
        lines = [
            f"   hand and scoreboard pictures: {reuse['drawn']} drawn, {reuse['reused']} "
            f"reused (bot.pictures.cache, {reuse['kept']} kept at the end); table pictures: "
            f"{pics['table_pictures']['drawn']} drawn, {pics['table_pictures']['unchanged']} "
            "unchanged (not drawn again)"
        ]
    else:
        lines = ["   (pictures drawn and reused: a bot process did not write them down)"]
    note = fig["notification"]
    lines.append(
        f"   question → notification: {note['count']} questions, p50 {note['p50_ms']:.0f} ms, "
        f"p99 {note['p99_ms']:.0f} ms, max {note['max_ms']:.0f} ms; "
        f"{note['missing']} never notified — "
        f"{'meets' if note['meets_target'] else 'MISSES'} p99 ≤ {TARGET_NOTIFICATION_P99 * 1000:.0f} ms"
    )
    minutes = note.get("by_minute", {})
    if minutes:
        lines.append(
            "     by minute of the play (p99 ms): "
            + ", ".join(f"{m}: {k['p99_ms']:.0f}" for m, k in minutes.items())
        )
    kinds = note.get("by_kind", {})
    if kinds:
        lines.append(
            "     by question: "
            + "; ".join(
                f"{kind} {k['count']}: p50 {k['p50_ms']:.0f} ms, p99 {k['p99_ms']:.0f} ms"
                for kind, k in kinds.items()
            )
        )
    return lines


def _traffic_lines(d: dict[str, Any], rate_limits: bool, global_limit: int) -> list[str]:
    limited = d["rate_limited"]
    dm, ch = d["dm_per_own_turn"], d["channel_messages_per_game"]
    routes = ", ".join(
        f"{r} {n}" for r, n in list(d["bot_requests_per_action_by_route"].items())[:6]
    )
    return [
        f"Discord ({f'global limit {global_limit}/s' if rate_limits else 'no rate limits'}), over "
        f"{d['games']} whole games, {d['engine_actions']} engine actions:",
        f"   bot-token requests per action: {d['bot_requests_per_action']} ({routes})",
        "      by place: "
        + ", ".join(f"{k} {n}" for k, n in d["bot_requests_per_action_by_place"].items()),
        "      edits that changed nothing seen, per action: "
        + (", ".join(f"{k} {n}" for k, n in d["idle_edits_per_action"].items()) or "none"),
        f"   429s: {limited['total']} {limited['by_scope']}",
        f"   DMs per own turn: {dm['posted_mean']} (max {dm['posted_max']}; as follow-ups "
        f"of a press {dm['followed_mean']}), replaced (deleted) {dm['deleted_mean']}; "
        f"deleted pings {d['deleted_pings']}",
        f"   channel messages per game: created {ch['created']}, deleted {ch['deleted']}, "
        f"lasting {ch['lasting']}, edits {ch['edits']}",
        "   targets missed: "
        + (", ".join(k for k, ok in d["meets_targets"].items() if not ok) or "none"),
    ]


def think_range(text: str) -> tuple[float, float]:
    """``"2-8"`` -> (2.0, 8.0); ``"0.5"`` -> (0.5, 0.5)."""
    low, _, high = text.partition("-")
    values = (float(low), float(high or low))
    if not 0 <= values[0] <= values[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: LOW-HIGH seconds, 0 <= LOW <= HIGH")
    return values


def add_play_arguments(parser: argparse.ArgumentParser, tables: int) -> None:
    """The options of how the people play, shared with ``bench.discord_shards``."""
    parser.add_argument("--tables", type=int, default=tables, help="tables playing at once")
    parser.add_argument("--actions", type=int, default=10, help="actions per person")
    parser.add_argument(
        "--think", type=think_range, default=THINK, help="seconds a person thinks: LOW-HIGH"
    )
    parser.add_argument(
        "--fast", action="store_const", dest="think", const=FAST_THINK, help="think 0.25-0.75 s"
    )
    parser.add_argument(
        "--no-rate-limits", action="store_true", help="the fake without Discord's rate limits"
    )
    parser.add_argument("--ai-delay", type=float, default=0.5, help="seconds an AI waits")
    parser.add_argument("--seed", type=int, default=1)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bench.discord``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bench.discord", description=__doc__)
    add_play_arguments(parser, tables=50)
    parser.add_argument("--dir", default=None, help="directory for the database")
    parser.add_argument(
        "--draw-processes", type=int, default=1, help="processes drawing pictures (0: threads)"
    )
    parser.add_argument(
        "--picture-wait",
        type=float,
        default=PICTURE_WAIT,
        help="most seconds a DM waits for its hand picture (GOUJI_PICTURE_WAIT; -1: until drawn)",
    )
    parser.add_argument(
        "--global-limit",
        type=int,
        default=DISCORD_GLOBAL_LIMIT,
        help="the bot token's requests a second (GOUJI_GLOBAL_LIMIT: Discord's 50, or raised)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true", help="profile the event loop")
    args = parser.parse_args(argv)
    if (
        min(args.tables, args.actions, args.global_limit) < 1
        or min(args.ai_delay, args.draw_processes) < 0
    ):
        parser.error(
            "--tables, --actions and --global-limit must be at least 1, the times not negative"
        )
    profiler = cProfile.Profile() if args.profile else None
    collect_in_steps()  # as gouji bot does (the fake and the people pause less too)
    fig = asyncio.run(
        run_benchmark(
            args.tables,
            args.actions,
            args.think,
            args.ai_delay,
            args.seed,
            args.dir,
            profiler,
            args.draw_processes,
            not args.no_rate_limits,
            picture_wait=None if args.picture_wait < 0 else args.picture_wait,
            global_limit=args.global_limit,
        )
    )
    print(json.dumps(fig, indent=1) if args.json else format_report(fig))
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(r"/(bot|engine|data)/", 25)  # the bot's part
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
