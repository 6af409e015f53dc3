"""What one seat may know of a game: its own cards, everyone's card counts, the table and
the public history — and nothing else. AI players and the bot see a game only through this
(built by :meth:`engine.game.Game.observe`; this module does not import the game).

>>> from engine.game import Game
>>> obs = Game.from_position(["KK", "QQ", "5", "6", "7", "8"], leader=0).observe(1)
>>> obs.hand, obs.card_counts
('QQ', (2, 2, 1, 1, 1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, Verb
from .cards import Card, format_counts
from .hands import Play
from .options import Options, Phase
from .state import QUESTIONS


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a game. ``counts``, ``played`` and ``unseen`` are 15 rank counts."""

    seat: int
    phase: Phase
    options: Options
    cards: tuple[Card, ...]  # own cards, with suits
    counts: tuple[int, ...]  # own rank counts
    card_counts: tuple[int, ...]  # cards held by each seat
    unseen: tuple[int, ...]  # rank counts of all cards held by the other seats
    played: tuple[int, ...]  # rank counts of every card played so far
    declared: tuple[bool, ...]  # known once declaring is over; own answer always
    revolted: tuple[bool, ...]
    places: tuple[int | None, ...]
    opened: tuple[bool, ...]
    headless: tuple[bool, ...]
    passed: tuple[bool, ...]
    melee: bool
    leader: int | None
    to_act: tuple[int, ...]
    standing: Play | None
    standing_seat: int | None
    standing_restricted: bool
    yielder: int | None
    burner: int | None  # a burn in progress: who burns …
    burned: int | None  # … whose hand
    burns: tuple[tuple[int, int, str], ...]  # (burner, burned, result)
    stifled: tuple[tuple[int, int], ...]
    last_action: tuple[str | None, ...]  # each seat's last action this round
    history: tuple[str, ...]  # public actions so far, in record notation
    legal_actions: tuple[Action, ...]  # what this seat may do now
    three_rule: bool  # bie-san: this seat's 3s may only go out last
    gou_si_ji: tuple[int, ...] = (0,) * 6  # 够死级 hands each seat still has after 要头
    standing_dead: bool = False  # the standing hand is 够死级: only a burn may take it

    @property
    def hand(self) -> str:
        return format_counts(self.counts)


def hidden_from(phase: Phase, window_open: bool) -> frozenset[str]:
    """The verbs whose answers stay hidden now: those of a simultaneous phase, and of an
    open burn window, until it closes (a seat always sees its own)."""
    asked = QUESTIONS.get(phase)
    if asked is not None:
        return frozenset({asked.yes, asked.no}) if asked.hidden else frozenset()
    return frozenset({Verb.BURN, Verb.NOBURN}) if window_open else frozenset()


def public_history(actions: Sequence[Action], seat: int, hidden: frozenset[str]) -> list[str]:
    """The actions ``seat`` may see, in record notation: all but the others' answers in the
    open phase or burn window (the tail of ``actions`` made of ``hidden`` verbs)."""
    start = len(actions)
    while hidden and start > 0 and actions[start - 1].verb in hidden | {Verb.LEAVE}:
        start -= 1
    return [
        str(a)
        for i, a in enumerate(actions)
        if not (i >= start and a.verb in hidden and a.seat != seat)
    ]
