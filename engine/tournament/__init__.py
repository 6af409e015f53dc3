"""Tournaments (比赛): the model, the standings and the seating — pure and deterministic,
like the rest of the engine (docs/tournaments.md)."""

from .model import (
    SEATS,
    Config,
    ConfigError,
    Format,
    Round,
    RoundPlan,
    SeatResult,
    TablePlan,
    absent_result,
    check_round,
)
from .seating import History, seat_round
from .standings import IN, LEFT, OUT, Standing, standings

__all__ = [
    "IN",
    "LEFT",
    "OUT",
    "SEATS",
    "Config",
    "ConfigError",
    "Format",
    "History",
    "Round",
    "RoundPlan",
    "SeatResult",
    "Standing",
    "TablePlan",
    "absent_result",
    "check_round",
    "seat_round",
    "standings",
]
