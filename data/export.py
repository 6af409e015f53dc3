"""Records out of the store: ``gouji-series/1`` and ``gouji-record/1`` (docs/record.md).

Void deals: a deal voided by two revolts stays in the series record as a game entry of its
own, followed by the redeal. Its actions end with the revolts that voided it, so the
record replays the series exactly as it was played.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from engine.actions import Verb
from engine.record import GAME_FORMAT, SERIES_FORMAT

from .actions import check_hands
from .backend import Conn
from .base import StoreBase, fetch_all
from .errors import InvalidInputError, NotFoundError
from .loading import game_logs
from .models import GameLog, Series
from .rows import GAME_COLUMNS, SERIES_COLUMNS, series_from_row


def split_returns(actions: Sequence[str]) -> tuple[list[str], list[str]]:
    """(tribute returns, the other actions), each in log order."""
    returns: list[str] = []
    others: list[str] = []
    for action in actions:
        (returns if action.split(" ", 2)[1] == Verb.RETURN else others).append(action)
    return returns, others


def series_game_entry(log: GameLog) -> dict[str, Any]:
    """One game of a series record: hands as dealt, seed, returns (if any), actions."""
    returns, actions = split_returns(log.actions)
    entry: dict[str, Any] = {"hands": list(log.game.hands), "seed": log.game.seed}
    if returns:
        entry["returns"] = returns
    entry["actions"] = actions
    return entry


class ExportMixin(StoreBase):
    """Series and game records."""

    async def _series_logs(self, conn: Conn, series_id: int) -> tuple[Series, tuple[GameLog, ...]]:
        rows = await fetch_all(
            conn, f"SELECT {SERIES_COLUMNS} FROM series WHERE id = ?", (series_id,)
        )
        if not rows:
            raise NotFoundError(f"there is no series {series_id}")
        games = await fetch_all(
            conn,
            f"SELECT {GAME_COLUMNS} FROM games WHERE series_id = ? ORDER BY number, deal",
            (series_id,),
        )
        actions: dict[int, list[Any]] = defaultdict(list)
        for game_id, idx, text in await fetch_all(
            conn,
            "SELECT a.game_id, a.idx, a.action FROM actions AS a JOIN games AS g ON g.id = a.game_id "
            "WHERE g.series_id = ? ORDER BY a.game_id, a.idx",
            (series_id,),
        ):
            actions[game_id].append((idx, text))
        return series_from_row(rows[0]), game_logs(games, actions)

    async def series_logs(self, series_id: int) -> tuple[Series, tuple[GameLog, ...]]:
        """A series and every deal of it with its actions (void deals included)."""
        async with self._transaction() as conn:
            return await self._series_logs(conn, series_id)

    async def export_series_record(self, series_id: int) -> dict[str, Any]:
        """The series as a ``gouji-series/1`` record: per game the hands as dealt, the
        seed, the tribute returns and the actions (pre-play verbs first)."""
        series, logs = await self.series_logs(series_id)
        return {
            "format": SERIES_FORMAT,
            "options": series.options,
            "games": [series_game_entry(log) for log in logs],
        }

    async def export_game_record(
        self, game_id: int, hands: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """One deal as a ``gouji-record/1`` real-game record: hands with suits, ``seed``,
        no ``leader``, the pre-play verbs at the head of the actions.

        A deal that began with tribute no longer starts from its hands as dealt: pass
        ``hands``, the hands after tribute and returns (the engine knows them), or export
        the whole series instead."""
        async with self._transaction() as conn:
            rows = await fetch_all(conn, "SELECT series_id FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise NotFoundError(f"there is no game {game_id}")
            series, logs = await self._series_logs(conn, rows[0][0])
        index = next(i for i, log in enumerate(logs) if log.game.id == game_id)
        log = logs[index]
        returns, actions = split_returns(log.actions)
        if hands is None:
            if returns or _tribute_owed(logs[:index], log):
                raise InvalidInputError(
                    f"game {game_id} is game {log.game.number} of its series and began with "
                    "tribute, so its hands as dealt are not where play started: pass hands= "
                    "(after tribute and returns), or use export_series_record"
                )
            hands = log.game.hands
        hands = check_hands(list(hands))
        return {
            "format": GAME_FORMAT,
            "options": series.options,
            "hands": list(hands),
            "seed": log.game.seed,
            "actions": actions,
        }


def _tribute_owed(earlier: Sequence[GameLog], log: GameLog) -> bool:
    """Whether tribute may have been paid before this deal: the last finished game before
    it owes some (or does not say)."""
    finished = [
        e for e in earlier if e.game.status == "finished" and e.game.number < log.game.number
    ]
    if not finished:
        return False
    result = finished[-1].game.result or {}
    return result.get("tribute") != []
