"""What the Discord handlers work with — the table service (the one place they ask), who is
who and the drawer — handed to the cog and reached by the DM components through their
interaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, cast

import discord

from bot.discord_bot.people import People
from bot.pictures.drawing import Drawer
from bot.service.live import LiveTable
from bot.service.tables import TableService
from bot.service.tickets import WebLinks
from bot.service.tournaments import TableStandings


class Controls(Protocol):
    """The hand controllers (the Discord presenter): a press answers with its controller."""

    def claim(self, live: LiveTable, seat: int) -> None: ...

    def release(self, live: LiveTable, seat: int) -> None: ...

    def follow(
        self, live: LiveTable, seat: int, interaction: discord.Interaction, cards: str
    ) -> None:
        """``interaction`` answered with the seat's controller (``/gouji hand``) and the
        picture of ``cards``."""

    async def answer_press(
        self,
        interaction: discord.Interaction,
        live: LiveTable,
        seat: int,
        lang: str,
        note: str,
        highlight: str | None = None,
    ) -> None: ...


class Beside(Protocol):
    """Another front end served by the bot's process on the same tables (the browser table,
    ``bot.web.app.BesideBot``; ``gouji bot`` makes it from the configuration)."""

    async def open(
        self,
        service: TableService,
        people: People,
        events: Callable[[int], Awaitable[TableStandings | None]] | None = None,
    ) -> WebLinks:
        """Start serving; the personal links to give the players. ``events``: a round's
        table's tournament standings (the browser table's bar shows them)."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Gouji:
    """The narrow dependencies of the command and button handlers."""

    service: TableService
    people: People
    draw: Drawer
    controls: Controls
    web: WebLinks | None = None  # personal links to the browser table (GOUJI_WEB_URL set)
    activity: bool = False  # the table as a Discord Activity: "Open the table" buttons


class HasGouji(Protocol):
    """A client that carries the handlers' :class:`Gouji` (set once it is started)."""

    gouji: Gouji


def gouji_of(interaction: discord.Interaction) -> Gouji:
    """The :class:`Gouji` of the client that received ``interaction``."""
    return cast(HasGouji, interaction.client).gouji
