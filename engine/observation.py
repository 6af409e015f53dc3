"""What one seat may know of a game: its own cards, everyone's card counts, the table and
the public history — and nothing else. AI players and the bot see a game only through this.

>>> from engine.game import Game
>>> obs = observe(Game.from_position(["KK", "QQ", "5", "6", "7", "8"], leader=0), 1)
>>> obs.hand, obs.card_counts
('QQ', (2, 2, 1, 1, 1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import BURN, DECLARE, NOBURN, NODECLARE, NOREVOLT, REVOLT, Action
from .cards import Card, format_counts
from .game import Game, Options
from .hands import Play


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a game. ``counts``, ``played`` and ``unseen`` are 15 rank counts."""

    seat: int
    phase: str
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

    @property
    def hand(self) -> str:
        return format_counts(self.counts)


def observe(game: Game, seat: int) -> Observation:
    """The observation of ``seat``."""
    window_open = game.window is not None
    history = []
    # Answers of a simultaneous phase, and of an open burn window, stay hidden until it
    # closes; a seat always sees its own.
    if game.phase == "declare":
        open_verbs = {DECLARE, NODECLARE}
    elif game.phase == "revolt":
        open_verbs = {REVOLT, NOREVOLT}
    else:
        open_verbs = {BURN, NOBURN} if window_open else set()
    hidden_from = _hidden_tail_start(game, open_verbs)
    for i, a in enumerate(game.actions):
        if i >= hidden_from and a.verb in open_verbs and a.seat != seat:
            continue
        history.append(str(a))
    declared = (
        tuple(game.declared)
        if game.phase != "declare"
        else tuple(s == seat and game.phase_answers.get(s, False) for s in range(6))
    )
    unseen = [0] * 15
    for s in range(6):
        if s != seat:
            for r, n in enumerate(game.counts[s]):
                unseen[r] += n
    burn = game.current_burn
    return Observation(
        seat=seat,
        phase=game.phase,
        options=game.options,
        cards=tuple(game.cards[seat]),
        counts=tuple(game.counts[seat]),
        card_counts=tuple(sum(c) for c in game.counts),
        unseen=tuple(unseen),
        played=tuple(game.played),
        declared=declared,
        revolted=tuple(game.revolted),
        places=tuple(game.places),
        opened=tuple(game.opened),
        headless=tuple(game.is_active(s) and game.is_headless(s) for s in range(6)),
        passed=tuple(game.passed),
        melee=game.melee,
        leader=game.leader,
        to_act=tuple(game.to_act),
        standing=game.standing,
        standing_seat=game.standing_seat,
        standing_restricted=game.standing_restricted,
        yielder=game.yielder,
        burner=burn.burner if burn else None,
        burned=burn.burned if burn else None,
        burns=tuple((b.burner, b.burned, b.result) for b in game.burns),
        stifled=tuple(game.stifled),
        last_action=tuple(game.last_action),
        history=tuple(history),
        legal_actions=tuple(game.legal_actions(seat)),
        three_rule=game.three_rule[seat],
    )


def _hidden_tail_start(game: Game, open_verbs: set[str]) -> int:
    """Index of the first action of the open phase or burn window."""
    i = len(game.actions)
    while open_verbs and i > 0 and game.actions[i - 1].verb in open_verbs | {"leave"}:
        i -= 1
    return i
