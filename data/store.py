"""The store: one SQLite file through aiosqlite, in WAL mode with synchronous=FULL.

    async with await Store.open("gouji.db") as store:
        table = await store.create_table(guild_id, channel_id, user_id, {"bie_san": False})
        ...

Every method is safe to call from many asyncio tasks at once: one connection, and a lock
that keeps each transaction whole. Errors are :class:`~data.errors.StoreError` subclasses.
"""

from __future__ import annotations

from .export import ExportMixin
from .games import GamesMixin
from .loading import LoadingMixin
from .profiles import ProfilesMixin
from .settings import SettingsMixin
from .tables import TablesMixin


class Store(SettingsMixin, TablesMixin, GamesMixin, ProfilesMixin, LoadingMixin, ExportMixin):
    """The bot's persistence: settings, tables, seats, series, deals and their action logs,
    profiles. Open with ``await Store.open(path)``; close with ``await store.close()`` or
    use it as an async context manager."""
