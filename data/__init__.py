"""Persistence for the Gouji bot: one SQLite file, event-sourced action logs, profiles.

The public surface: :class:`Store` and its dataclasses and errors, below. The schema and the
decisions behind it are in ``data/README.md``.
"""

from .actions import Action, check_action
from .base import DEFAULT_PATH, ENV_VAR, default_path
from .errors import (
    ActionConflictError,
    CorruptRowError,
    InvalidInputError,
    NotFoundError,
    StoreError,
)
from .models import (
    ActiveTable,
    BrokenTable,
    Game,
    GameLog,
    GuildSettings,
    LoadReport,
    Profile,
    ProfileUpdate,
    Seat,
    Series,
    Table,
)
from .schema import LATEST_VERSION
from .store import Store

__all__ = [
    "DEFAULT_PATH",
    "ENV_VAR",
    "LATEST_VERSION",
    "Action",
    "ActionConflictError",
    "ActiveTable",
    "BrokenTable",
    "CorruptRowError",
    "Game",
    "GameLog",
    "GuildSettings",
    "InvalidInputError",
    "LoadReport",
    "NotFoundError",
    "Profile",
    "ProfileUpdate",
    "Seat",
    "Series",
    "Store",
    "StoreError",
    "Table",
    "check_action",
    "default_path",
]
