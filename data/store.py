"""The store: one SQLite file (aiosqlite, WAL, synchronous=FULL) or one PostgreSQL schema
(asyncpg, synchronous_commit=on), chosen by the URL (:mod:`data.backend`).

    async with await Store.open("gouji.db") as store:   # or open_store("postgresql://…")
        table = await store.create_table(guild_id, channel_id, user_id, {"bie_san": False})
        ...

Every method is safe to call from many asyncio tasks at once: one connection, and a lock
that keeps each transaction whole. Errors are :class:`~data.errors.StoreError` subclasses.
"""

from __future__ import annotations

from .claims import ClaimsMixin
from .export import ExportMixin
from .games import GamesMixin
from .loading import LoadingMixin
from .profiles import ProfilesMixin
from .ratings import RatingsMixin
from .seasons import SeasonsMixin
from .settings import SettingsMixin
from .snapshots import SnapshotsMixin
from .tables import TablesMixin
from .tournaments import TournamentsMixin


class Store(
    SettingsMixin,
    TablesMixin,
    GamesMixin,
    ProfilesMixin,
    RatingsMixin,
    LoadingMixin,
    SnapshotsMixin,
    ExportMixin,
    ClaimsMixin,
    TournamentsMixin,
    SeasonsMixin,
):
    """The bot's persistence: settings, tables, seats, series, deals and their action logs,
    snapshots, profiles and ratings. Open with ``await Store.open(path_or_url)``; close with ``await store.close()``
    or use it as an async context manager."""


async def open_store(url: str | None = None) -> Store:
    """Open the store at ``url`` (``sqlite:///PATH``, ``postgresql://…`` or a SQLite path);
    None: ``$GOUJI_DATABASE_URL``, else ``$GOUJI_DB``, else ``gouji.db``."""
    return await Store.open(url)
