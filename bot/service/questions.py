"""The question a seat faces: what the table asks it now, as one typed value that every front
end shows its own way (the Discord hand controller's buttons and menus, a browser's table).

    question = service.question_locked(live, seat)   # in a listener's callback
    view = await service.private_view(live, seat)    # anywhere else: view.question
    if question is not None and question.allows(Verb.PASS):
        await service.act(live, user, Verb.PASS, token=question.token)

The :attr:`Question.token` names the question from the game state alone (deal, kind, where in
the log it began), so an answer given with it is refused once that question is over, after a
restart too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.service.live import LiveTable
from engine.actions import Verb
from engine.hands import Play
from engine.state import QUESTION_PHASES


class QuestionKind(StrEnum):
    """What a seat is asked. The values are the strings the question tokens and the DM
    controls' custom ids have always used; a question of a game phase (宣点, 革命, 要头) is
    named as its :class:`~engine.options.Phase` (``QuestionKind(game.phase)``).

    >>> QuestionKind("declare").yes_or_no, QuestionKind.TURN.yes_or_no
    (True, False)
    """

    DECLARE = "declare"  # 宣点
    REVOLT = "revolt"  # 革命
    HEAD = "head"  # 要头 / 无头: the revolutionary's opposite chooses (够死级 on)
    RETURN = "return"  # 还贡: give cards back for the tribute received
    BURN = "burn"  # the burn window (烧牌): burn the gouji hand just played, or not
    TURN = "turn"  # a turn: play (lead or beat), pass or yield

    @property
    def yes_or_no(self) -> bool:
        """A question of a game phase, answered by one of two verbs and no cards (宣点, 革命,
        要头): the engine's question phases."""
        return self.value in QUESTION_PHASES


def question_kind(live: LiveTable) -> QuestionKind:
    """What the table asks now (a series with a current deal is on): 还贡 while tribute is
    returned, the game's yes/no phase, the burn window, else a turn."""
    game = live.current.game
    if game is None:
        return QuestionKind.RETURN
    if game.phase in QUESTION_PHASES:
        return QuestionKind(game.phase.value)
    return QuestionKind.BURN if game.window is not None else QuestionKind.TURN


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
        return self.kind == QuestionKind.TURN and self.standing is None

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
