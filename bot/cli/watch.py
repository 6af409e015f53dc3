"""The listener ``gouji demo`` follows its table with (the way any front end listens to the
table service): a progress report after each change, and each game's table as it ended,
taken from the service's public view in the callback (the table's lock is held there)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.service.live import LiveTable
from bot.service.presenter import Listener
from bot.service.tables import TableService
from render.models import TableView


class DemoWatcher(Listener):
    """Calls ``progress(game, changes)`` after each change of the table; keeps the table as
    each game ended (``ended``) and queues the numbers of the games over (``games``)."""

    def __init__(self, progress: Callable[[int, int], None]) -> None:
        self.progress = progress
        self.service: TableService | None = None  # set once the service is made
        self.number = 1
        self.changes = 0
        self.ended: dict[int, TableView] = {}
        self.games: asyncio.Queue[int] = asyncio.Queue()

    def table_changed(self, live: LiveTable) -> None:
        self.changes += 1
        self.progress(self.number, self.changes)

    def announce(self, live: LiveTable, key: str, **params: Any) -> None:
        if key == "ev_next_game":
            self.number, self.changes = params["number"], 0
        elif key == "ev_game_over" and self.service is not None:
            self.ended[params["number"]] = self.service.views.public_view_locked(live).table
            self.games.put_nowait(params["number"])
