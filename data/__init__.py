"""Persistence for the Gouji bot: SQLite or PostgreSQL, event-sourced action logs, profiles.

The public surface: :class:`Store` and its dataclasses and errors, below. The schema and the
decisions behind it are in ``data/README.md``.
"""

from .actions import ActionShape, check_action
from .backend import DEFAULT_PATH, ENV_VAR, URL_ENV_VAR, database_url, default_path
from .claims import DEFAULT_LEASE, ClaimReport, Shards, shard_of
from .errors import (
    ActionConflictError,
    ChannelTakenError,
    ClaimLostError,
    ConstraintError,
    CorruptRowError,
    InvalidInputError,
    NotFoundError,
    StoreError,
)
from .models import (
    ActiveTable,
    BrokenTable,
    FinishedGame,
    Game,
    GameLog,
    GuildSettings,
    LoadReport,
    PlayerRating,
    Profile,
    ProfileUpdate,
    RatingChange,
    RebuildReport,
    Resume,
    Seat,
    Series,
    Table,
)
from .ratings import ai_player, user_player
from .schema import LATEST_VERSION
from .snapshots import ENGINE, SnapshotError
from .store import Store, open_store

__all__ = [
    "FinishedGame",
    "DEFAULT_LEASE",
    "DEFAULT_PATH",
    "ENGINE",
    "ENV_VAR",
    "LATEST_VERSION",
    "URL_ENV_VAR",
    "ActionShape",
    "ActionConflictError",
    "ActiveTable",
    "ChannelTakenError",
    "ClaimLostError",
    "ClaimReport",
    "ConstraintError",
    "BrokenTable",
    "CorruptRowError",
    "Game",
    "GameLog",
    "GuildSettings",
    "InvalidInputError",
    "LoadReport",
    "NotFoundError",
    "PlayerRating",
    "Profile",
    "ProfileUpdate",
    "RatingChange",
    "RebuildReport",
    "Resume",
    "Seat",
    "Series",
    "Shards",
    "SnapshotError",
    "Store",
    "StoreError",
    "Table",
    "ai_player",
    "check_action",
    "database_url",
    "default_path",
    "shard_of",
    "user_player",
    "open_store",
]
