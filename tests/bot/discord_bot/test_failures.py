"""What players see when something fails: only the project's refusals are refusals; any other
error (a ``ValueError`` from a bug too) is logged with its traceback and answered with a short
"something went wrong". And a closed table's outbox goes away with it."""

from __future__ import annotations

import asyncio
import logging
import random
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord_bot.cog import GoujiCog
from bot.discord_bot.context import Gouji
from bot.discord_bot.outbox import NOTIFY
from bot.discord_bot.people import People
from bot.discord_bot.presenter import DiscordPresenter
from bot.discord_bot.replies import run_dm_action
from bot.pictures.drawing import Drawer
from bot.service.live import LiveTable
from bot.service.tables import TableService
from bot.text.catalog import text
from engine.actions import IllegalActionError

from ..service.helpers import CHANNEL, GUILD, HUMANS, seated_table


class FakeResponse:
    """``interaction.response`` and ``interaction.followup``: what was answered."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, **kwargs) -> None:
        self.done = True

    async def send_message(self, content: str, **kwargs) -> None:
        self.sent.append(content)
        self.done = True

    async def send(self, content: str, **kwargs) -> None:  # the followup
        self.sent.append(content)


def _client() -> Any:
    """A Discord client that knows no channels and no users."""

    async def create_dm(user: Any) -> Any:
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown User")

    return SimpleNamespace(
        get_channel=lambda _id: None,
        get_guild=lambda _id: None,
        get_user=lambda _id: None,
        create_dm=create_dm,
    )


def _gouji(store) -> Gouji:
    client = _client()
    people = People(client)
    draw = Drawer(processes=0)
    presenter = DiscordPresenter(client, people, draw, refresh_interval=0)
    service = TableService(store, presenter, ai_delay=0, rng=random.Random(7))
    presenter.attach(service)
    gouji = Gouji(service, people, draw, presenter)
    client.gouji = gouji
    return gouji


def _interaction(gouji: Gouji) -> Any:
    response = FakeResponse()
    return SimpleNamespace(
        user=SimpleNamespace(id=HUMANS[0], display_name="bo"),
        locale="zh-CN",
        guild=SimpleNamespace(id=GUILD),
        guild_id=GUILD,
        channel_id=CHANNEL,
        command=SimpleNamespace(name="play"),
        response=response,
        followup=response,
        client=gouji.people.client,
        message=None,
    )


async def _work_raising(exc: Exception):
    async def work(lang: str):
        raise exc

    return work


@pytest.mark.parametrize("bug", [ValueError("a bug"), KeyError("a bug")])
async def test_an_error_from_a_bug_is_logged_not_shown_as_a_refusal(store, caplog, bug) -> None:
    gouji = _gouji(store)
    interaction = _interaction(gouji)
    await GoujiCog(gouji)._guarded(interaction, await _work_raising(bug))
    assert interaction.response.sent == [text("zh", "internal")]
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert logged and logged[0].exc_info[1] is bug


async def test_an_engine_refusal_is_a_refusal_and_not_logged(store, caplog) -> None:
    gouji = _gouji(store)
    interaction = _interaction(gouji)
    refused = IllegalActionError("does_not_beat", cards="KK", standing="AA")
    await GoujiCog(gouji)._guarded(interaction, await _work_raising(refused))
    assert interaction.response.sent == ["一对 K 管不上 一对 A。"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_dm_button_hitting_a_bug_is_logged_and_answered_in_short(store, caplog) -> None:
    gouji = _gouji(store)
    live = await seated_table(gouji.service)
    interaction = _interaction(gouji)

    async def act(*args, **kwargs):
        raise ValueError("a bug in the service")

    gouji.service.act = act  # type: ignore[method-assign]
    await run_dm_action(interaction, live.id, "1.turn.0", "pass", None)
    assert interaction.response.sent == [text("zh", "internal")]
    assert any(r.exc_info and isinstance(r.exc_info[1], ValueError) for r in caplog.records)
    await gouji.service.close()


async def _idle_outbox(
    store,
) -> tuple[Gouji, DiscordPresenter, LiveTable, list[asyncio.Task[None]]]:
    """A table whose outbox ran jobs and waits for the next ones (its lanes' workers)."""
    gouji = _gouji(store)
    presenter = gouji.controls
    assert isinstance(presenter, DiscordPresenter)
    live = await seated_table(gouji.service)
    presenter.announce(live, "ev_melee")
    await presenter.drain()
    workers = presenter.outboxes[live.id].workers()
    assert workers and not any(w.done() for w in workers)
    return gouji, presenter, live, workers


async def test_a_closed_tables_outbox_goes_away(store) -> None:
    gouji, presenter, live, workers = await _idle_outbox(store)
    await gouji.service.end(gouji.service.tables.table_in(CHANNEL), HUMANS[0], False)
    await asyncio.wait(workers, timeout=10)
    assert all(w.done() for w in workers) and live.id not in presenter.outboxes
    presenter.announce(live, "ev_melee")  # a late event of the ended table: no outbox stays
    late = presenter.outboxes[live.id].workers()
    assert late
    await asyncio.wait(late, timeout=10)
    assert all(w.done() for w in late) and live.id not in presenter.outboxes


async def test_a_broken_tables_outbox_goes_away(store) -> None:
    gouji, presenter, live, workers = await _idle_outbox(store)
    presenter.broken(live.id, CHANNEL, "a test")
    await asyncio.wait(workers, timeout=10)
    assert all(w.done() for w in workers) and live.id not in presenter.outboxes
    await gouji.service.close()


async def test_a_seats_notification_does_not_wait_behind_a_blocked_channel_job(store) -> None:
    """discord.py sleeps inside a request that used its bucket's last room (up to 5 s for a
    channel's edits): a table redraw waiting so must not hold up a question's notification
    in someone's DMs — the channel and each seat have their own lane."""
    gouji, presenter, live, _ = await _idle_outbox(store)
    released = asyncio.Event()
    ran: list[str] = []

    async def redraw() -> None:
        await released.wait()
        ran.append("redraw")

    async def notify() -> None:
        ran.append("notify")

    presenter._enqueue(live, redraw)
    presenter._enqueue(live, notify, NOTIFY, 2)
    for _ in range(20):  # let the lanes' workers run
        await asyncio.sleep(0)
    assert ran == ["notify"]
    released.set()
    await presenter.drain()
    assert ran == ["notify", "redraw"]
    await gouji.service.close()
