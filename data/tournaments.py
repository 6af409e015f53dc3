"""Tournaments (比赛): an event's rows — settings, entrants, each round's seating and each
table's results (schema version 9, docs/tournaments.md).

The event is data like a table: a process that starts (or takes over a crashed one's
servers) reads it back with :meth:`TournamentsMixin.load_tournament` and goes on. The writes
that matter twice are idempotent: :meth:`~TournamentsMixin.seat_tournament_round` keeps the
first plan of a round and :meth:`~TournamentsMixin.record_tournament_table` the first
result of a table (a second writer reads back what stands), so no game is counted twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.tournament import Config, Round, RoundPlan, SeatResult

from .base import StoreBase, fetch_all
from .claims import Shards
from .errors import InvalidInputError, NotFoundError
from .rows import decode_json, encode_json, encode_object

STATUSES = ("open", "running", "paused", "finished", "ended")
ACTIVE = ("open", "running", "paused")
TABLE_STATUSES = ("seated", "playing", "finished", "skipped")

_EVENT = "id, guild_id, channel_id, organiser_id, config, status, round, due_at, created_at"


@dataclass(frozen=True, slots=True)
class Tournament:
    """An event's row: ``round`` is the round it is at (0 before the first), ``due_at``
    when its next step is due at the latest (None: nothing pending)."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    config: Config
    status: str
    round: int
    due_at: float | None
    created_at: float

    @property
    def active(self) -> bool:
        return self.status in ACTIVE


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of an event: ``left_after`` the rounds they were seated for before they
    left (None: still in)."""

    user_id: int
    joined_at: float
    left_after: int | None


@dataclass(frozen=True, slots=True)
class EventTable:
    """One table of a round: the game table it plays at, its status and its results."""

    round: int
    number: int
    table_id: int | None
    status: str
    result: tuple[SeatResult, ...] | None
    updated_at: float


@dataclass(frozen=True, slots=True)
class TournamentState:
    """Everything of an event, as stored: rebuild its standings with
    ``engine.tournament.standings(t.config, entrants, rounds, left)``."""

    tournament: Tournament
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...]
    tables: tuple[EventTable, ...]

    @property
    def players(self) -> list[int]:
        """Every entrant, in the order they joined."""
        return [e.user_id for e in self.entrants]

    @property
    def left(self) -> dict[int, int]:
        return {e.user_id: e.left_after for e in self.entrants if e.left_after is not None}


def _event(row: Sequence[Any]) -> Tournament:
    config = Config.from_json(decode_json(row[4], f"tournament {row[0]} config", dict))
    due = None if row[7] is None else float(row[7])
    return Tournament(
        int(row[0]), int(row[1]), int(row[2]), int(row[3]), config, str(row[5]), int(row[6]), due,
        float(row[8]),
    )  # fmt: skip


def _results(text: Any, what: str) -> tuple[SeatResult, ...] | None:
    data = decode_json(text, what, list, nullable=True)
    return None if data is None else tuple(SeatResult.from_json(r) for r in data)


class TournamentsMixin(StoreBase):
    """Creating, entering, seating and scoring tournaments."""

    async def create_tournament(
        self, guild_id: int, channel_id: int, organiser_id: int, config: Config
    ) -> Tournament:
        """A new event, open for entries."""
        now = self._now()
        text = encode_object(config.to_json(), "tournament config")
        rows = await self._fetch(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, config, status, "
            f"created_at, updated_at) VALUES (?, ?, ?, ?, 'open', ?, ?) RETURNING {_EVENT}",
            (guild_id, channel_id, organiser_id, text, now, now),
        )
        return _event(rows[0])

    async def get_tournament(self, tournament_id: int) -> Tournament:
        rows = await self._fetch(f"SELECT {_EVENT} FROM tournaments WHERE id = ?", (tournament_id,))
        if not rows:
            raise NotFoundError(f"there is no tournament {tournament_id}")
        return _event(rows[0])

    async def guild_tournaments(self, guild_id: int, *, active: bool = False) -> list[Tournament]:
        """The server's events, newest first (``active``: those not over)."""
        where = " AND status IN ('open', 'running', 'paused')" if active else ""
        rows = await self._fetch(
            f"SELECT {_EVENT} FROM tournaments WHERE guild_id = ?{where} ORDER BY id DESC",
            (guild_id,),
        )
        return [_event(r) for r in rows]

    async def running_tournaments(self, *, shards: Shards | None = None) -> list[Tournament]:
        """Events running or paused (on these shards' servers): what a process resumes."""
        where, params = shards.sql() if shards is not None else ("1 = 1", ())
        rows = await self._fetch(
            f"SELECT {_EVENT} FROM tournaments WHERE status IN ('running', 'paused') "
            f"AND {where} ORDER BY id",
            params,
        )
        return [_event(r) for r in rows]

    async def set_tournament_status(
        self, tournament_id: int, status: str, *, due_at: float | None = None
    ) -> None:
        """Set an event's status (``finished``/``ended`` clear ``due_at``)."""
        if status not in STATUSES:
            raise InvalidInputError(f"a tournament's status is one of {STATUSES}, not {status!r}")
        await self._change(
            "UPDATE tournaments SET status = ?, due_at = ?, updated_at = ? WHERE id = ?",
            (status, due_at, self._now(), tournament_id),
            tournament_id,
        )

    async def set_tournament_due(self, tournament_id: int, due_at: float | None) -> None:
        await self._change(
            "UPDATE tournaments SET due_at = ?, updated_at = ? WHERE id = ?",
            (due_at, self._now(), tournament_id),
            tournament_id,
        )

    async def _change(self, sql: str, params: tuple[Any, ...], tournament_id: int) -> None:
        if not await self._run(sql, params):
            raise NotFoundError(f"there is no tournament {tournament_id}")

    async def join_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Enter a player (while it is open); False if they already had."""
        async with self._transaction() as conn:
            await self._open_event(conn, tournament_id)
            return bool(
                await conn.execute(
                    "INSERT INTO tournament_players (tournament_id, user_id, joined_at) "
                    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (tournament_id, user_id, self._now()),
                )
            )

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """A player leaves: before the start their entry goes; once it runs they are out
        after the rounds they were seated for. False if they were not in."""
        async with self._transaction() as conn:
            rows = await fetch_all(
                conn, "SELECT status FROM tournaments WHERE id = ?", (tournament_id,)
            )
            if not rows:
                raise NotFoundError(f"there is no tournament {tournament_id}")
            if rows[0][0] == "open":
                return bool(
                    await conn.execute(
                        "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                        (tournament_id, user_id),
                    )
                )
            seated = await fetch_all(
                conn,
                "SELECT count(*) FROM tournament_rounds WHERE tournament_id = ?",
                (tournament_id,),
            )
            return bool(
                await conn.execute(
                    "UPDATE tournament_players SET left_after = ? "
                    "WHERE tournament_id = ? AND user_id = ? AND left_after IS NULL",
                    (int(seated[0][0]), tournament_id, user_id),
                )
            )

    async def _open_event(self, conn: Any, tournament_id: int) -> None:
        rows = await fetch_all(
            conn, "SELECT status FROM tournaments WHERE id = ?", (tournament_id,)
        )
        if not rows:
            raise NotFoundError(f"there is no tournament {tournament_id}")
        if rows[0][0] != "open":
            raise InvalidInputError(f"tournament {tournament_id} is {rows[0][0]}, not open")

    async def seat_tournament_round(
        self, tournament_id: int, plan: RoundPlan, *, due_at: float | None = None
    ) -> RoundPlan:
        """Seat a round, once: the plan, its tables (``seated``), the event at this round
        and running. A round already seated keeps its plan, which is returned."""
        now = self._now()
        text = encode_json(plan.to_json(), "round plan")
        async with self._transaction() as conn:
            # the event's row first: a second writer (PostgreSQL) waits, then reads the plan
            await conn.execute(
                "UPDATE tournaments SET updated_at = updated_at WHERE id = ?", (tournament_id,)
            )
            rows = await fetch_all(
                conn,
                "SELECT plan FROM tournament_rounds WHERE tournament_id = ? AND number = ?",
                (tournament_id, plan.number),
            )
            if rows:
                what = f"tournament {tournament_id} round {plan.number}"
                return RoundPlan.from_json(decode_json(rows[0][0], what, dict))
            await conn.execute(
                "INSERT INTO tournament_rounds (tournament_id, number, plan, seated_at) "
                "VALUES (?, ?, ?, ?)",
                (tournament_id, plan.number, text, now),
            )
            await conn.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, updated_at) "
                "VALUES (?, ?, ?, ?)",
                [(tournament_id, plan.number, t.number, now) for t in plan.tables],
            )
            await conn.execute(
                "UPDATE tournaments SET round = ?, status = 'running', due_at = ?, "
                "updated_at = ? WHERE id = ?",
                (plan.number, due_at, now, tournament_id),
            )
        return plan

    async def set_tournament_table(
        self, tournament_id: int, round_number: int, number: int, *, table_id: int | None,
        status: str,
    ) -> None:  # fmt: skip
        """Which game table a round's table plays at, and its status (not ``finished``:
        :meth:`record_tournament_table` finishes it)."""
        if status not in TABLE_STATUSES or status == "finished":
            raise InvalidInputError(f"cannot set a tournament table {status!r}")
        changed = await self._run(
            "UPDATE tournament_tables SET table_id = ?, status = ?, updated_at = ? "
            "WHERE tournament_id = ? AND round = ? AND number = ? AND result IS NULL",
            (table_id, status, self._now(), tournament_id, round_number, number),
        )
        if not changed:
            raise NotFoundError(f"no open table {number} in round {round_number}")

    async def record_tournament_table(
        self,
        tournament_id: int,
        round_number: int,
        number: int,
        results: Sequence[SeatResult],
        *,
        next_due: float | None = None,
    ) -> bool:
        """A round's table finished with these results: True if recorded now, False if
        it had its results already (they stay as they were). When it is the round's last
        table, the event's ``due_at`` becomes ``next_due`` (when the next round is seated)
        in the same transaction (None: at once): a crash cannot leave the round's show-up
        deadline standing in its place."""
        text = encode_json([r.to_json() for r in results], "table results")
        async with self._transaction() as conn:
            # the event's row first: a second writer (PostgreSQL) waits, then sees this table
            await conn.execute(
                "UPDATE tournaments SET updated_at = updated_at WHERE id = ?", (tournament_id,)
            )
            recorded = await conn.execute(
                "UPDATE tournament_tables SET status = 'finished', result = ?, updated_at = ? "
                "WHERE tournament_id = ? AND round = ? AND number = ? AND result IS NULL",
                (text, self._now(), tournament_id, round_number, number),
            )
            if recorded:
                await conn.execute(
                    "UPDATE tournaments SET due_at = ?, updated_at = ? WHERE id = ? AND NOT "
                    "EXISTS (SELECT 1 FROM tournament_tables WHERE tournament_id = ? "
                    "AND round = ? AND result IS NULL)",
                    (next_due, self._now(), tournament_id, tournament_id, round_number),
                )
        return bool(recorded)

    async def tournament_of_table(self, table_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, table number) of the event table a game table plays, None
        for a table of no event."""
        rows = await self._fetch(
            "SELECT tournament_id, round, number FROM tournament_tables WHERE table_id = ?",
            (table_id,),
        )
        return (int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else None

    async def load_tournament(self, tournament_id: int) -> TournamentState:
        """The whole event, read in one transaction."""
        async with self._transaction() as conn:
            rows = await fetch_all(
                conn, f"SELECT {_EVENT} FROM tournaments WHERE id = ?", (tournament_id,)
            )
            if not rows:
                raise NotFoundError(f"there is no tournament {tournament_id}")
            people = await fetch_all(
                conn,
                "SELECT user_id, joined_at, left_after FROM tournament_players "
                "WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            )
            plans = await fetch_all(
                conn,
                "SELECT number, plan FROM tournament_rounds WHERE tournament_id = ? "
                "ORDER BY number",
                (tournament_id,),
            )
            tables = await fetch_all(
                conn,
                "SELECT round, number, table_id, status, result, updated_at FROM tournament_tables "
                "WHERE tournament_id = ? ORDER BY round, number",
                (tournament_id,),
            )
        what = f"tournament {tournament_id}"
        event_tables = tuple(
            EventTable(
                int(r[0]),
                int(r[1]),
                None if r[2] is None else int(r[2]),
                str(r[3]),
                _results(r[4], f"{what} round {r[0]} table {r[1]} result"),
                float(r[5]),
            )  # fmt: skip
            for r in tables
        )
        rounds = []
        for number, plan in plans:
            results = {
                t.number: t.result
                for t in event_tables
                if t.round == number and t.result is not None
            }
            rounds.append(
                Round(
                    RoundPlan.from_json(decode_json(plan, f"{what} round {number}", dict)), results
                )
            )
        return TournamentState(
            _event(rows[0]),
            tuple(
                Entrant(int(p[0]), float(p[1]), None if p[2] is None else int(p[2])) for p in people
            ),
            tuple(rounds),
            event_tables,
        )

    async def table_outcome(self, table_id: int) -> dict[int, SeatResult] | None:
        """What each person took from the latest series of a game table once it is played
        out (None before: no series, or one still playing; an abandoned one: ``{}``): the
        sum of their games' scores (``game_results``: the team's points plus their own
        penalties), their places in game order, and whether they left a game. A person
        with no game there has no entry."""
        async with self._transaction() as conn:
            series = await fetch_all(
                conn,
                "SELECT id, status FROM series WHERE table_id = ? ORDER BY number DESC LIMIT 1",
                (table_id,),
            )
            if not series or series[0][1] == "playing":
                return None
            if series[0][1] != "finished":
                return {}
            rows = await fetch_all(
                conn,
                "SELECT r.game_id, r.updates FROM game_results AS r "
                "JOIN games AS g ON g.id = r.game_id WHERE g.series_id = ? "
                "ORDER BY g.number, g.deal",
                (series[0][0],),
            )
        out: dict[int, SeatResult] = {}
        for game_id, text in rows:
            for u in decode_json(text, f"game {game_id} profile updates", list):
                user, before = int(u["user_id"]), out.get(int(u["user_id"]))
                places = () if u.get("place") is None else (int(u["place"]),)
                if before is None:
                    before = SeatResult(user, 0)
                out[user] = SeatResult(
                    user,
                    before.points + int(u["score_delta"]),
                    before.places + places,
                    left=before.left or int(u.get("leaves", 0)) > 0,
                )
        return out
