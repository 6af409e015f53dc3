"""Snapshots: a stored state of a series' live engine, so that a restart resumes each table
from it and the few actions logged since, instead of replaying the whole series.

The log stays the truth; a snapshot is a cache of what replaying it gives. It is trusted
only when everything about it matches:

- it was written by the same engine code (:data:`ENGINE`, a fingerprint of ``engine/*.py``
  and of Python's version) — another engine might replay the log differently;
- it belongs to the series' latest deal (a newer deal means it is stale);
- it decodes (zlib checks the bytes), holds as many deals as the series has rows, the
  latest deal's seed, and exactly ``idx`` logged entries of that deal;
- the actions logged after it replay on it.

Otherwise the table is rebuilt from its whole log (:meth:`SnapshotsMixin.restore_series`),
as before snapshots existed; a log that does not replay is the caller's to mark broken.

The state is the engine's :class:`~engine.series.Series` pickled (cards interned, so a
snapshot loads in well under a millisecond) and compressed. A snapshot is data, never code:
it is read by :class:`EngineUnpickler`, which admits only the engine's own classes (and the
card lookup below) — a pickle naming anything else (``os.system``, ``builtins.eval``, a
module to import) is refused before anything runs — and it is inflated to at most
:data:`MAX_STATE` bytes. Whoever can write the database can still make a table's snapshot
wrong (as they can its log), but not run code in the bot; a refused snapshot means a replay
of the log.

Why a restricted unpickler and not a data-only encoding (JSON of plain values): the engine's
state is dozens of fields across its classes, which a second encoding would have to copy
and keep in step with every change of the engine (one copy of each piece of knowledge);
the unpickler keeps restoring at the cost it had (``python -m bench.restore``: see
docs/hosting.md) and the engine fingerprint (:data:`ENGINE`) already retires every
snapshot whose classes changed.
"""

from __future__ import annotations

import copyreg
import enum
import hashlib
import importlib
import io
import logging
import pickle
import pkgutil
import sys
import zlib
from pathlib import Path
from typing import Any

import engine
from engine.actions import Action
from engine.cards import NUM_RANKS, SMALL_JOKER, SUITS, Card
from engine.record import SERIES_FORMAT, series_from_record
from engine.series import Series

from .base import fetch_all
from .errors import InvalidInputError, NotFoundError, claim_lost
from .export import ExportMixin, series_game_entry
from .models import ActiveTable, GameLog

log = logging.getLogger("gouji.data")

_PROTOCOL = 5


def _fingerprint() -> str:
    """The engine's rule code and the Python that pickles it, hashed."""
    digest = hashlib.sha256(f"python {sys.version_info[:2]} pickle {_PROTOCOL}".encode())
    for path in sorted(Path(engine.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


#: The bot snapshots each deal when it is dealt and after every this many log entries, so a
#: restart replays at most this many entries of a table whose snapshot is usable.
SNAPSHOT_EVERY = 10

#: The fingerprint of this engine: snapshots written by another one are not used.
ENGINE = _fingerprint()

#: Every card there is, one object each (cards are immutable): unpickling takes them from
#: here instead of building and checking hundreds of card objects per table.
_CARDS = {
    (rank, suit): Card(rank, suit)
    for rank in range(NUM_RANKS)
    for suit in (None, *(SUITS if rank < SMALL_JOKER else ()))
}


def _card(rank: int, suit: str | None) -> Card:
    return _CARDS[rank, suit]


def _by_value(member: enum.Enum) -> tuple[type[enum.Enum], tuple[object]]:
    return type(member), (member.value,)


_DISPATCH = copyreg.dispatch_table.copy()
_DISPATCH[Card] = lambda c: (_card, (c.rank, c.suit))
_DISPATCH[Action] = lambda a: (Action, (a.seat, a.verb, a.cards))


class SnapshotError(ValueError):
    """A snapshot that cannot be used; the table is replayed from its log instead."""


#: The most bytes a snapshot may inflate to (a five-game series is ~20 KB): a few stored
#: kilobytes that would inflate to gigabytes are refused instead.
MAX_STATE = 4 << 20


def _engine_classes() -> dict[tuple[str, str], object]:
    """Everything a snapshot may name: each class defined in a module of ``engine`` (not
    its subpackages: the AI is not part of a series' state), and :func:`_card`."""
    admitted: dict[tuple[str, str], object] = {(__name__, "_card"): _card}
    for info in pkgutil.iter_modules(engine.__path__, "engine."):
        if info.ispkg:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == info.name:
                admitted[info.name, name] = value
    return admitted


# An enum member is pickled as its class called with its value, on every Python: Python
# 3.11.2 pickles some by name through builtins.getattr (refused below), and 3.11.7 by value.
_ADMITTED = _engine_classes()
for _admitted in _ADMITTED.values():
    if isinstance(_admitted, type) and issubclass(_admitted, enum.Enum):
        _DISPATCH[_admitted] = _by_value


class EngineUnpickler(pickle.Unpickler):
    """An unpickler that admits only the engine's own classes: a pickle that names any
    other global (a function to call, a module to import) is refused before it runs."""

    ADMITTED = _ADMITTED

    def find_class(self, module: str, name: str) -> Any:
        found = self.ADMITTED.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"a snapshot may not name {module}.{name}")
        return found


def dump_series(series: Series) -> bytes:
    """The series as snapshot bytes."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(series)
    return zlib.compress(out.getvalue(), 1)


def _inflate(state: bytes) -> bytes:
    inflater = zlib.decompressobj()
    raw = inflater.decompress(state, MAX_STATE)
    if inflater.unconsumed_tail:
        raise SnapshotError(
            f"the snapshot inflates to more than {MAX_STATE} bytes: larger than a series"
        )
    if not inflater.eof:
        raise SnapshotError("the snapshot's compressed bytes are cut short")
    return raw


def load_series(state: bytes) -> Series:
    """The series in snapshot bytes; :class:`SnapshotError` if they are damaged, too large,
    or name anything but the engine's classes."""
    try:
        series = EngineUnpickler(io.BytesIO(_inflate(state))).load()
    except SnapshotError:
        raise
    except Exception as exc:  # zlib's check, a refused global, a pickle that does not load
        raise SnapshotError(f"the snapshot does not decode ({type(exc).__name__}: {exc})") from exc
    if not isinstance(series, Series):
        raise SnapshotError(f"the snapshot holds a {type(series).__name__}, not a series")
    return series


def logged_entries(series: Series) -> int:
    """How many log entries the current deal has had: its returns (``SEAT return CARDS``;
    a seat with nothing to return logs none) and its game's actions."""
    cur = series.current
    if cur is None:
        return 0
    returns = sum(1 for due in cur.returns if due.cards)
    return returns + (len(cur.game.actions) if cur.game is not None else 0)


def replay_logs(
    options: dict[str, Any], logs: tuple[GameLog, ...], *, games_total: int, tribute: bool
) -> Series:
    """The series replayed from its whole log (``RecordError``/``ReplayError`` if it does
    not replay)."""
    record = {
        "format": SERIES_FORMAT,
        "options": options,
        "games": [series_game_entry(g) for g in logs],
        "games_total": games_total,
        "tribute": tribute,
    }
    return series_from_record(record)


def resume(active: ActiveTable) -> Series:
    """The series from the table's snapshot and the actions logged after it;
    :class:`SnapshotError` if the snapshot does not fit, a ``ValueError`` of the engine if
    an action after it is refused."""
    snap = active.resume
    if snap is None:
        raise SnapshotError("the table has no snapshot")
    series = load_series(snap.state)
    latest = active.games[-1].game if active.games else None
    cur = series.current
    if latest is None or latest.id != snap.game_id or cur is None:
        raise SnapshotError("the snapshot is not of the series' latest deal")
    if len(series.deals) != len(active.games) or cur.seed != latest.seed:
        raise SnapshotError(
            f"the snapshot holds {len(series.deals)} deals (seed {cur.seed}), the log "
            f"{len(active.games)} (seed {latest.seed})"
        )
    if logged_entries(series) != snap.idx:
        raise SnapshotError(
            f"the snapshot holds {logged_entries(series)} entries of the deal, not {snap.idx}"
        )
    for text in snap.tail:
        series.apply(Action.parse(text))
    return series


class SnapshotsMixin(ExportMixin):
    """Saving snapshots, and rebuilding a table's series from one (or from its log)."""

    async def save_snapshot(self, game_id: int, series: Series, *, engine: str = ENGINE) -> int:
        """Store ``series`` — the live engine of deal ``game_id``, with every entry of the
        deal's log applied and nothing more — as its series' snapshot, replacing the one
        before. Returns the entries it includes. Refused (:class:`InvalidInputError`) when
        the series is not that deal's or does not match the log's length; on a table
        another owner holds, :class:`~data.errors.ClaimLostError`."""
        idx = logged_entries(series)
        state = dump_series(series)
        now = self._now()
        async with self._transaction() as conn:
            rows = await fetch_all(
                conn,
                "SELECT g.series_id, g.status, g.seed, (SELECT COALESCE(max(idx) + 1, 0) FROM "
                "actions WHERE game_id = g.id), t.id, t.owner FROM games AS g JOIN series AS s "
                "ON s.id = g.series_id JOIN tables AS t ON t.id = s.table_id WHERE g.id = ?",
                (game_id,),
            )
            if not rows:
                raise NotFoundError(f"there is no game {game_id}")
            series_id, status, seed, logged, table_id, owner = rows[0]
            if self._owner not in (None, owner):
                raise claim_lost(table_id, owner, self._owner)
            cur = series.current
            if status != "playing" or cur is None or cur.seed != seed or idx != logged:
                raise InvalidInputError(
                    f"game {game_id} ({status}, {logged} entries logged) is not the deal this "
                    f"series is at ({idx} entries): no snapshot taken"
                )
            await conn.execute(
                "INSERT INTO snapshots (series_id, game_id, idx, engine, state, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (series_id) DO UPDATE SET "
                "game_id = excluded.game_id, idx = excluded.idx, engine = excluded.engine, "
                "state = excluded.state, created_at = excluded.created_at",
                (series_id, game_id, idx, engine, state, now),
            )
        return idx

    async def restore_series(
        self, active: ActiveTable, *, games_total: int = 5, tribute: bool = True
    ) -> Series:
        """The live series of a table from :meth:`load_active_tables`: from its snapshot
        when there is a usable one, else from its whole log (read again if the load left
        it out). ``games_total`` and ``tribute`` are the series' settings (a snapshot holds
        them). Raises the engine's ``ValueError`` when the log does not replay."""
        if active.series is None:
            raise InvalidInputError(f"table {active.table.id} has no series to restore")
        logs = active.games
        if active.resume is not None:
            try:
                return resume(active)
            except ValueError as exc:
                log.warning(
                    "table %s: replaying the whole log instead of its snapshot: %s",
                    active.table.id,
                    exc,
                )
            _, logs = await self.series_logs(active.series.id)
        return replay_logs(active.series.options, logs, games_total=games_total, tribute=tribute)
