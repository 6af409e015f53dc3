"""A question put to a seat, in words: the one wording every front end shows (Discord's DM
controller, the browser table and the Activity).

:func:`question_text` words anything shaped like the table service's ``Question`` (its
:class:`Asked` fields): 还贡 "Return 2 cards to 济南 (3)", the burn window with who played
what, a turn (with "you lead" when nothing stands), and the yes/no
questions of the game's phases (宣点, 革命, 要头) by their kind.

>>> from dataclasses import dataclass
>>> from bot.text.params import SeatNumbers
>>> @dataclass
... class Turn:
...     kind: str = "turn"
...     return_count: int = 0
...     return_to: int | None = None
...     standing: object = None
...     standing_seat: int | None = None
...     leading: bool = True
>>> question_text(Turn(), "en", SeatNumbers())
'Your turn — The table is empty: you lead'
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.text.cards import play_words
from bot.text.langs import text
from bot.text.params import Namer, Who

__all__ = ["Asked", "question_text"]


class Asked(Protocol):
    """What a question says about itself (the table service's ``Question``)."""

    @property
    def kind(self) -> str: ...
    @property
    def return_count(self) -> int: ...
    @property
    def return_to(self) -> int | None: ...
    @property
    def standing(self) -> Any: ...
    @property
    def standing_seat(self) -> int | None: ...
    @property
    def leading(self) -> bool: ...


def question_text(asked: Asked, lang: str, names: Namer) -> str:
    """The question in ``lang``, its seats named by ``names``."""
    kind = str(asked.kind)
    if kind == "return":
        to = Who(asked.return_to).words(lang, names) if asked.return_to is not None else ""
        return text(lang, "dm_return", n=asked.return_count, who=to)
    if kind == "burn":
        by = asked.standing_seat
        return text(
            lang,
            "dm_burn",
            who=Who(by).words(lang, names) if by is not None else "",
            cards=play_words(asked.standing, lang) if asked.standing is not None else "",
        )  # (its seconds: the clock every front end shows beside it)
    if kind == "turn":
        said = text(lang, "dm_turn")
        return said + " — " + text(lang, "ctl_lead") if asked.leading else said
    return text(lang, f"dm_{kind}")
