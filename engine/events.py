"""What an action changed, as events: the one place that works it out.

Take a :func:`snapshot` of a game before an action and call :func:`changes` after it; the
events come in a fixed order (the action itself, then what it caused). The tribute paid at
the start of a deal: :func:`tribute_paid`. Pure and public: the
terminal game, the bot and ``gouji replay`` each word the same events their own way.

Each kind is a small frozen dataclass, so a new rule adds a kind (or a field) here and every
reader that does not know it just skips it.

>>> from engine.game import Game
>>> game = Game.from_deal(4)
>>> before = snapshot(game)
>>> for seat in range(6):
...     game.apply(Action(seat, "nodeclare"))
>>> [type(e).__name__ for e in changes(before, game)]
['Declared', 'PhaseChanged', 'Lead']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from .actions import Action, Verb
from .burning import ONGOING
from .cards import format_cards
from .game import Game
from .hands import Play
from .options import Phase
from .scoring import counts_as_open, opposite_of
from .series import SeriesGame


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The public state of a game that :func:`changes` compares."""

    phase: str
    cards_left: tuple[int, ...]
    places: tuple[int | None, ...]
    opened: tuple[bool, ...]
    burns: tuple[tuple[int, int, str], ...]  # (burner, burned, result)
    stifled: tuple[tuple[int, int], ...]  # (stifled seat, by)
    melee: bool
    standing_seat: int | None


def snapshot(game: Game) -> Snapshot:
    """The public state of ``game`` now."""
    return Snapshot(
        phase=game.phase,
        cards_left=tuple(sum(c) for c in game.counts),
        places=tuple(game.places),
        opened=tuple(game.opened),
        burns=tuple((b.burner, b.burned, b.result) for b in game.burns),
        stifled=tuple(game.stifled),
        melee=game.melee,
        standing_seat=game.standing_seat,
    )


# ----------------------------------------------------------------------------- the action
@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` played ``cards`` (a gouji hand if ``gouji``)."""

    seat: int
    cards: str
    gouji: bool


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class Yielded:
    """让牌: ``seat`` yielded on its opposite's hand."""

    seat: int


# ----------------------------------------------------------------------------- what it caused
@dataclass(frozen=True, slots=True)
class HandChanged:
    """``seat`` holds other cards than before (it played, burned, returned...)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Declared:
    """The declaring (宣点) is over: ``seats`` declared (maybe none)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Revolted:
    """The revolution (革命) is over: ``seats`` revolted, ``auto`` of them without asking
    (bie-san: no 3, no 2, no joker)."""

    seats: tuple[int, ...]
    auto: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HeadChosen:
    """够死级 (§3.4): the revolutionary's opposite ``seat`` chose 要头 (``kept``) or 无头."""

    seat: int
    kept: bool


@dataclass(frozen=True, slots=True)
class PhaseChanged:
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class BurnStarted:
    """烧牌: the game's burn number ``index`` (from 0): ``burner`` takes over ``burned``'s
    gouji hand, with ``cards``."""

    index: int
    burner: int
    burned: int
    cards: str


@dataclass(frozen=True, slots=True)
class BurnEnded:
    """The game's burn number ``index`` (from 0) is decided: ``result`` is one of
    :mod:`engine.burning`'s results (success, broken, ...)."""

    index: int
    burner: int
    burned: int
    result: str


@dataclass(frozen=True, slots=True)
class Opened:
    """开点: ``seat`` counts as opened; ``own`` unless its opposite's revolt opened it."""

    seat: int
    own: bool


@dataclass(frozen=True, slots=True)
class Placed:
    """``seat`` has its place (1 头科 … 6 大落); ``went_out`` if it played its last card
    (a revolutionary or a leaver is placed without)."""

    seat: int
    place: int
    went_out: bool


@dataclass(frozen=True, slots=True)
class Stifled:
    """闷: ``seat`` is stifled by ``by``."""

    seat: int
    by: int


@dataclass(frozen=True, slots=True)
class MeleeBegan:
    """四户乱缠 begins."""


@dataclass(frozen=True, slots=True)
class Lead:
    """``seat`` leads: ``how`` is ``first`` (play begins), ``round`` (its hand stood: a new
    round) or ``takeover`` (接风: the lead passed on)."""

    seat: int
    how: str


# ----------------------------------------------------------------------------- tribute
@dataclass(frozen=True, slots=True)
class TributePaid:
    """进贡: ``payer`` paid ``cards`` to ``receiver`` (``kind``: place, point, burn, ...)."""

    payer: int
    receiver: int
    cards: str
    kind: str


Event = (
    Played
    | Passed
    | Yielded
    | HandChanged
    | Declared
    | Revolted
    | HeadChosen
    | PhaseChanged
    | BurnStarted
    | BurnEnded
    | Opened
    | Placed
    | Stifled
    | MeleeBegan
    | Lead
    | TributePaid
)


E = TypeVar("E")


def of_kind(events: list[Event], kind: type[E]) -> list[E]:
    """The events of one kind, in order (each reader words the kinds in its own order)."""
    return [e for e in events if isinstance(e, kind)]


def acted(action: Action) -> list[Event]:
    """The public event of the action itself: a play, a pass or a yield (answers to
    questions are hidden until the question closes; burns show as :class:`BurnStarted`)."""
    if action.verb == Verb.PLAY and isinstance(action.cards, Play):
        return [Played(action.seat, str(action.cards), action.cards.is_gouji)]
    if action.verb == Verb.PASS:
        return [Passed(action.seat)]
    if action.verb == Verb.YIELD:
        return [Yielded(action.seat)]
    return []


def changes(before: Snapshot, game: Game, action: Action | None = None) -> list[Event]:
    """What changed in ``game`` since ``before`` (and, if given, the ``action`` that did it)."""
    after = snapshot(game)
    events: list[Event] = acted(action) if action is not None else []
    events += [HandChanged(s) for s in range(6) if before.cards_left[s] != after.cards_left[s]]
    if before.phase == Phase.DECLARE and after.phase != Phase.DECLARE:
        events.append(Declared(tuple(s for s in range(6) if game.declared[s])))
    if before.phase in (Phase.DECLARE, Phase.REVOLT) and after.phase not in (
        Phase.DECLARE,
        Phase.REVOLT,
    ):
        revolted = tuple(s for s in range(6) if game.revolted[s])
        if revolted:
            events.append(Revolted(revolted, tuple(s for s in revolted if s in game.auto_revolted)))
    if before.phase == Phase.HEAD and after.phase != Phase.HEAD:
        rev = game.revolutionary  # the question was its opposite's
        if rev is not None:
            events.append(HeadChosen(opposite_of(rev), game.head_kept[opposite_of(rev)] > 0))
    if after.phase != before.phase:
        events.append(PhaseChanged(before.phase, after.phase))
    for i in range(len(before.burns), len(after.burns)):
        burner, burned, _ = after.burns[i]
        cards = game.last_action[burner] or ""
        events.append(BurnStarted(i, burner, burned, cards.removeprefix("burn ")))
    for i, (burner, burned, result) in enumerate(after.burns):
        old = before.burns[i][2] if i < len(before.burns) else ONGOING
        if result != old:
            events.append(BurnEnded(i, burner, burned, result))
    for s in range(6):
        if after.opened[s] and not before.opened[s]:
            events.append(Opened(s, counts_as_open(game.opened, game.revolted, s)))
    for s in range(6):
        place = after.places[s]
        if place is not None and before.places[s] is None:
            went_out = before.cards_left[s] > 0 and after.cards_left[s] == 0
            events.append(Placed(s, place, went_out))
    events += [Stifled(seat, by) for seat, by in after.stifled[len(before.stifled) :]]
    if after.melee and not before.melee:
        events.append(MeleeBegan())
    if after.phase == Phase.PLAY and before.phase != Phase.PLAY and game.leader is not None:
        events.append(Lead(game.leader, "first"))
    elif (
        after.phase == Phase.PLAY
        and game.standing is None
        and before.standing_seat is not None
        and game.turn is not None
    ):
        how = "round" if game.turn == before.standing_seat else "takeover"
        events.append(Lead(game.turn, how))
    return events


def tribute_paid(deal: SeriesGame) -> list[TributePaid]:
    """The tribute paid at the start of ``deal``."""
    return [TributePaid(p.payer, p.receiver, format_cards(p.cards), p.kind) for p in deal.paid]
