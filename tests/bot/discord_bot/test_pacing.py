"""The pace that keeps the bot's own requests under Discord's global limit."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import pytest

from bot.discord_bot.client import GoujiBot
from bot.discord_bot.pacing import (
    SLACK,
    DiscordPyChanged,
    Pace,
    Unwanted,
    ahead_of_need,
    check_discord_py,
    only_if,
    pace_requests,
    sweep_buckets_seldom,
)
from bot.discord_bot.table_message import BUSY_WAITS, REDRAW_SHARE, busy_waits
from bot.service.config import BotConfig
from data import Shards


class Still:
    """A clock that moves only when a request sleeps (by the time it sleeps)."""

    def __init__(self) -> None:
        self.t = 0.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds


async def answered_at_once(pace: Pace, slack: float = 0.0) -> None:
    """A request through ``pace`` that Discord answers as soon as it starts."""
    pace.finished(await pace.wait(slack))


async def test_the_pace_lets_at_most_its_limit_start_in_any_second() -> None:
    clock = Still()
    pace = Pace(limit=5, per=1.0, clock=clock.now, sleep=clock.sleep)
    starts = []
    for _ in range(12):
        await answered_at_once(pace)
        starts.append(clock.t)
    assert starts[:5] == [0.0] * 5, "the first five go at once"
    for i in range(5, 12):
        assert starts[i] - starts[i - 5] >= 1.0, "no second holds more than five"
    assert pace.waited == 2  # the sixth and the eleventh: a second on, five may go again


async def test_requests_that_wait_on_the_pace_start_in_the_order_they_came() -> None:
    clock = Still()
    pace = Pace(limit=2, per=1.0, clock=clock.now, sleep=clock.sleep)
    order: list[int] = []

    async def request(n: int) -> None:
        await answered_at_once(pace)
        order.append(n)

    await asyncio.gather(*(request(n) for n in range(6)))
    assert order == list(range(6))


async def test_a_request_answered_late_holds_its_slot_from_its_answer() -> None:
    """A request the event loop sent late reaches Discord late: it counts in the second of
    its answer, not of its start, so the next one waits a second from that answer."""
    clock = Still()
    pace = Pace(limit=2, per=1.0, clock=clock.now, sleep=clock.sleep)
    first = await pace.wait()
    await answered_at_once(pace)
    clock.t = 0.7  # the first request is answered only now
    pace.finished(first)
    clock.t = 1.0
    await pace.wait()  # the second's slot (answered at 0) is free again; the first's is not
    assert clock.t == 1.0
    await pace.wait()
    assert clock.t == pytest.approx(1.7), "a second after the first request's answer"


async def test_a_request_not_yet_answered_holds_its_slot_however_long_it_takes() -> None:
    """A network that stalls delivers what it held in a bunch, when Discord counts it: a
    request unanswered after a second may not have reached Discord yet, so its slot is not
    free until a second after its answer."""
    clock = Still()
    pace = Pace(limit=1, per=1.0, clock=clock.now, sleep=clock.sleep)
    stalled = await pace.wait()
    after = asyncio.create_task(pace.wait())
    for _ in range(5):
        await asyncio.sleep(0)
    clock.t = 5.0
    await asyncio.sleep(0)
    assert not after.done(), "no slot while the first request waits for its answer"
    pace.finished(stalled)  # answered at 5 s
    assert await after == pytest.approx(6.0), "a second after that answer"


async def test_a_wait_cancelled_once_given_its_slot_gives_it_back() -> None:
    clock = Still()
    pace = Pace(limit=1, per=1.0, clock=clock.now, sleep=clock.sleep)
    await answered_at_once(pace)  # the window is full until t = 1
    given = asyncio.create_task(pace.wait())
    await asyncio.sleep(0)
    (_, _, turn), *_ = pace._waiting
    while not turn.done():
        await asyncio.sleep(0)
    assert not given.done()
    given.cancel()  # its turn came (at t = 1), its caller is cancelled before using it
    with pytest.raises(asyncio.CancelledError):
        await given
    assert pace.in_flight == 0, "the slot it was given is not held for ever"


def test_a_pace_needs_a_positive_limit() -> None:
    with pytest.raises(ValueError):
        Pace(limit=0)


async def test_when_the_pace_is_full_a_notification_goes_before_redraws_and_clean_ups() -> None:
    """At Discord's global limit, a question's new DM must not queue behind every table's
    redraw and the deletions of answered controllers that came before it."""
    clock = Still()
    pace = Pace(limit=2, per=1.0, clock=clock.now, sleep=clock.sleep)
    order: list[str] = []

    async def request(name: str, method: str) -> None:
        await answered_at_once(pace, SLACK[method])
        order.append(name)

    await answered_at_once(pace)
    await answered_at_once(pace)  # the window is full
    await asyncio.gather(
        request("delete", "DELETE"),
        request("redraw", "PATCH"),
        request("notify", "POST"),
        request("redraw 2", "PATCH"),
    )
    assert order == ["notify", "redraw", "redraw 2", "delete"]


async def test_a_request_yields_to_later_ones_for_no_longer_than_its_slack() -> None:
    """A clean-up waiting on a full pace lets a new message that came within its slack go
    first, but not one that came after: nothing waits for ever."""
    clock = Still()
    pace = Pace(limit=1, per=1.0, clock=clock.now, sleep=clock.sleep)
    order: list[str] = []

    async def request(name: str, method: str, at: float) -> None:
        clock.t = max(clock.t, at)
        await answered_at_once(pace, SLACK[method])
        order.append(name)

    await answered_at_once(pace)  # the window is full until t = 1
    await asyncio.gather(
        request("delete", "DELETE", 0.0),  # may yield until t = 2
        request("notify at 1.5", "POST", 1.5),
        request("notify at 2.5", "POST", 2.5),
    )
    assert order == ["notify at 1.5", "delete", "notify at 2.5"]


async def test_the_pace_is_busy_from_three_quarters_of_its_window_taken() -> None:
    clock = Still()
    pace = Pace(limit=4, per=1.0, clock=clock.now, sleep=clock.sleep)
    assert not pace.busy()
    for _ in range(2):
        await answered_at_once(pace)
    assert not pace.busy(), "half the window"
    await answered_at_once(pace)
    assert pace.busy(), "three quarters"
    clock.t = 1.0
    assert not pace.busy(), "a second on, the window is empty again"


async def test_each_shard_process_paces_its_part_of_the_tokens_global_limit() -> None:
    """The shard processes share one token, so one global limit: each takes its shards' part
    (two of four shards: half), where a bot that is one process takes it all."""
    whole = GoujiBot(BotConfig(token="t"))
    half = GoujiBot(BotConfig(token="t", shards=Shards.parse(4, "0-1")))
    raised = GoujiBot(BotConfig(token="t", shards=Shards.parse(4, "3"), global_limit=1000))
    assert (whole.pace.limit, half.pace.limit, raised.pace.limit) == (45, 22, 225)
    for bot in (whole, half, raised):
        assert bot.presenter.request_limit == bot.pace.limit  # the table redraws' budget
        await bot.close()


async def test_discord_py_looks_for_idle_buckets_at_most_once_in_a_while() -> None:
    """discord.py drops its idle rate-limit buckets when it opens a new one (past 256): not
    more than once every ``every`` seconds, however many it opens."""
    clock = Still()
    client = discord.Client(intents=discord.Intents.none())
    sweep_buckets_seldom(client, every=30.0, clock=clock.now)
    http = client.http
    for i in range(300):  # the sweep at the 256th finds none idle
        http.get_ratelimit(f"route {i}")
    for bucket in http._buckets.values():
        bucket._last_request -= 600.0  # idle ten minutes: discord.py's sweep drops them
    http.get_ratelimit("one more")
    assert len(http._buckets) == 301  # no sweep within 30 s of the last
    clock.t += 30.0
    http.get_ratelimit("and another")
    assert set(http._buckets) == {"one more", "and another"}
    await client.close()


async def test_discord_py_calls_its_requests_through_the_method_the_pace_replaces() -> None:
    """discord.py's own calls (here ``get_user``) go through ``http.request`` as the client's
    instance has it: what the pace replaces is what they call (pacing.py's assumption)."""
    pace = Pace(limit=1, per=1.0)
    client, made = _paced_client(pace)
    assert await client.http.get_user(5) == "/users/{user_id}"
    assert made == ["/users/{user_id}"] and pace.answered  # paced: its slot held after
    await client.close()


class _ChangedHTTP:
    """An ``HTTPClient`` of a discord.py unlike the one pacing.py was written for."""

    async def request(self, route: object, **kwargs: object) -> None: ...

    def _try_clear_expired_ratelimits(self) -> None: ...


class _SweepRenamed(_ChangedHTTP):
    _try_clear_expired_ratelimits = None  # type: ignore[assignment]


class _SweepTakesAnArgument(_ChangedHTTP):
    def _try_clear_expired_ratelimits(self, now: float) -> None:  # type: ignore[override]
        ...


class _RequestTakesNoRoute(_ChangedHTTP):
    async def request(self, **kwargs: object) -> None:  # type: ignore[override]
        ...


class _RequestTakesNoOptions(_ChangedHTTP):
    async def request(self, route: object) -> None:  # type: ignore[override]
        ...


def test_the_installed_discord_py_has_the_methods_the_pace_replaces() -> None:
    check_discord_py(discord.Client(intents=discord.Intents.none()).http)
    check_discord_py(_ChangedHTTP())


@pytest.mark.parametrize(
    "http",
    [_SweepRenamed(), _SweepTakesAnArgument(), _RequestTakesNoRoute(), _RequestTakesNoOptions()],
)
@pytest.mark.parametrize(
    "replace", [lambda client: pace_requests(client, Pace()), sweep_buckets_seldom]
)
def test_a_discord_py_whose_methods_changed_is_refused_at_start_up(http, replace) -> None:
    """Replacing methods discord.py no longer has so would leave the bot unpaced, or its
    buckets unswept, without a word: the client is refused, naming both versions."""
    with pytest.raises(DiscordPyChanged, match=rf"discord.py {discord.__version__}: .*2\.7\.1"):
        replace(SimpleNamespace(http=http))


def _paced_client(pace: Pace) -> tuple[discord.Client, list[str]]:
    """A client whose requests wait for ``pace`` and then only note their path (answered
    with it), and that list of the requests made."""
    client = discord.Client(intents=discord.Intents.none())
    made: list[str] = []

    async def request(route: discord.http.Route, **kwargs: object) -> str:
        made.append(route.path)
        return route.path

    client.http.request = request  # type: ignore[method-assign]
    pace_requests(client, pace)
    return client, made


async def test_a_request_no_longer_wanted_when_its_turn_comes_is_not_made() -> None:
    """A question's DM waits on a full pace; the player answers meanwhile: when its turn
    comes the request is not made (Unwanted), and its slot goes at once to the next one."""
    pace = Pace(limit=1, per=1.0)
    client, made = _paced_client(pace)
    held = await pace.wait()  # the window is full
    asked = True

    async def notify() -> None:
        with only_if(lambda: asked):
            await client.http.request(discord.http.Route("POST", "/channels/1/messages"))

    notifying = asyncio.create_task(notify())
    redraw = asyncio.create_task(
        client.http.request(discord.http.Route("PATCH", "/channels/2/messages/3"))
    )
    await asyncio.sleep(0)
    asked = False  # answered (a typed command) while the DM waited
    pace.finished(held)
    with pytest.raises(Unwanted):
        await notifying
    assert await redraw == "/channels/2/messages/3"
    assert made == ["/channels/2/messages/3"], "the DM was never made"
    assert pace.in_flight == 0
    await client.close()


async def test_a_request_made_ahead_of_need_yields_to_the_questions() -> None:
    """A DM channel opened as a player sits down (a POST) waits, on a full pace, behind a
    question's DM that came after it, as a clean-up would."""
    pace = Pace(limit=1, per=0.01)
    client, made = _paced_client(pace)
    held = await pace.wait()  # the window is full

    async def open_dm() -> None:
        with ahead_of_need():
            await client.http.request(discord.http.Route("POST", "/users/@me/channels"))

    opening = asyncio.create_task(open_dm())
    await asyncio.sleep(0)
    notifying = asyncio.create_task(
        client.http.request(discord.http.Route("POST", "/channels/1/messages"))
    )
    await asyncio.sleep(0)
    pace.finished(held)
    await asyncio.gather(opening, notifying)
    assert made == ["/channels/1/messages", "/users/@me/channels"]
    await client.close()


@pytest.mark.parametrize(("tables", "limit"), [(1, 45), (50, 45), (300, 45), (500, 45), (500, 22)])
def test_near_the_limit_the_late_table_redraws_take_at_most_a_third_of_the_pace(
    tables: int, limit: int
) -> None:
    # a redraw waits while the pace is busy, but at most busy_waits more intervals: were every
    # table's redraw to wait them all and then go, the redraws would still leave two thirds
    # of the pace to the questions' DMs (at 500 tables, 10 s of waiting left them none)
    interval = 2.0
    waits = busy_waits(tables, limit, interval)
    assert waits >= BUSY_WAITS, "a few tables wait no longer than before"
    redraws_a_second = tables / ((waits + 1) * interval)
    assert redraws_a_second <= limit * REDRAW_SHARE
    assert REDRAW_SHARE <= 1 / 3
    if waits > BUSY_WAITS:  # and no longer than that needs
        assert tables / (waits * interval) > limit * REDRAW_SHARE
    assert busy_waits(tables, limit, 0.0) == BUSY_WAITS  # redrawn without an interval
