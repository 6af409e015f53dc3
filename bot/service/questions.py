"""The question a seat faces: what the table asks it now, as one typed value that every front
end shows its own way (the Discord hand controller's buttons and menus, a browser's table).

    question = service.question_locked(live, seat)   # in a listener's callback
    view = await service.private_view(live, seat)    # anywhere else: view.question
    if question is not None and question.allows(Verb.PASS):
        await service.act(live, user, Verb.PASS, token=question.token)

The :attr:`Question.token` names the question from the game state alone (series, deal, kind,
where in the log it began: :class:`Token`), so an answer given with it is refused once that
question is over, after a restart too, and never matches a question of a later series.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from bot.service.live import LiveTable
from engine.actions import Verb
from engine.hands import Play
from engine.options import Phase
from engine.state import QUESTION_PHASES


class Prompt(StrEnum):
    """What a seat is asked outside the game's yes/no phases. The values are the strings the
    question tokens and the DM controls' custom ids have always used."""

    RETURN = "return"  # 还贡: give cards back for the tribute received
    BURN = "burn"  # the burn window (烧牌): burn the gouji hand just played, or not
    TURN = "turn"  # a turn: play (lead or beat), pass or yield


#: What a seat is asked: a :class:`Prompt`, or a question of a game phase (宣点, 革命, 要头:
#: one of :data:`engine.state.QUESTION_PHASES`) named as its :class:`~engine.options.Phase`.
#: Its value is the string tokens and custom ids use.
QuestionKind: TypeAlias = Prompt | Phase


@dataclass(frozen=True, slots=True)
class Token:
    """What names a question: the series (its row id, unique for the table's life), the deal
    (1, 2, … of the series), the kind's value, and where in the deal's log it began.

    >>> str(Token(12, 3, "turn", 57)), Token.parse("12.3.turn.57") == Token(12, 3, "turn", 57)
    ('12.3.turn.57', True)
    """

    series: int
    deal: int
    kind: str
    start: int

    def __str__(self) -> str:
        return f"{self.series}.{self.deal}.{self.kind}.{self.start}"

    @classmethod
    def parse(cls, token: str) -> Token | None:
        """The token's parts, or None for a string that is not one."""
        parts = token.split(".")
        if len(parts) != 4 or not all(p.isdigit() for p in (parts[0], parts[1], parts[3])):
            return None
        return cls(int(parts[0]), int(parts[1]), parts[2], int(parts[3]))


def yes_or_no(kind: QuestionKind) -> bool:
    """A question of a game phase, answered by one of two verbs and no cards (宣点, 革命,
    要头): the engine's question phases.

    >>> yes_or_no(Phase.DECLARE), yes_or_no(Prompt.TURN)
    (True, False)
    """
    return kind in QUESTION_PHASES


def question_kind(live: LiveTable) -> QuestionKind:
    """What the table asks now (a series with a current deal is on): 还贡 while tribute is
    returned, the game's yes/no phase, the burn window, else a turn."""
    game = live.current.game
    if game is None:
        return Prompt.RETURN
    if game.phase in QUESTION_PHASES:
        return game.phase
    return Prompt.BURN if game.window is not None else Prompt.TURN


@dataclass(frozen=True, slots=True)
class Question:
    """The question open for ``seat``: its ``kind`` and ``token``, the ``verbs`` it may
    answer with (in the engine's order), the plays it may make, most useful first (a turn's
    plays, or the burning plays of a burn window), for 还贡 how many cards it returns, which
    (``returnable``: 15 rank counts) and to whom, the standing play and who played it, and
    the clock: ``deadline`` (unix time, None when no clock runs) of a ``seconds`` long
    question."""

    kind: QuestionKind
    token: str
    seat: int
    verbs: tuple[Verb, ...]
    plays: tuple[Play, ...] = ()
    return_count: int = 0
    returnable: tuple[int, ...] = ()
    return_to: int | None = None
    standing: Play | None = None
    standing_seat: int | None = None
    deadline: float | None = None
    seconds: int = 0

    @property
    def answers(self) -> tuple[Verb, ...]:
        """The verbs that take no cards (pass, yield, noburn, declare …): one button each."""
        return tuple(v for v in self.verbs if not v.takes_cards)

    @property
    def leading(self) -> bool:
        """A turn with nothing standing: the seat leads (发牌)."""
        return self.kind == Prompt.TURN and self.standing is None

    def allows(self, verb: str) -> bool:
        """Whether ``verb`` answers this question (with the right cards, for those taking
        cards)."""
        return verb in self.verbs


def turn_verbs(live: LiveTable, seat: int, plays: list[Play]) -> tuple[Verb, ...]:
    """The verbs of a turn or a burn window, in the engine's order (``Game.legal_actions``),
    given the seat's plays: no play enumerated twice."""
    game = live.running_game
    if game.window is not None:
        return (Verb.NOBURN, Verb.BURN) if plays else (Verb.NOBURN,)
    verbs: list[Verb] = []
    if game.standing is not None:
        verbs.append(Verb.PASS)
        if game.may_yield(seat):
            verbs.append(Verb.YIELD)
    if plays:
        verbs.append(Verb.PLAY)
    return tuple(verbs)


def question_token(live: LiveTable) -> str:
    """Names the question the table asks now, from the game state alone (so it is the
    same after a restart): series, deal, kind and where in the log the question began
    (:class:`~bot.service.questions.Token`)."""
    series = live.running
    cur = live.current
    kind = question_kind(live)
    game = cur.game
    if game is None:
        start = sum(r.cards is not None for r in cur.returns)
    elif yes_or_no(kind):
        start = 0
    elif game.window is not None:
        start = len(game.actions) - len(game.window)
    else:
        start = len(game.actions)
    return str(Token(live.series_id or 0, len(series.deals), kind, start))
