"""Keeping the bot under Discord's global request limit before Discord refuses.

Discord allows a bot 50 requests per second over every route called with its token (the
interaction callbacks and follow-ups, which discord.py sends through its webhook adapter, are
not counted). discord.py waits out each route's own bucket from the ``X-RateLimit-*`` headers,
but learns of the global limit only from a 429. :class:`Pace` spaces the bot-token requests
so that no second holds more than ``limit`` of them, the ones players wait for first (a new
message before a redraw before a clean-up); :func:`pace_requests` puts it in front of a
client's ``http.request``. A request made :func:`only_if` something still holds, which no
longer does when its turn comes (a question's notification, the question answered while it
waited), is not made: :class:`Unwanted`. :func:`sweep_buckets_seldom` keeps discord.py's own
bookkeeping of those buckets from costing the bot more than the requests do.

Both replace a method of discord.py's ``HTTPClient`` on the client's instance, which
discord.py has no public way to do: ``request(route, **kwargs)``, through which each of its
calls goes (``self.request``), and the private ``_try_clear_expired_ratelimits()``, which
``get_ratelimit`` calls (``self.…``) each time it opens a bucket. They were written for
discord.py 2.7.1; :func:`check_discord_py` refuses to start a client whose discord.py no
longer has them so (tests/bot/discord_bot/test_pacing.py checks that discord.py still calls
them).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import inspect
import itertools
import math
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

import discord

from bot.service.config import DISCORD_GLOBAL_LIMIT

HEADROOM = 0.9  # of Discord's global limit the pace uses: room for the network's jitter


def pace_limit(discord_limit: int, share: float = 1.0) -> int:
    """The pace of one process of a bot Discord allows ``discord_limit`` requests a second,
    the process making ``share`` of them: ``pace_limit(50)`` is 45, and each of two shard
    processes (``share`` 0.5: the shards share the token, so its limit) takes 22."""
    return max(1, int(discord_limit * HEADROOM * share))


GLOBAL_LIMIT = pace_limit(DISCORD_GLOBAL_LIMIT)  # requests per second: 45 of Discord's 50


#: Seconds a request of each method may yield to those that matter more when the pace is
#: full: a new message (a question's notification, a mention) goes first, an edit (a table
#: redraw) after, a clean-up (deleting an answered controller) last — but never more than
#: this behind a request that came after it, so that nothing waits for ever.
SLACK = {"POST": 0.0, "PATCH": 0.5, "PUT": 0.5, "DELETE": 2.0}

BUSY = 0.75  # the share of the window taken from which the pace is :meth:`Pace.busy`


class Pace:
    """At most ``limit`` requests in any ``per`` seconds, as Discord counts them: each holds
    its slot from its start until its answer (:meth:`finished`), and for ``per`` seconds
    after. Discord counts a request when it arrives, which may be long after its start (a
    network that stalls delivers what it held in a bunch), but never after its answer: so
    however late each one arrives, no ``per`` seconds of Discord's see more than ``limit``.
    When the window is full, the waiting requests go by their deadline: when they came plus
    their ``slack`` (earliest first; equal deadlines in the order they came). ``clock`` and
    ``sleep`` may be replaced by a test."""

    def __init__(
        self,
        limit: int = GLOBAL_LIMIT,
        per: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] = asyncio.sleep,
    ) -> None:
        if limit < 1 or per <= 0:
            raise ValueError("a pace needs a limit of at least 1 per a positive time")
        self.limit, self.per = limit, per
        self.clock, self.sleep = clock, sleep
        self.in_flight = 0  # requests started and not yet answered
        self.answered: deque[float] = deque()  # when the answers of the last ``per`` came
        self.waited = 0  # how many requests had to wait (for tests and logs)
        self._waiting: list[tuple[float, int, asyncio.Future[float]]] = []  # a heap
        self._order = itertools.count()
        self._releasing: asyncio.Task[None] | None = None
        self._answer = asyncio.Event()  # set at each answer: its slot lapses ``per`` later

    def _room(self, now: float, taken: float | None = None) -> bool:
        """Whether fewer than ``taken`` (the limit) slots are held at ``now``."""
        while self.answered and now - self.answered[0] >= self.per:
            self.answered.popleft()
        held = self.in_flight + len(self.answered)
        return held < (self.limit if taken is None else taken)

    def busy(self) -> bool:
        """Whether requests wait now, or at least :data:`BUSY` of the window is taken: what
        can wait (a table's redraw) had better, so that the questions go at once."""
        return bool(self._waiting) or not self._room(self.clock(), self.limit * BUSY)

    async def wait(self, slack: float = 0.0) -> float:
        """Return when one more request may start now (``slack``: see :class:`Pace`), its slot
        taken: the caller must give it back with :meth:`finished` once answered (or failed).
        Returns the time it started."""
        now = self.clock()
        if not self._waiting and self._room(now):
            self.in_flight += 1
            return now
        self.waited += 1
        turn: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (now + slack, next(self._order), turn))
        if self._releasing is None or self._releasing.done():
            self._releasing = asyncio.create_task(self._release())
        try:
            return await turn  # a cancelled wait leaves its turn cancelled: _release skips it
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given a slot, cancelled before using it
                self.finished(turn.result())
            raise

    def unused(self) -> None:
        """A slot :meth:`wait` gave was not used (no request went): free at once."""
        self.in_flight = max(0, self.in_flight - 1)
        self._answer.set()

    def finished(self, started: float) -> None:
        """The request that started at ``started`` was answered (or failed): its slot is held
        ``per`` seconds from now, then free."""
        self.in_flight = max(0, self.in_flight - 1)
        self.answered.append(self.clock())
        self._answer.set()

    async def _release(self) -> None:
        """Let the waiting requests go, by deadline, as the window makes room."""
        while self._waiting:
            now = self.clock()
            if self._room(now):
                _deadline, _n, turn = heapq.heappop(self._waiting)
                if not turn.done():
                    self.in_flight += 1
                    turn.set_result(now)
                continue
            if not self.answered:  # every slot is in flight: the next answer frees one
                self._answer.clear()
                await self._answer.wait()
                continue
            await self.sleep(self.answered[0] + self.per - now)


class Unwanted(Exception):
    """A request made :func:`only_if` something held, which no longer held when the pace let
    it go: it was not made."""


_wanted: ContextVar[Callable[[], bool] | None] = ContextVar("wanted", default=None)
_ahead: ContextVar[bool] = ContextVar("ahead", default=False)


@contextlib.contextmanager
def ahead_of_need() -> Iterator[None]:
    """The bot-token requests made within are made before anyone waits for them (a
    player's DM channel opened when they sit down, for their first controller): near the
    limit they yield to the rest as a clean-up does (:data:`SLACK`)."""
    token = _ahead.set(True)
    try:
        yield
    finally:
        _ahead.reset(token)


@contextlib.contextmanager
def only_if(wanted: Callable[[], bool]) -> Iterator[None]:
    """The bot-token requests made within go only if ``wanted()`` still holds when the pace
    lets them, else raise :class:`Unwanted`: near Discord's limit a question's new DM may
    wait seconds, and the player may have answered meanwhile (a typed command, the web
    table), so that the DM, and the deletion of the controller it replaces, would be two
    requests for nothing while others wait behind them.

        with only_if(lambda: still_asked()):
            await channel.send(...)
    """
    token = _wanted.set(wanted)
    try:
        yield
    finally:
        _wanted.reset(token)


#: the discord.py these replacements were written for (see the module's docstring)
WRITTEN_FOR = "2.7.1"


class DiscordPyChanged(RuntimeError):
    """The installed discord.py's ``HTTPClient`` is not the one :mod:`pacing` replaces
    methods of: the bot would run unpaced, or its buckets unswept, without a word."""


def check_discord_py(http: Any) -> None:
    """Raise :class:`DiscordPyChanged` unless ``http`` (a client's ``HTTPClient``) has the two
    methods this module replaces, called as it calls them: ``request(route, **kwargs)`` and
    ``_try_clear_expired_ratelimits()``."""

    def parameters(name: str) -> list[inspect.Parameter] | None:
        method = getattr(http, name, None)
        if not callable(method):
            return None
        try:
            return list(inspect.signature(method).parameters.values())
        except (TypeError, ValueError):
            return None

    request = parameters("request")
    sweep = parameters("_try_clear_expired_ratelimits")
    if (
        not request
        or request[0].kind not in (request[0].POSITIONAL_ONLY, request[0].POSITIONAL_OR_KEYWORD)
        or request[-1].kind is not request[-1].VAR_KEYWORD
        or sweep is None
        or any(p.default is p.empty and p.kind is not p.VAR_POSITIONAL for p in sweep)
    ):
        raise DiscordPyChanged(
            f"discord.py {discord.__version__}: its HTTPClient no longer has request(route, "
            f"**kwargs) and _try_clear_expired_ratelimits(), which bot/discord_bot/pacing.py "
            f"replaces (written for discord.py {WRITTEN_FOR}): install that version, or "
            f"adapt pacing.py to this one"
        )


def pace_requests(client: discord.Client, pace: Pace) -> None:
    """Make every bot-token request of ``client`` wait for ``pace`` first (with its
    method's :data:`SLACK`), its slot held until a second after its answer; a request
    :func:`only_if` something that no longer holds then is not made; one made
    :func:`ahead_of_need` yields to the others."""
    http = client.http
    check_discord_py(http)
    request = http.request

    async def paced(route: discord.http.Route, **kwargs: Any) -> Any:
        slack = SLACK["DELETE"] if _ahead.get() else SLACK.get(route.method, 0.0)
        started = await pace.wait(slack)
        wanted = _wanted.get()
        if wanted is not None and not wanted():
            pace.unused()
            raise Unwanted(f"{route.method} {route.path}")
        try:
            return await request(route, **kwargs)
        finally:
            pace.finished(started)

    http.request = paced  # type: ignore[method-assign]


SWEEP_EVERY = 30.0  # seconds between two sweeps of discord.py's idle rate-limit buckets


def sweep_buckets_seldom(
    client: discord.Client, every: float = SWEEP_EVERY, clock: Callable[[], float] = time.monotonic
) -> None:
    """Let ``client``'s HTTP client drop its idle rate-limit buckets at most once ``every``
    seconds. discord.py looks through all of them each time a request opens a bucket it
    has not seen (a channel's route, a message's first edit) once it holds 256: at 500
    tables it held thousands, opened many a second, and those looks took 6 % of the bot's
    event loop. A bucket idle for five minutes still goes, within ``every`` seconds more."""
    http = client.http
    check_discord_py(http)
    sweep = http._try_clear_expired_ratelimits
    last = -math.inf

    def seldom() -> None:
        nonlocal last
        now = clock()
        if now - last >= every:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = seldom  # type: ignore[method-assign]
