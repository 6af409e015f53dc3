"""Tables and their six seats."""

from __future__ import annotations

import math
from typing import Any

from .base import TABLE, StoreBase, fetch_all, not_owned
from .claims import incarnation_of
from .errors import ChannelTakenError, ConstraintError, InvalidInputError, NotFoundError
from .models import AI_KINDS, Seat, Table
from .rows import (
    SEAT_COLUMNS,
    TABLE_COLUMNS,
    encode_object,
    qualified,
    seat_from_row,
    table_from_row,
)

#: Statuses a caller may set directly; ``broken`` goes through :meth:`mark_broken`.
SETTABLE_STATUSES = ("lobby", "playing", "finished", "ended")


def check_seat(seat: int) -> None:
    """:class:`InvalidInputError` unless ``seat`` is 0–5."""
    if type(seat) is not int or not 0 <= seat <= 5:
        raise InvalidInputError(f"seat must be 0 to 5, not {seat!r}")


class TablesMixin(StoreBase):
    """Creating tables, changing their state, and who sits where."""

    async def create_table(
        self, guild_id: int, channel_id: int, creator_id: int, options: dict[str, Any]
    ) -> Table:
        """A new table in the lobby, with six empty seats (claimed for the owner the store
        acts for, if any)."""
        text = encode_object(options, "table options")
        now = self._now()
        try:
            async with self._transaction() as conn:
                until = None if self._owner is None else now + self._lease
                instance, epoch = (
                    (None, None) if self._owner is None else incarnation_of(self._owner)
                )
                rows = await fetch_all(
                    conn,
                    "INSERT INTO tables (guild_id, channel_id, creator_id, options, status, "
                    "created_at, updated_at, owner, owner_until, owner_instance, owner_epoch) "
                    f"VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING {TABLE_COLUMNS}",
                    (guild_id, channel_id, creator_id, text, now, now, self._owner, until)
                    + (instance, epoch),
                )
                await conn.executemany(
                    "INSERT INTO seats (table_id, seat) VALUES (?, ?)",
                    [(rows[0][0], s) for s in range(6)],
                )
        except ConstraintError as exc:
            raise _channel_taken(channel_id) from exc
        return table_from_row(rows[0])

    async def get_table(self, table_id: int) -> Table:
        """The table, or :class:`NotFoundError`."""
        rows = await self._fetch(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        if not rows:
            raise NotFoundError(f"there is no table {table_id}")
        return table_from_row(rows[0])

    async def tables_in_channel(
        self, guild_id: int, channel_id: int, *, active_only: bool = True
    ) -> list[Table]:
        """The channel's tables, oldest first; only lobby and playing ones by default."""
        where = "t.guild_id = ? AND t.channel_id = ?"
        return await self._select_tables(where, (guild_id, channel_id), active_only)

    async def _select_tables(
        self, where: str, params: tuple[Any, ...], active_only: bool
    ) -> list[Table]:
        # ``where`` is fixed text from this module; values go through parameters.
        if active_only:
            where += " AND t.status IN ('lobby', 'playing')"
        rows = await self._fetch(
            f"SELECT {qualified(TABLE_COLUMNS, 't')} FROM tables AS t WHERE {where} ORDER BY t.id",
            params,
        )
        return [table_from_row(row) for row in rows]

    async def set_table_status(self, table_id: int, status: str) -> None:
        """Move a table to lobby, playing, finished or ended (also out of broken)."""
        if status not in SETTABLE_STATUSES:
            raise InvalidInputError(
                f"table status must be one of {', '.join(SETTABLE_STATUSES)}, not {status!r}"
                + (" (use mark_broken)" if status == "broken" else "")
            )
        try:
            await self._update_table(table_id, "status = ?, broken_reason = NULL", (status,))
        except ConstraintError as exc:  # back to lobby or playing beside another active table
            raise _channel_taken(None) from exc

    async def mark_broken(self, table_id: int, reason: str) -> None:
        """Set a table aside as broken (its log cannot be replayed), with the reason (for
        the log and the operator: it may quote the engine, hands included)."""
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidInputError("a broken table needs a reason in words")
        await self._update_table(table_id, "status = 'broken', broken_reason = ?", (reason,))

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the Discord message that shows the table."""
        await self._update_table(table_id, "message_id = ?", (message_id,))

    async def set_turn_deadline(self, table_id: int, deadline: float | None) -> None:
        """Set (unix time) or clear (None) the deadline of the turn now running."""
        if deadline is not None and (
            not isinstance(deadline, int | float) or not math.isfinite(deadline)
        ):
            raise InvalidInputError(f"a turn deadline is a unix time or None, not {deadline!r}")
        value = None if deadline is None else float(deadline)
        await self._update_table(table_id, "turn_deadline = ?", (value,))

    async def _update_table(self, table_id: int, assignments: str, params: tuple[Any, ...]) -> None:
        """``UPDATE tables SET assignments`` (and ``updated_at``) on one table, in one
        statement that is also the owner's fence (:meth:`_owned`): it changes the row only
        while the owner the store acts for holds it — atomically, as PostgreSQL re-reads the
        row's owner after a concurrent claim commits — and else raises as ``_owned`` does.
        One round trip where a fenced transaction takes four (every turn sets its deadline).
        ``assignments`` is fixed text from this module; values go through parameters."""
        owner = self._owner
        async with self._locked() as conn:
            if await conn.execute(
                f"UPDATE tables SET {assignments}, updated_at = ? WHERE id = ? "
                "AND (CAST(? AS TEXT) IS NULL OR owner = ?)",
                (*params, self._now(), table_id, owner, owner),
            ):
                return
            raise await not_owned(conn, owner, TABLE, table_id, f"table {table_id}")

    # --- seats ------------------------------------------------------------------------

    async def get_seats(self, table_id: int) -> list[Seat]:
        """The table's six seats, 0 to 5."""
        rows = await self._fetch(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        if not rows:
            raise NotFoundError(f"there is no table {table_id}")
        return [seat_from_row(row) for row in rows]

    async def set_seat(
        self,
        table_id: int,
        seat: int,
        *,
        user_id: int | None = None,
        ai_kind: str | None = None,
        standin: bool = False,
    ) -> Seat:
        """Put a user, an AI (``user_id`` None) or nobody (both None) in a seat; resets its
        timeouts and DM flag. A user may hold one seat per table."""
        check_seat(seat)
        if ai_kind is not None and ai_kind not in AI_KINDS:
            raise InvalidInputError(
                f"AI kind must be one of {', '.join(AI_KINDS)}, not {ai_kind!r}"
            )
        if standin and (user_id is None or ai_kind is None):
            raise InvalidInputError(
                "an AI can stand in (托管) only for a seated user: give user_id and ai_kind"
            )
        try:
            await self._update_seat(
                table_id,
                seat,
                "user_id = ?, ai_kind = ?, standin = ?, timeouts = 0, dm_refused = 0",
                (user_id, ai_kind, int(standin)),
            )
        except ConstraintError as exc:
            raise InvalidInputError(
                f"user {user_id} already sits at table {table_id}: free that seat first"
            ) from exc
        return (await self.get_seats(table_id))[seat]

    async def set_standin(
        self, table_id: int, seat: int, standin: bool, ai_kind: str = "strong"
    ) -> None:
        """Let an AI of ``ai_kind`` play for the seated user (托管), or give the seat back
        (the AI kind is kept for next time)."""
        check_seat(seat)
        if ai_kind not in AI_KINDS:
            raise InvalidInputError(
                f"AI kind must be one of {', '.join(AI_KINDS)}, not {ai_kind!r}"
            )
        async with self._owned(TABLE, table_id, f"table {table_id}") as conn:
            rows = await fetch_all(
                conn, "SELECT user_id FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            )
            if not rows:
                raise NotFoundError(f"there is no table {table_id}")
            if rows[0][0] is None:
                raise InvalidInputError(
                    f"seat {seat} of table {table_id} has no user to stand in for"
                )
            await conn.execute(
                "UPDATE seats SET standin = ?, ai_kind = CASE WHEN ? = 1 THEN ? ELSE ai_kind END "
                "WHERE table_id = ? AND seat = ?",
                (int(standin), int(standin), ai_kind, table_id, seat),
            )

    async def add_timeout(self, table_id: int, seat: int) -> int:
        """Count one more turn timed out in a row; returns the new count."""
        check_seat(seat)
        async with self._owned(TABLE, table_id, f"table {table_id}") as conn:
            rows = await conn.fetch(
                "UPDATE seats SET timeouts = timeouts + 1 WHERE table_id = ? AND seat = ? "
                "RETURNING timeouts",
                (table_id, seat),
            )
        if not rows:
            raise NotFoundError(f"there is no table {table_id}")
        return int(rows[0][0])

    async def reset_timeouts(self, table_id: int, seat: int) -> None:
        """The player acted: their timeouts in a row start again from 0."""
        await self._update_seat(table_id, seat, "timeouts = 0", ())

    async def set_dm_refused(self, table_id: int, seat: int, refused: bool) -> None:
        """Remember whether the seat's player refuses DMs from the bot."""
        await self._update_seat(table_id, seat, "dm_refused = ?", (int(refused),))

    async def _update_seat(
        self, table_id: int, seat: int, assignments: str, params: tuple[Any, ...]
    ) -> None:
        check_seat(seat)
        async with self._owned(TABLE, table_id, f"table {table_id}") as conn:
            count = await conn.execute(
                f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                (*params, table_id, seat),
            )
        if not count:
            raise NotFoundError(f"there is no table {table_id}")


def _channel_taken(channel_id: int | None) -> ChannelTakenError:
    where = "the channel" if channel_id is None else f"channel {channel_id}"
    return ChannelTakenError(
        f"{where} already has an active table (lobby or playing): one table per channel, "
        "end that one first"
    )
