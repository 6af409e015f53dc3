"""Running the fake and a bot against it: endpoints set and restored, clean start and stop.

``running_fake()`` starts a FakeDiscord and points discord.py at it through
``bot.discord_bot.endpoints``; ``BotRunner`` starts a client built by a factory, waits until it
is ready, and can restart it (a new client object, as after a process restart).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, Generic, TypeVar

import discord

from bot.discord_bot.endpoints import configure_endpoints, current_endpoints

from .server import FakeDiscord

C = TypeVar("C", bound=discord.Client)


@contextlib.asynccontextmanager
async def running_fake(**options: Any) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py pointed at it; both undone on exit."""
    previous = current_endpoints()
    async with FakeDiscord(**options) as fake:
        configure_endpoints(fake.api_base, fake.gateway_url)
        try:
            yield fake
        finally:
            configure_endpoints(*previous)


class BotRunner(Generic[C]):
    """Start, restart and stop a discord.py client against a fake.

    ``factory`` builds a new, not yet started client each time (a "process"); ``client``
    is of the factory's type (a ``GoujiBot`` for the Gouji tests).
    """

    def __init__(self, fake: FakeDiscord, factory: Callable[[], C]) -> None:
        self.fake = fake
        self.factory = factory
        self.bot: C | None = None
        self.task: asyncio.Task[None] | None = None
        self.starts = 0

    @property
    def client(self) -> C:
        """The running client."""
        if self.bot is None:
            raise RuntimeError("the bot is not running; call start() first")
        return self.bot

    async def start(self, timeout: float = 10.0) -> C:
        """Build a client, log it in and connect; return once it is ready."""
        if self.bot is not None:
            raise RuntimeError("the bot is already running; stop() or restart() it")
        sessions_before = len(self.fake.gateway.sessions)
        bot = self.factory()
        task = asyncio.create_task(bot.start(self.fake.token), name="fake-discord-bot")
        task.add_done_callback(lambda _: self.fake.notify())
        self.bot, self.task = bot, task
        self.starts += 1

        async def ready() -> None:
            await self.fake.wait_for(
                lambda: len(self.fake.gateway.sessions) > sessions_before or task.done(),
                timeout,
                "the bot to identify on the gateway",
            )
            if not task.done():
                await bot.wait_until_ready()

        waiter = asyncio.create_task(ready())
        done, _ = await asyncio.wait(
            {task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done or waiter not in done or waiter.exception() is not None:
            error = task.exception() if task.done() and not task.cancelled() else None
            waiter.cancel()
            await asyncio.gather(waiter, return_exceptions=True)
            await self.stop(check=False)
            if error is not None or task in done:
                raise RuntimeError(f"the bot stopped while starting: {error!r}") from error
            raise TimeoutError(f"the bot was not ready after {timeout}s")
        return bot

    async def stop(self, *, check: bool = True) -> None:
        """Close the client and wait for its task; safe to call twice.

        If the client's task had already ended with an error (the bot crashed), that error is
        raised here after the cleanup, unless ``check`` is False.
        """
        bot, task = self.bot, self.task
        self.bot = self.task = None
        crashed = None
        if task is not None and task.done() and not task.cancelled():
            crashed = task.exception()
        if bot is not None:
            await bot.close()
        if task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, 5.0)
        if check and crashed is not None:
            raise RuntimeError(f"the bot had crashed: {crashed!r}") from crashed

    async def restart(self, timeout: float = 10.0) -> C:
        """Stop the client and start a new one from the factory (the fake keeps its state)."""
        await self.stop()
        return await self.start(timeout)

    async def __aenter__(self) -> BotRunner[C]:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
