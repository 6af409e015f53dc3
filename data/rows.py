"""Between rows and dataclasses: the column lists, JSON in and out, and decoding that
checks every value, raising :class:`CorruptRowError` with what is wrong and where."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from .actions import check_action, check_hands
from .errors import CorruptRowError, InvalidInputError
from .models import AI_KINDS, Game, Profile, Seat, Series, Table

TABLE_COLUMNS = (
    "id, guild_id, channel_id, creator_id, options, status, broken_reason, message_id, "
    "turn_deadline, created_at, updated_at, owner, owner_until"
)
SEAT_COLUMNS = "table_id, seat, user_id, ai_kind, standin, timeouts, dm_refused"
SERIES_COLUMNS = "id, table_id, number, options, status, totals, created_at, updated_at"
GAME_COLUMNS = "id, series_id, number, deal, seed, hands, status, result, created_at, updated_at"
PROFILE_COLUMNS = (
    "guild_id, user_id, score, games, place_1, place_2, place_3, place_4, place_5, place_6, "
    "opens, burns, stifles, leaves"
)


def qualified(columns: str, alias: str) -> str:
    """A column list with a table alias: ``qualified("id, seed", "g")`` → ``"g.id, g.seed"``."""
    return ", ".join(f"{alias}.{name.strip()}" for name in columns.split(","))


def encode_json(value: Any, what: str) -> str:
    """Compact JSON text of ``value``; :class:`InvalidInputError` if it has none."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} must be plain JSON data: {exc}") from None


def encode_object(value: Any, what: str) -> str:
    """JSON text of a dict with string keys (options, results)."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise InvalidInputError(f"{what} must be a dict with string keys, not {value!r}")
    return encode_json(value, what)


def decode_json(text: Any, what: str, kind: type, *, nullable: bool = False) -> Any:
    """Decode stored JSON text that must hold a ``kind`` (dict or list)."""
    if text is None:
        if nullable:
            return None
        raise CorruptRowError(f"{what} is NULL")
    if not isinstance(text, str):
        raise CorruptRowError(f"{what} is not JSON text: {text!r}")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise CorruptRowError(f"{what} is not valid JSON ({exc}): {text[:60]!r}") from None
    if value is None:
        if nullable:
            return None
        raise CorruptRowError(f"{what} is NULL (JSON null)")
    if not isinstance(value, kind):
        raise CorruptRowError(f"{what} should be a JSON {kind.__name__}, not {value!r:.60}")
    return value


def _int(value: Any, what: str, *, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptRowError(f"{what} should be an integer, not {value!r}")
    return value


def _time(value: Any, what: str, *, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if not isinstance(value, int | float) or not math.isfinite(value):
        raise CorruptRowError(f"{what} should be a unix time, not {value!r}")
    return float(value)


def _text(value: Any, what: str, *, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        raise CorruptRowError(f"{what} should be text, not {value!r}")
    return value


def _choice(value: Any, what: str, choices: Sequence[object], *, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if value not in choices:
        raise CorruptRowError(f"{what} is {value!r}, not one of {', '.join(map(str, choices))}")
    return value


def table_from_row(row: Sequence[Any]) -> Table:
    """Decode a row of :data:`TABLE_COLUMNS`."""
    tid = _int(row[0], "table id")
    name = f"table {tid}"
    return Table(
        id=tid,
        guild_id=_int(row[1], f"{name} guild id"),
        channel_id=_int(row[2], f"{name} channel id"),
        creator_id=_int(row[3], f"{name} creator id"),
        options=decode_json(row[4], f"{name} options", dict),
        status=_choice(
            row[5], f"{name} status", ("lobby", "playing", "finished", "ended", "broken")
        ),
        broken_reason=row[6],
        message_id=_int(row[7], f"{name} message id", nullable=True),
        turn_deadline=_time(row[8], f"{name} turn deadline", nullable=True),
        created_at=_time(row[9], f"{name} created time"),
        updated_at=_time(row[10], f"{name} updated time"),
        owner=_text(row[11], f"{name} owner", nullable=True),
        owner_until=_time(row[12], f"{name} claim end", nullable=True),
    )


def seat_from_row(row: Sequence[Any]) -> Seat:
    """Decode a row of :data:`SEAT_COLUMNS`."""
    name = f"seat {row[1]!r}"
    return Seat(
        table_id=_int(row[0], f"{name} table id"),
        seat=_choice(row[1], "seat number", tuple(range(6))),
        user_id=_int(row[2], f"{name} user id", nullable=True),
        ai_kind=_choice(row[3], f"{name} AI kind", AI_KINDS, nullable=True),
        standin=bool(_int(row[4], f"{name} stand-in flag")),
        timeouts=_int(row[5], f"{name} timeouts"),
        dm_refused=bool(_int(row[6], f"{name} DM-refused flag")),
    )


def series_from_row(row: Sequence[Any]) -> Series:
    """Decode a row of :data:`SERIES_COLUMNS`."""
    sid = _int(row[0], "series id")
    name = f"series {sid}"
    totals = decode_json(row[5], f"{name} totals", list, nullable=True)
    if totals is not None and (len(totals) != 6 or not all(type(t) is int for t in totals)):
        raise CorruptRowError(f"{name} totals should be six integers, not {totals!r}")
    return Series(
        id=sid,
        table_id=_int(row[1], f"{name} table id"),
        number=_int(row[2], f"{name} number"),
        options=decode_json(row[3], f"{name} options", dict),
        status=_choice(row[4], f"{name} status", ("playing", "finished", "abandoned")),
        totals=totals,
        created_at=_time(row[6], f"{name} created time"),
        updated_at=_time(row[7], f"{name} updated time"),
    )


def game_from_row(row: Sequence[Any]) -> Game:
    """Decode a row of :data:`GAME_COLUMNS`, checking the hands are card notation."""
    gid = _int(row[0], "game id")
    name = f"game {gid}"
    hands = decode_json(row[5], f"{name} hands", list)
    try:
        hands = check_hands(hands)
    except InvalidInputError as exc:
        raise CorruptRowError(f"{name} {exc}") from None
    return Game(
        id=gid,
        series_id=_int(row[1], f"{name} series id"),
        number=_int(row[2], f"{name} number"),
        deal=_int(row[3], f"{name} deal"),
        seed=_int(row[4], f"{name} seed"),
        hands=hands,
        status=_choice(row[6], f"{name} status", ("playing", "finished", "void", "abandoned")),
        result=decode_json(row[7], f"{name} result", dict, nullable=True),
        created_at=_time(row[8], f"{name} created time"),
        updated_at=_time(row[9], f"{name} updated time"),
    )


def profile_from_row(row: Sequence[Any]) -> Profile:
    """Decode a row of :data:`PROFILE_COLUMNS`."""
    return Profile(
        guild_id=row[0],
        user_id=row[1],
        score=row[2],
        games=row[3],
        places=tuple(row[4:10]),
        opens=row[10],
        burns=row[11],
        stifles=row[12],
        leaves=row[13],
    )


def actions_from_rows(
    game_id: int, rows: Sequence[Sequence[Any]], start: int = 0
) -> tuple[str, ...]:
    """The action texts of one game from its ``(idx, action)`` rows in index order,
    checking the indexes run ``start``, ``start`` + 1 … (0, 1, 2 … for a whole log) and
    every action has the ``SEAT VERB [CARDS]`` shape."""
    actions = []
    for expected, (idx, text) in enumerate(rows, start=start):
        if idx != expected:
            where = (
                f"jumps from {expected - 1} to {idx!r}"
                if expected > start
                else f"starts at {idx!r}"
            )
            raise CorruptRowError(
                f"game {game_id}: action {expected} is missing from the log (it {where})"
            )
        try:
            check_action(text)
        except InvalidInputError as exc:
            raise CorruptRowError(f"game {game_id}, action {idx}: {exc}") from None
        actions.append(text)
    return tuple(actions)
