"""The state of one game and the questions about it that need no rule logic: who is still
in play, who is headless, whom the game waits on — the base of :class:`engine.game.Game`
and of its parts (:class:`~engine.prelude.Prelude`, :class:`~engine.burning.Burning`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, NotYourTurnError, Verb
from .cards import Card, card_sort_key, counts_of, format_counts
from .hands import Play
from .options import Options, Phase
from .scoring import opposite_of

# A burn's result; "failed" only with burn_check "seeds" (§9).
ONGOING, SUCCESS, BROKEN, FAILED = "ongoing", "success", "broken", "failed"


@dataclass(frozen=True, slots=True)
class PhaseQuestion:
    """The question a game phase asks its seats (answered by seats, no turns): its ``yes``
    and ``no`` verbs (the no is the default, listed first), the refusal code of any other
    verb then, and whether the answers stay ``hidden`` until the phase is over (asked of
    every seat at once)."""

    yes: Verb
    no: Verb
    refusal: str
    hidden: bool


#: The question phases and what each asks (宣点, 革命, 要头).
QUESTIONS = {
    Phase.DECLARE: PhaseQuestion(Verb.DECLARE, Verb.NODECLARE, "declare_time", hidden=True),
    Phase.REVOLT: PhaseQuestion(Verb.REVOLT, Verb.NOREVOLT, "revolt_time", hidden=True),
    Phase.HEAD: PhaseQuestion(Verb.KEEPHEAD, Verb.NOKEEPHEAD, "head_time", hidden=False),
}
QUESTION_PHASES = tuple(QUESTIONS)
#: Every question's answers: each one's yes and no, in :data:`QUESTIONS`' order.
QUESTION_ANSWERS = tuple(verb for asked in QUESTIONS.values() for verb in (asked.yes, asked.no))


@dataclass(slots=True)
class Burn:
    """A burn (烧牌, docs/rules.en.md §4): ``burner`` took over a gouji hand of ``burned``."""

    burner: int
    burned: int
    result: str = ONGOING

    def to_json(self) -> dict[str, int | str]:
        return {"burner": self.burner, "burned": self.burned, "result": self.result}


class GameState:
    """Every field of a game (see :class:`engine.game.Game` for how it moves on)."""

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        *,
        options: Options | None = None,
        seed: int | None = None,
    ) -> None:
        if len(hands) != 6:
            raise ValueError(f"a game needs six hands, got {len(hands)}")
        self.options = options or Options()
        self.seed = seed
        self.cards: list[list[Card]] = [sorted(h, key=card_sort_key) for h in hands]
        self.counts: list[list[int]] = [counts_of(h) for h in self.cards]
        self.dealt: list[list[Card]] = [list(h) for h in self.cards]
        self.played = [0] * 15  # rank counts of every card played (public: the 记牌器)
        self.phase: Phase = Phase.DECLARE
        self.declared = [False] * 6
        self.revolted = [False] * 6
        self.phase_answers: dict[int, bool] = {}  # simultaneous answers of this phase
        self.phase_seats: list[int] = list(range(6))  # seats that answer this phase
        self.bought: list[tuple[int, int, int, Card | None]] = []  # (buyer, seller, 3, paid)
        self.leader: int | None = None
        self.places: list[int | None] = [None] * 6
        self.finish_order: list[int] = []
        self.opened = [False] * 6
        self.melee = False
        self.melee_pending = False
        self.left: list[int] = []
        self.actions: list[Action] = []
        # round state
        self.standing: Play | None = None
        self.standing_seat: int | None = None
        self.standing_restricted = False  # only the opposite / headless seats may answer
        self.passed = [False] * 6
        self.queue: list[int] = []  # seats still to answer the standing hand (before melee)
        self.yielder: int | None = None  # who yielded on the standing hand (让牌)
        self.turn: int | None = None
        self.melee_passes = 0
        self.last_action: list[str | None] = [None] * 6  # this round, for display
        # burns
        self.burns: list[Burn] = []
        self.current_burn: Burn | None = None
        self.window: dict[int, Play | None] | None = None  # burn window: seat -> choice
        self.window_seats: list[int] = []
        # bie-san
        self.stifle_watch: int | None = None  # seat whose hand, if beaten, stifles it
        self.stifled: list[tuple[int, int]] = []  # (stifled seat, by)
        self.three_rule = [self.options.bie_san] * 6
        self.auto_revolted: list[int] = []  # bie-san: no 3, no 2, no joker
        # 够死级 (option gou_si_ji)
        self.head_kept = [0] * 6  # 要头: 够死级 hands each seat still has (0–3)
        self.standing_dead = False  # the standing hand is 够死级: answered only by burning
        self._leader_after_question = 0  # the first leader, while 要头 is asked

    # ----------------------------------------------------------------- questions
    def is_active(self, seat: int) -> bool:
        """Still in play: holds cards, has not finished, did not revolt."""
        return self.places[seat] is None and not self.revolted[seat]

    def active_seats(self) -> list[int]:
        return [s for s in range(6) if self.places[s] is None and not self.revolted[s]]

    def is_headless(self, seat: int) -> bool:
        """无头 (§3.4): the seat's opposite has finished or revolted — unless the seat chose
        要头 and still has 够死级 hands."""
        opp = opposite_of(seat)
        return (self.places[opp] is not None or self.revolted[opp]) and not self.head_kept[seat]

    @property
    def revolutionary(self) -> int | None:
        """The seat that revolted (革命), if one did."""
        return next((s for s in range(6) if self.revolted[s]), None)

    def has_head(self, seat: int) -> bool:
        return not self.is_headless(seat)

    @property
    def finished(self) -> bool:
        return self.phase == Phase.FINISHED

    @property
    def to_act(self) -> list[int]:
        """The seats the game waits on (several during a simultaneous phase or a burn
        window), ``[]`` once finished or void."""
        if self.phase in QUESTION_PHASES:
            return [s for s in self.phase_seats if s not in self.phase_answers]
        if self.phase != Phase.PLAY:
            return []
        if self.window is not None:
            return [s for s in self.window_seats if s not in self.window]
        return [self.turn] if self.turn is not None else []

    def hand_text(self, seat: int) -> str:
        return format_counts(self.counts[seat])

    def _refuse_wrong_seat(self, seat: int) -> None:
        waiting = self.to_act
        who = ", ".join(map(str, waiting))
        if self.phase == Phase.DECLARE:
            raise NotYourTurnError("already_declared", seat=seat)
        if self.phase == Phase.REVOLT:
            if seat in self.phase_answers:
                raise NotYourTurnError("already_revolt_answered", seat=seat)
            raise NotYourTurnError("may_not_revolt", seat=seat)
        if self.phase == Phase.HEAD:
            raise NotYourTurnError("head_seat", seat=self.phase_seats[0])
        if self.window is not None:
            if seat not in self.window_seats:
                raise NotYourTurnError("window_waits", seats=who)
            raise NotYourTurnError("already_burn_answered", seat=seat)
        raise NotYourTurnError("not_your_turn", seats=who)

    def _holds(self, seat: int, play: Play) -> bool:
        counts = self.counts[seat]
        return all(counts[r] >= n for r, n in play.rank_counts())

    def _standing(self) -> Play:
        """The standing hand, where the rules need one."""
        if self.standing is None:
            raise RuntimeError("no standing hand")
        return self.standing

    def _standing_seat(self) -> int:
        if self.standing_seat is None:
            raise RuntimeError("no standing hand")
        return self.standing_seat

    def _new_round(self, leader: int) -> None:
        self.standing, self.standing_seat = None, None
        self.standing_restricted = False
        self.standing_dead = False
        self.passed = [False] * 6
        self.queue = []
        self.yielder = None
        self.melee_passes = 0
        self.last_action = [None] * 6
        self.turn = leader
