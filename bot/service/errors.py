"""The one error the table service raises at a player: a message key and its parameters.

The service never formats text; :func:`bot.text.refusals.refusal_text` turns a
:class:`UserError` (or an engine :class:`~engine.actions.IllegalActionError`) into a reply in
the player's language.
Raising it means nothing changed.
"""

from __future__ import annotations

from typing import Any

from data import StoreError
from engine.actions import IllegalActionError


class UserError(Exception):
    """A request the bot refuses, with a catalog ``key`` and ``params`` for its message."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"UserError({self.key!r}, {self.params!r})"


#: The errors that are refusals: the player asked for something not allowed now, and
#: nothing changed. Anything else is a bug: logged, and the player is told it went wrong.
REFUSALS: tuple[type[Exception], ...] = (UserError, IllegalActionError)

#: What a failing database raises: the store's errors, and the operating system's (a full
#: disk, a broken socket) should one slip through a driver.
OUTAGES: tuple[type[Exception], ...] = (StoreError, OSError)
