"""Tables claimed by the process that serves them, for a bot split into shard processes
sharing one database.

Discord puts a server (guild) on shard ``(guild_id >> 22) % shard_count``; a process runs a
range of shards (:class:`Shards`). At start-up it claims the active tables of its shards
(:meth:`ClaimsMixin.claim_tables`), restores the ones it got
(``load_active_tables(owner=…)``), and renews its claims while it runs. A claim is one
atomic ``UPDATE``: it takes a table only if it is unclaimed, already the caller's, or its
claim lapsed, so two processes never both hold a table. A store told whom it acts for
(:meth:`ClaimsMixin.act_as`) claims the tables it creates and refuses to append to a table
another process holds (:class:`~data.errors.ClaimLostError`): a process that stalled past
its lease and lost its tables cannot write into them.

Owners are names of one process each. A process with a stable identity (an *instance*:
what it serves and where, ``GOUJI_INSTANCE``) takes a new *epoch* at each start
(:meth:`ClaimsMixin.incarnate`) and is named :func:`incarnation_owner`: a restarted process
takes its own instance's tables back at once, whatever their lease, while the incarnation
before it stays fenced (its name no longer holds them, and a lower epoch never takes them
back), as Kafka's static membership does. Any other process (:func:`process_owner`: host,
pid and a random part) waits until the claims lapse (a clean shutdown releases them at
once). Every change a store acting for an owner makes to a table, its seats, series and
deals checks, in the same transaction, that the owner still holds it (the table's row
locked meanwhile); appends also state the index they expect, which the log's key
``(game_id, idx)`` enforces. Times are the processes' clocks (keep them in sync, NTP).
"""

from __future__ import annotations

import math
import os
import re
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass

from .base import StoreBase, fetch_all
from .errors import InvalidInputError
from .models import ACTIVE_STATUSES

#: Seconds a claim lasts unless renewed (every third of it): how long a process may stall
#: and keep its tables, and how long the tables of a process that died wait for another.
DEFAULT_LEASE = 30.0
_ACTIVE = "status IN ('lobby', 'playing')"
#: A claim another owner may take (parameters: owner, now, instance, epoch): unclaimed, the
#: owner's own, lapsed, or held by an earlier incarnation of the same instance.
_TAKEABLE = (
    "(owner IS NULL OR owner = ? OR owner_until < ? OR (owner_instance = ? AND owner_epoch < ?))"
)
assert ACTIVE_STATUSES == ("lobby", "playing")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a server on."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """Shards ``ids`` out of ``count``: the servers one process serves."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if type(self.count) is not int or self.count < 1:
            raise InvalidInputError(f"the shard count must be 1 or more, not {self.count!r}")
        if not self.ids or any(type(i) is not int or not 0 <= i < self.count for i in self.ids):
            raise InvalidInputError(
                f"shards must be numbers from 0 to {self.count - 1}, not {self.ids!r}"
            )
        if len(set(self.ids)) != len(self.ids):
            raise InvalidInputError(f"shards {self.ids!r} name one shard twice")

    @classmethod
    def parse(cls, count: int | str, spec: str | None = None) -> Shards:
        """``Shards.parse(8, "0-3")``, ``"0,2,5"``, ``"4"``; None or ``""``: all of them."""
        try:
            total = int(count)
        except ValueError:
            raise InvalidInputError(f"the shard count must be a number, not {count!r}") from None
        if not spec or not spec.strip():
            return cls(total, tuple(range(max(total, 0))) or (0,))
        ids: list[int] = []
        for part in spec.split(","):
            first, dash, last = part.strip().partition("-")
            try:
                ids += range(int(first), int(last) + 1) if dash else [int(first)]
            except ValueError:
                raise InvalidInputError(
                    f"shards {spec!r} should look like 0-3 or 0,2,5, each 0 to {total - 1}"
                ) from None
        return cls(total, tuple(ids))

    def of_guild(self, guild_id: int) -> int:
        """The shard of a server."""
        return shard_of(guild_id, self.count)

    def holds(self, guild_id: int) -> bool:
        """Whether a server is on one of these shards."""
        return self.of_guild(guild_id) in self.ids

    def sql(self, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
        """A ``WHERE`` condition on ``column`` (a fixed name) and its parameters."""
        marks = ", ".join("?" for _ in self.ids)
        return f"(({column} >> 22) % ?) IN ({marks})", (self.count, *self.ids)

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


@dataclass(frozen=True, slots=True)
class ClaimReport:
    """What :meth:`ClaimsMixin.claim_tables` got: the tables the owner now holds, the
    active tables of those shards that another live claim holds, as (table id, owner), and
    the channel of each of them (table id → channel id)."""

    claimed: tuple[int, ...]
    held: tuple[tuple[int, str], ...]
    channels: tuple[tuple[int, int], ...] = ()


def serving(shards: Shards | None) -> str:
    """What a process serves, in words: ``"shards 0,1 of 4"``, or ``"all shards"``."""
    return str(shards) if shards is not None else "all shards"


def default_instance(label: str) -> str:
    """The instance of a process serving ``label`` on this host (``GOUJI_INSTANCE`` names
    another): ``"shards 0-3 of 8 @ web-1"``. Two processes of one instance at once (a
    rolling deploy on one host) are two incarnations: the later one takes the tables."""
    return f"{label} @ {socket.gethostname()}"


def process_owner(label: str) -> str:
    """A claim owner's name for this process alone: ``label`` (what it serves, e.g.
    ``shards 0-3 of 8``), the host, the process id and a random part —
    ``"shards 0-3 of 8 @ web-1 pid 4242 #9f3a1c"``. Two processes never share one (not a
    second process of the same shards during a rolling deploy, not a restart), so each
    waits for the other's claims to lapse."""
    return f"{default_instance(label)} pid {os.getpid()} #{secrets.token_hex(3)}"


_INCARNATION = re.compile(r"(?P<instance>.+) epoch (?P<epoch>[0-9]+)")


def incarnation_owner(instance: str, epoch: int) -> str:
    """The owner name of one incarnation of a process instance:
    ``incarnation_owner("all shards @ web-1", 7) == "all shards @ web-1 epoch 7"``."""
    return f"{instance} epoch {epoch}"


def incarnation_of(owner: str) -> tuple[str | None, int | None]:
    """(instance, epoch) of an :func:`incarnation_owner` name, else (None, None)."""
    match = _INCARNATION.fullmatch(owner)
    if match is None:
        return None, None
    return match["instance"], int(match["epoch"])


def _check_claim(owner: str, lease: float) -> None:
    if not isinstance(owner, str) or not owner.strip():
        raise InvalidInputError(f"a claim needs its owner's name, not {owner!r}")
    if not isinstance(lease, int | float) or not math.isfinite(lease) or lease <= 0:
        raise InvalidInputError(f"a claim's lease is a number of seconds > 0, not {lease!r}")


class ClaimsMixin(StoreBase):
    """Claiming, renewing and releasing tables; acting for an owner."""

    def act_as(self, owner: str | None, *, lease: float = DEFAULT_LEASE) -> None:
        """From now on this store acts for ``owner``: the tables it creates are claimed for
        it, and appends to a table another owner holds raise
        :class:`~data.errors.ClaimLostError`. None: act for nobody (no claims, no check)."""
        if owner is not None:
            _check_claim(owner, lease)
        self._owner, self._lease = owner, float(lease)

    async def claim_tables(
        self, owner: str, *, shards: Shards | None = None, lease: float = DEFAULT_LEASE
    ) -> ClaimReport:
        """Claim, for ``lease`` seconds, every lobby or playing table of ``shards`` (None:
        of every server) that is unclaimed, already ``owner``'s, or whose claim lapsed."""
        _check_claim(owner, lease)
        now = self._now()
        instance, epoch = incarnation_of(owner)
        where, params = shards.sql() if shards is not None else ("1 = 1", ())
        async with self._shared_rows, self._transaction() as conn:
            claimed = await fetch_all(
                conn,
                "UPDATE tables SET owner = ?, owner_until = ?, owner_instance = ?, "
                f"owner_epoch = ? WHERE {_ACTIVE} AND {where} AND {_TAKEABLE} RETURNING id",
                (owner, now + lease, instance, epoch, *params, owner, now, instance, epoch),
            )
            held = await fetch_all(
                conn,
                f"SELECT id, owner FROM tables WHERE {_ACTIVE} AND {where} AND owner <> ? "
                "ORDER BY id",
                (*params, owner),
            )
            channels = await fetch_all(
                conn, f"SELECT id, channel_id FROM tables WHERE {_ACTIVE} AND {where}", params
            )
        return ClaimReport(
            tuple(sorted(row[0] for row in claimed)),
            tuple(map(tuple, held)),
            tuple(sorted(map(tuple, channels))),
        )

    async def claim_table(self, table_id: int, owner: str, *, lease: float = DEFAULT_LEASE) -> bool:
        """Claim one table (any status) unless another live claim holds it."""
        _check_claim(owner, lease)
        now = self._now()
        instance, epoch = incarnation_of(owner)
        count = await self._run(
            "UPDATE tables SET owner = ?, owner_until = ?, owner_instance = ?, owner_epoch = ? "
            f"WHERE id = ? AND {_TAKEABLE}",
            (owner, now + lease, instance, epoch, table_id, owner, now, instance, epoch),
        )
        return count == 1

    async def incarnate(self, instance: str) -> int:
        """A new epoch for the process ``instance`` (1 at its first start, then one more
        each time): its owner name is ``incarnation_owner(instance, epoch)``."""
        if not isinstance(instance, str) or not instance.strip() or len(instance) > 200:
            raise InvalidInputError(f"a process instance needs a name, not {instance!r}")
        async with self._transaction() as conn:
            rows = await fetch_all(
                conn,
                "INSERT INTO instances (name, epoch) VALUES (?, 1) ON CONFLICT (name) "
                "DO UPDATE SET epoch = instances.epoch + 1 RETURNING epoch",
                (instance,),
            )
        return int(rows[0][0])

    async def renew_claims(self, owner: str, *, lease: float = DEFAULT_LEASE) -> list[int]:
        """Extend every claim ``owner`` still holds by ``lease`` seconds from now; returns
        those tables (a table missing from the list was lost: stop serving it)."""
        _check_claim(owner, lease)
        async with self._shared_rows:
            rows = await self._fetch(
                "UPDATE tables SET owner_until = ? WHERE owner = ? RETURNING id",
                (self._now() + lease, owner),
            )
        return sorted(row[0] for row in rows)

    async def release_claims(self, owner: str, table_ids: Iterable[int] | None = None) -> int:
        """Give up ``owner``'s claims (on ``table_ids`` only, if given): at a clean shutdown,
        or when a table ends. Returns how many were released."""
        ids = None if table_ids is None else list(table_ids)
        if ids == []:
            return 0
        where, params = "owner = ?", [owner, *(ids or ())]
        if ids is not None:
            where += f" AND id IN ({', '.join('?' for _ in ids)})"
        async with self._shared_rows:
            return await self._run(
                "UPDATE tables SET owner = NULL, owner_until = NULL, owner_instance = NULL, "
                f"owner_epoch = NULL WHERE {where}",
                params,
            )
