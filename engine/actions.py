"""Actions a seat takes, in the record notation ``SEAT VERB [CARDS]`` (docs/record.md), and the
errors that refuse them.

>>> Action.parse("3 play 22777")
Action.parse('3 play 77722')
>>> str(Action(0, Verb.PASS))
'0 pass'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import format_cards
from .hands import Play, classify


class Verb(StrEnum):
    """What a seat does: the verbs of the record notation (docs/record.md). The values are
    the words records, logs and custom ids have always used.

    >>> Verb("burn").takes_cards, Verb.PASS.takes_cards
    (True, False)
    """

    # the play phase
    PLAY = "play"
    PASS = "pass"
    YIELD = "yield"  # 让牌
    BURN = "burn"  # 烧牌, answered in a burn window
    NOBURN = "noburn"
    LEAVE = "leave"
    # before play
    DECLARE = "declare"  # 宣点
    NODECLARE = "nodeclare"
    REVOLT = "revolt"  # 革命
    NOREVOLT = "norevolt"
    KEEPHEAD = "keephead"  # 要头 (够死级 on)
    NOKEEPHEAD = "nokeephead"  # 无头
    # between games of a series
    RETURN = "return"  # 还贡

    @property
    def takes_cards(self) -> bool:
        """Whether the verb is followed by cards (play, burn, return)."""
        return self in VERBS_WITH_CARDS


VERBS_WITH_CARDS = frozenset({Verb.PLAY, Verb.BURN, Verb.RETURN})


#: Why an action is refused: each code and the parameters it carries. The words are the
#: players' (``refusal.CODE`` in bot.text.langs, in every language): the engine keeps codes.
REFUSALS: dict[str, tuple[str, ...]] = {
    "no_seat": ("seat",),
    "game_over": (),
    "already_left": ("seat",),
    "already_declared": ("seat",),
    "already_revolt_answered": ("seat",),
    "may_not_revolt": ("seat",),
    "declare_time": (),
    "revolt_time": (),
    "head_time": ("seat",),
    "head_seat": ("seat",),
    "gou_si_ji": ("q",),
    "window_waits": ("seats",),
    "already_burn_answered": ("seat",),
    "burn_deciding_yours": ("seats",),
    "burn_deciding": ("seats",),
    "answer_burn": ("seat",),
    "no_window": (),
    "not_your_turn": ("seats",),
    "not_held": ("cards",),
    "not_held_hand": ("cards", "hand"),
    "does_not_beat": ("cards", "standing"),
    "wrong_size": ("cards", "standing", "size"),
    "not_higher": ("cards", "standing"),
    "burn_incomplete": ("cards",),
    "burn_lead": (),
    "lead_no_pass": (),
    "verb_not_now": ("verb",),
    "gouji_opposite_only": ("seat", "q", "opp"),
    "passed_round": ("seat",),
    "three_last": (),
    "yield_melee": (),
    "yield_lead": (),
    "yield_opposite_only": (),
    "yield_gouji": (),
    "yield_twice": (),
    "yield_nobody": (),
    "yield_upstream": (),
    "series_over": (),
    "game_not_over": (),
    "no_game": (),
    "no_return_due": (),
    "return_first": ("seat", "count", "to"),
    "return_turn": ("seat",),
    "return_count": ("count", "to"),
    "return_not_held": ("cards",),
    "return_rank": ("to",),
}


class IllegalActionError(ValueError):
    """An action the rules refuse. ``code`` names the reason (a key of :data:`REFUSALS`),
    ``params`` its details; ``str(error)`` shows both (the players' words are the bot's).

    >>> e = IllegalActionError("not_your_turn", seats="3")
    >>> str(e), e.code, e.params
    ('not_your_turn (seats=3)', 'not_your_turn', {'seats': '3'})
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = {k: str(v) for k, v in params.items()}
        if code not in REFUSALS or set(self.params) != set(REFUSALS[code]):
            raise ValueError(f"refusal {code!r} takes {REFUSALS.get(code)}, not {params}")
        details = ", ".join(f"{k}={v}" for k, v in self.params.items())
        super().__init__(f"{code} ({details})" if details else code)


class NotYourTurnError(IllegalActionError):
    """The seat is not one the game waits on (or may not answer at all)."""


class ActionSyntaxError(ValueError):
    """Text that is not an action in record notation."""


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's action. ``cards`` is a :class:`Play` for play/burn, a canonical card string
    for return (any cards, not necessarily one hand), else None."""

    seat: int
    verb: Verb
    cards: Play | str | None = None

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``"SEAT VERB [CARDS]"``; raises :class:`ActionSyntaxError` or a
        ``ValueError`` from the card parser."""
        parts = text.split(None, 2)
        if len(parts) < 2:
            raise ActionSyntaxError(f"{text!r}: an action is 'SEAT VERB [CARDS]', e.g. '3 play KK'")
        seat_text, word = parts[0], parts[1].lower()
        if not seat_text.isdigit() or not 0 <= int(seat_text) <= 5:
            raise ActionSyntaxError(f"{text!r}: the seat must be 0 to 5")
        try:
            verb = Verb(word)
        except ValueError:
            raise ActionSyntaxError(
                f"{text!r}: unknown verb {word!r} (one of {', '.join(sorted(Verb))})"
            ) from None
        seat = int(seat_text)
        if verb.takes_cards:
            if len(parts) < 3 or not parts[2].strip():
                raise ActionSyntaxError(f"{text!r}: '{verb}' needs cards, e.g. '{seat} {verb} KK'")
            if verb == Verb.RETURN:
                return cls(seat, verb, format_cards(parts[2]))
            return cls(seat, verb, classify(parts[2]))
        if len(parts) > 2:
            raise ActionSyntaxError(f"{text!r}: '{verb}' takes no cards")
        return cls(seat, verb)

    @property
    def play(self) -> Play:
        """The hand of a play or burn (:meth:`parse` always gives one)."""
        if not isinstance(self.cards, Play):
            raise ActionSyntaxError(
                f"{self}: '{self.verb}' needs a hand, e.g. '{self.seat} play KK'"
            )
        return self.cards

    @property
    def returned(self) -> str:
        """The cards of a return, in card notation (:meth:`parse` always gives them)."""
        if not isinstance(self.cards, str):
            raise ActionSyntaxError(
                f"{self}: '{self.verb}' needs cards, e.g. '{self.seat} return 45'"
            )
        return self.cards

    def __str__(self) -> str:
        if self.cards is None:
            return f"{self.seat} {self.verb}"
        return f"{self.seat} {self.verb} {self.cards}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"
