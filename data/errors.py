"""The errors of the store. Every message says what went wrong and what to do about it."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the store cannot do: a file that is not a Gouji database, a missing row,
    bad input, a corrupt row. Nothing is changed when it is raised."""


class NotFoundError(StoreError, LookupError):
    """No table, series or game with that id."""


class InvalidInputError(StoreError, ValueError):
    """The caller passed something the store will not write (a malformed action, a seat
    out of range, options that are not a JSON object …)."""


class ChannelTakenError(InvalidInputError):
    """The channel already has an active (lobby or playing) table: one per channel, a rule
    of the database itself."""


class ActionConflictError(StoreError):
    """An append did not land where the caller expected: another writer got there first,
    or the caller's copy of the log is behind. Reload the log and replay it."""

    def __init__(self, message: str, *, expected: int, actual: int) -> None:
        super().__init__(message)
        self.expected = expected
        self.actual = actual


class CorruptRowError(StoreError):
    """A stored row that cannot be decoded (bad JSON, a NULL where a value must be, an
    action that is not ``SEAT VERB [CARDS]``, a gap in an action log)."""


class ConstraintError(StoreError):
    """A write broke a rule of the schema (a unique key, a reference, a check): the
    database refused it and nothing changed."""


class ClaimLostError(StoreError):
    """The store acts for one process (``act_as``) and the table is claimed by another:
    this process must stop serving it. Nothing was written."""


def claim_lost(table_id: int, holder: str | None, owner: str) -> ClaimLostError:
    """The error for ``owner`` acting on a table ``holder`` claimed."""
    return ClaimLostError(
        f"table {table_id} is claimed by {holder or 'nobody'}, not by {owner}: this process "
        "must stop serving it"
    )
