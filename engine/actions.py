"""Actions a seat takes, in the record notation ``SEAT VERB [CARDS]`` (RECORD.md), and the
errors that refuse them.

>>> Action.parse("3 play 22777")
Action.parse('3 play 77722')
>>> str(Action(0, PASS))
'0 pass'
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import format_cards
from .hands import Play, classify

# verbs of the play phase
PLAY = "play"
PASS = "pass"
YIELD = "yield"  # 让牌
BURN = "burn"  # 烧牌, answered in a burn window
NOBURN = "noburn"
LEAVE = "leave"
# verbs before play
DECLARE = "declare"  # 宣点
NODECLARE = "nodeclare"
REVOLT = "revolt"  # 革命
NOREVOLT = "norevolt"
# between games of a series
RETURN = "return"  # 还贡

VERBS_WITH_CARDS = {PLAY, BURN, RETURN}
ALL_VERBS = {PLAY, PASS, YIELD, BURN, NOBURN, LEAVE, DECLARE, NODECLARE, REVOLT, NOREVOLT, RETURN}


class IllegalActionError(ValueError):
    """An action the rules refuse. The message says why, in a player's words."""


class NotYourTurnError(IllegalActionError):
    """The seat is not one the game waits on."""


class ActionSyntaxError(ValueError):
    """Text that is not an action in record notation."""


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's action. ``cards`` is a :class:`Play` for play/burn, a canonical card string
    for return (any cards, not necessarily one hand), else None."""

    seat: int
    verb: str
    cards: Play | str | None = None

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``"SEAT VERB [CARDS]"``; raises :class:`ActionSyntaxError` or a
        ``ValueError`` from the card parser."""
        parts = text.split(None, 2)
        if len(parts) < 2:
            raise ActionSyntaxError(f"{text!r}: an action is 'SEAT VERB [CARDS]', e.g. '3 play KK'")
        seat_text, verb = parts[0], parts[1].lower()
        if not seat_text.isdigit() or not 0 <= int(seat_text) <= 5:
            raise ActionSyntaxError(f"{text!r}: the seat must be 0 to 5")
        if verb not in ALL_VERBS:
            raise ActionSyntaxError(
                f"{text!r}: unknown verb {verb!r} (one of {', '.join(sorted(ALL_VERBS))})"
            )
        seat = int(seat_text)
        if verb in VERBS_WITH_CARDS:
            if len(parts) < 3 or not parts[2].strip():
                raise ActionSyntaxError(f"{text!r}: '{verb}' needs cards, e.g. '{seat} {verb} KK'")
            if verb == RETURN:
                return cls(seat, verb, format_cards(parts[2]))
            return cls(seat, verb, classify(parts[2]))
        if len(parts) > 2:
            raise ActionSyntaxError(f"{text!r}: '{verb}' takes no cards")
        return cls(seat, verb)

    def __str__(self) -> str:
        if self.cards is None:
            return f"{self.seat} {self.verb}"
        return f"{self.seat} {self.verb} {self.cards}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"
