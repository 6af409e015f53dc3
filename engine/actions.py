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


# Why an action is refused: a code (for translations, e.g. by the bot) and its English text.
MESSAGES = {
    "no_seat": "there is no seat {seat}: seats are 0 to 5",
    "game_over": "the game is over",
    "already_left": "seat {seat} has already left this game",
    "already_declared": "seat {seat} has already answered whether it declares",
    "already_revolt_answered": "seat {seat} has already answered whether it revolts",
    "may_not_revolt": "seat {seat} may not revolt: only a player with no 2 and no joker may",
    "declare_time": "it is time for declaring (宣点): answer 'declare' or 'nodeclare'",
    "revolt_time": "it is time for revolution (革命): answer 'revolt' or 'norevolt'",
    "head_time": "seat {seat} chooses first: 要头 (keep the head) or 无头 — answer 'keephead' or 'nokeephead'",
    "head_seat": "only seat {seat}, the revolutionary's opposite, chooses 要头 or 无头",
    "gou_si_ji": "seat {q}'s hand is 够死级: nobody may answer it except by burning",
    "window_waits": "not your turn: the burn window waits on seat(s) {seats}",
    "already_burn_answered": "seat {seat} has already answered in this burn window",
    "burn_deciding_yours": "not your turn: seat(s) {seats} decide whether to burn your hand",
    "burn_deciding": "not your turn: seat(s) {seats} decide whether to burn",
    "answer_burn": "seat {seat}'s gouji hand may be burned: answer 'burn CARDS' or 'noburn'",
    "no_window": "there is no burn window open now",
    "not_your_turn": "not your turn: seat {seats} plays",
    "not_held": "you do not hold {cards}",
    "not_held_hand": "you do not hold {cards}: your hand is {hand}",
    "does_not_beat": "{cards} does not beat {standing}",
    "wrong_size": "{cards} does not beat {standing}: play exactly {size} card(s)",
    "not_higher": "{cards} does not beat {standing}: every card must be higher than the card in the same place",
    "burn_incomplete": "burning with {cards} would leave a hand you cannot go out with: after a burn every lead but the last must carry a joker",
    "burn_lead": "while you burn, every lead but your last must carry a joker and leave a hand you can still go out with",
    "lead_no_pass": "you have the lead: play a hand (you cannot pass on a lead)",
    "verb_not_now": "'{verb}' is not possible now: play, pass or yield",
    "gouji_opposite_only": "seat {seat} may not answer a gouji hand of seat {q}: only its opposite, seat {opp}, may",
    "passed_round": "seat {seat} has passed this round and may answer only its opposite's hands",
    "three_last": "a 3 may only go out as your last hand, all 3s (憋三)",
    "yield_melee": "there is no yielding in the four-way melee (四户乱缠)",
    "yield_lead": "you have the lead: there is nothing to yield",
    "yield_opposite_only": "you may yield only on a hand of your opposite",
    "yield_gouji": "you may not yield on a gouji hand",
    "yield_twice": "you have yielded on this hand already: beat it or pass",
    "yield_nobody": "nobody after you may answer this hand: beat it or pass",
    "yield_upstream": "you may yield only after both players before you have passed",
    "series_over": "the series is over",
    "game_not_over": "the current game is not over yet",
    "no_game": "no game has been dealt yet",
    "no_return_due": "no tribute is waiting to be returned",
    "return_first": "tribute must be returned first: seat {seat} returns {count} card(s) to seat {to}",
    "return_turn": "not your turn: seat {seat} returns tribute first",
    "return_count": "return exactly {count} card(s) to seat {to}",
    "return_not_held": "you do not hold {cards}",
    "return_rank": "to an opponent you may return only ranks seat {to} holds (不还单张)",
}


class IllegalActionError(ValueError):
    """An action the rules refuse. ``code`` names the reason (a key of :data:`MESSAGES`),
    ``params`` fill its text; ``str(error)`` is the English message.

    >>> e = IllegalActionError("not_your_turn", seats="3")
    >>> str(e), e.code, e.params
    ('not your turn: seat 3 plays', 'not_your_turn', {'seats': '3'})
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = {k: str(v) for k, v in params.items()}
        super().__init__(MESSAGES[code].format(**self.params))


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
