"""One game of Gouji, turn by turn (docs/rules.en.md §3–§7).

A :class:`Game` is built from hands (a full deal or any position) and options, and moves on
only through :meth:`Game.apply`, which takes an :class:`~engine.actions.Action` from a seat
and either changes the state or raises an :class:`~engine.actions.IllegalActionError` whose
message a player can act on — in which case nothing changed. The same hands, options and
actions always give the same game, so a game *is* its log.

Phases (:class:`~engine.options.Phase`): ``declare`` (宣点) → buying 3s (automatic, bie-san
only) → ``revolt`` (革命, only when someone may) → first leader (上班) → ``head`` (要头 /
无头, only after a revolution with 够死级 on) → ``play`` → ``finished``; a deal where two or
more revolt ends in ``void`` (the series deals again). The table options
(:class:`~engine.options.Options`, docs/rules.en.md §9) are fixed for the game.

>>> g = Game.from_position(["TTTTT6", "KK55", "AA44", "J2", "QQQ9", "889"], leader=0)
>>> g.apply_text("0 play TTTTT"); g.to_act
[3]
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, IllegalActionError, NotYourTurnError, Verb
from .burning import (
    BROKEN,
    FAILED,
    ONGOING,
    SUCCESS,
    Burn,
    Burning,
    burn_completable,
    sets_needed,
)
from .cards import (
    THREE,
    Card,
    parse_cards,
)
from .hands import Play
from .movegen import answer_plays, lead_plays
from .observation import Observation, hidden_from, public_history
from .options import Options, Phase
from .prelude import Prelude, next_seat
from .scoring import TributeOwed, is_sweep, opposite_of, place_points, team_of, tribute_owed
from .state import QUESTION_PHASES, QUESTIONS

__all__ = [
    "BROKEN",
    "FAILED",
    "ONGOING",
    "SUCCESS",
    "Burn",
    "Game",
    "Options",
    "Phase",
    "burn_completable",
    "next_seat",
    "sets_needed",
]


class Game(Prelude, Burning):
    """The state of one game. Build with :meth:`from_deal` or :meth:`from_position`."""

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_deal(cls, seed: int, options: Options | None = None) -> Game:
        """A real game: deal from ``seed`` and start with declaring."""
        from .cards import deal

        return cls.from_hands(deal(seed), options=options, seed=seed)

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Sequence[Card]],
        *,
        options: Options | None = None,
        seed: int | None = None,
    ) -> Game:
        """A real game from hands as dealt (any size): it starts with declaring, so every
        seat must hold at least one card (docs/record.md)."""
        for seat, cards in enumerate(hands):
            if not cards:
                raise ValueError(
                    f"seat {seat} has no cards: in a real game every seat is dealt cards "
                    "(only a revolted seat's hand is empty, in a position with a leader)"
                )
        return cls(hands, options=options, seed=seed)

    @classmethod
    def from_position(
        cls,
        hands: Sequence[str | Sequence[Card]],
        leader: int,
        *,
        declared: Sequence[bool] | None = None,
        revolted: Sequence[int] = (),
        options: Options | None = None,
        buy_threes: bool = False,
    ) -> Game:
        """A position (like a chess FEN): explicit hands of any size, the first leader, who
        declared and who revolted; play starts at once (after buying 3s in bie-san, when
        ``buy_threes``: a series game given as a position)."""
        cards = [parse_cards(h) if isinstance(h, str) else list(h) for h in hands]
        game = cls(cards, options=options)
        for seat in range(6):
            if not cards[seat] and seat not in revolted:
                raise ValueError(f"seat {seat} has no cards and did not revolt")
        game.declared = [bool(x) for x in (declared or [False] * 6)]
        if buy_threes:
            game._buy_threes()
        for seat in revolted:
            game.revolted[seat] = True
        if sum(game.revolted) > 1 and not buy_threes:
            raise ValueError("two or more revolted: the deal is void")
        game._after_revolution(leader=leader)
        return game

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know (see :mod:`engine.observation`)."""
        declaring = self.phase == Phase.DECLARE
        unseen = [0] * 15
        for s in range(6):
            if s != seat:
                for r, n in enumerate(self.counts[s]):
                    unseen[r] += n
        burn = self.current_burn
        return Observation(
            seat=seat,
            phase=self.phase,
            options=self.options,
            cards=tuple(self.cards[seat]),
            counts=tuple(self.counts[seat]),
            card_counts=tuple(sum(c) for c in self.counts),
            unseen=tuple(unseen),
            played=tuple(self.played),
            declared=tuple(
                (s == seat and self.phase_answers.get(s, False)) if declaring else self.declared[s]
                for s in range(6)
            ),
            revolted=tuple(self.revolted),
            places=tuple(self.places),
            opened=tuple(self.opened),
            headless=tuple(self.is_active(s) and self.is_headless(s) for s in range(6)),
            passed=tuple(self.passed),
            melee=self.melee,
            leader=self.leader,
            to_act=tuple(self.to_act),
            standing=self.standing,
            standing_seat=self.standing_seat,
            standing_restricted=self.standing_restricted,
            yielder=self.yielder,
            burner=burn.burner if burn else None,
            burned=burn.burned if burn else None,
            burns=tuple((b.burner, b.burned, b.result) for b in self.burns),
            stifled=tuple(self.stifled),
            last_action=tuple(self.last_action),
            history=tuple(
                public_history(self.actions, seat, hidden_from(self.phase, self.window is not None))
            ),
            legal_actions=tuple(self.legal_actions(seat)),
            three_rule=self.three_rule[seat],
            gou_si_ji=tuple(self.head_kept),
            standing_dead=self.standing_dead,
        )

    def copy(self) -> Game:
        """An independent copy (for search): every field, lists and dicts copied, burns
        cloned (the current one kept as the same burn); cards are immutable."""
        g = Game.__new__(Game)
        for name, value in vars(self).items():
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            elif isinstance(value, dict):
                value = dict(value)
            setattr(g, name, value)
        g.burns = [Burn(b.burner, b.burned, b.result) for b in self.burns]
        g.current_burn = None
        for mine, theirs in zip(self.burns, g.burns, strict=True):
            if mine is self.current_burn:
                g.current_burn = theirs
        return g

    def may_answer(self, seat: int) -> bool:
        """May ``seat`` answer the standing hand at all (before melee, §3)?"""
        q = self.standing_seat
        if q is None or seat == q or not self.is_active(seat):
            return False
        if self.melee:
            return True
        if self.standing_dead:
            return False  # 够死级: only a burn can take it
        if seat == opposite_of(q):
            return True
        if self.standing_restricted:
            return self.is_headless(seat) and not self.passed[seat]
        return not self.passed[seat]

    # ----------------------------------------------------------------- legal actions
    def legal_plays(self, seat: int) -> list[Play]:
        """The hands ``seat`` may play now (lead or answer); [] when it is not its turn."""
        if self.phase != Phase.PLAY or self.window is not None or seat != self.turn:
            return []
        counts = self.counts[seat]
        bie = self.three_rule[seat]
        if self.standing is None:
            plays = lead_plays(counts, bie)
            if self._burn_limits_leads(seat):
                plays = [p for p in plays if self._burn_lead_ok(seat, p)]
            return plays
        return answer_plays(counts, self.standing, bie)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (leave is always possible and not listed). A
        question's "no" comes first (nodeclare, norevolt, nokeephead, noburn): its default
        answer, the one the table takes when the clock runs out."""
        if seat not in self.to_act:
            return []
        asked = QUESTIONS.get(self.phase)
        if asked is not None:
            return [Action(seat, asked.no), Action(seat, asked.yes)]
        if self.window is not None:
            return [Action(seat, Verb.NOBURN)] + [
                Action(seat, Verb.BURN, p) for p in self._burning_plays(seat)
            ]
        actions = [Action(seat, Verb.PLAY, p) for p in self.legal_plays(seat)]
        if self.standing is not None:
            actions.insert(0, Action(seat, Verb.PASS))
            if self.may_yield(seat):
                actions.insert(1, Action(seat, Verb.YIELD))
        return actions

    def only_pass(self, seat: int) -> bool:
        """Whether passing is all ``seat`` may do now: ``legal_actions(seat)`` is exactly
        a pass (the table's auto-pass), found without listing a lead's hundreds of plays."""
        if seat not in self.to_act or self.phase in QUESTIONS or self.window is not None:
            return False
        return self.standing is not None and not self.may_yield(seat) and not self.legal_plays(seat)

    def may_yield(self, seat: int) -> bool:
        """让牌 (§3.1): a normal hand of the seat's opposite that both upstream seats have
        passed on (or are out of play), no yield yet on this hand, someone left to try it."""
        q = self.standing_seat
        if self.melee or q is None or self.standing_restricted or self.yielder is not None:
            return False
        if opposite_of(seat) != q or self._standing().is_gouji:
            return False
        for up in (next_seat(seat, -1), next_seat(seat, -2)):
            if self.is_active(up) and not self.passed[up]:
                return False
        return len(self.queue) > 1

    # ----------------------------------------------------------------- applying
    def apply_text(self, text: str) -> None:
        """Apply an action written as ``"SEAT VERB [CARDS]"``."""
        self.apply(Action.parse(text))

    def apply(self, action: Action) -> None:
        """Apply ``action`` or raise :class:`IllegalActionError` (nothing changes then)."""
        seat, verb = action.seat, action.verb
        if not 0 <= seat <= 5:
            raise IllegalActionError("no_seat", seat=seat)
        if self.phase in (Phase.FINISHED, Phase.VOID):
            raise IllegalActionError("game_over")
        if verb == Verb.LEAVE:
            if seat in self.left:
                raise IllegalActionError("already_left", seat=seat)
            self.left.append(seat)
            self.actions.append(action)
            return
        if self.phase in QUESTION_PHASES:
            self._apply_phase_answer(action)
        elif self.window is not None:
            self._apply_window_answer(action)
            if not self.to_act:
                self._close_window()
        else:
            self._apply_turn(action)
        self.actions.append(action)

    def _apply_turn(self, action: Action) -> None:
        seat, verb = action.seat, action.verb
        if seat != self.turn:
            if verb in (Verb.BURN, Verb.NOBURN):
                raise IllegalActionError("no_window")
            if (
                self.standing is not None
                and verb in (Verb.PLAY, Verb.PASS, Verb.YIELD)
                and self.is_active(seat)
            ):
                self._refuse_not_allowed(seat)
            self._refuse_wrong_seat(seat)
        if verb == Verb.PLAY:
            self._check_play(seat, action.play)
            self._play(seat, action.play)
        elif verb == Verb.PASS:
            if self.standing is None:
                raise IllegalActionError("lead_no_pass")
            self._pass(seat)
        elif verb == Verb.YIELD:
            if not self.may_yield(seat):
                raise IllegalActionError(self._why_not_yield(seat))
            self._yield(seat)
        elif verb in (Verb.BURN, Verb.NOBURN):
            raise IllegalActionError("no_window")
        else:
            raise IllegalActionError("verb_not_now", verb=verb)

    def _refuse_not_allowed(self, seat: int) -> None:
        """A seat out of turn that may not answer at all gets the rule, not just the turn."""
        q = self._standing_seat()
        if not self.melee and self.standing_dead:
            raise NotYourTurnError("gou_si_ji", q=q)
        if not self.melee and self.standing_restricted and not self.may_answer(seat):
            raise NotYourTurnError("gouji_opposite_only", seat=seat, q=q, opp=opposite_of(q))
        if not self.melee and self.passed[seat] and not self.may_answer(seat):
            raise NotYourTurnError("passed_round", seat=seat)

    def _why_not_yield(self, seat: int) -> str:
        """The code of the reason ``seat`` may not yield now."""
        q = self.standing_seat
        if self.melee:
            return "yield_melee"
        if q is None:
            return "yield_lead"
        if opposite_of(seat) != q:
            return "yield_opposite_only"
        if self.standing_restricted or self._standing().is_gouji:
            return "yield_gouji"
        if self.yielder is not None:
            return "yield_twice"
        if len(self.queue) <= 1:
            return "yield_nobody"
        return "yield_upstream"

    def _check_play(self, seat: int, play: Play) -> None:
        if not self._holds(seat, play):
            raise IllegalActionError("not_held_hand", cards=play, hand=self.hand_text(seat))
        if self.three_rule[seat] and play.has_three:
            if play.size != sum(self.counts[seat]) or play.twos or play.jokers:
                raise IllegalActionError("three_last")
        if self.standing is None:
            if self._burn_limits_leads(seat) and not self._burn_lead_ok(seat, play):
                raise IllegalActionError("burn_lead")
            return
        if play not in answer_plays(self.counts[seat], self.standing, self.three_rule[seat]):
            if play.size != self.standing.size:
                raise IllegalActionError(
                    "wrong_size", cards=play, standing=self.standing, size=self.standing.size
                )
            raise IllegalActionError("not_higher", cards=play, standing=self.standing)

    # ----------------------------------------------------------------- play mechanics
    def _remove(self, seat: int, play: Play) -> None:
        counts, cards = self.counts[seat], self.cards[seat]
        for r, n in play.rank_counts():
            counts[r] -= n
            self.played[r] += n
            i = 0
            while n:
                if cards[i].rank == r:
                    del cards[i]
                    n -= 1
                else:
                    i += 1

    def _play(self, seat: int, play: Play, *, burning: bool = False) -> None:
        """``seat`` plays ``play``: a lead, a beat, or (``burning``) a burn out of turn."""
        beaten = self.standing_seat if self.standing is not None else None
        beaten_hand = self.standing
        fails = beaten is None and self._burn_lead_fails(seat, play)
        if beaten is not None:
            self._on_beaten(beaten, seat)
        if burning:
            assert beaten is not None, "a burn beats a standing hand"
            self.burns.append(Burn(seat, beaten))
            self.current_burn = self.burns[-1]
        self.standing_dead = not burning and self._is_gou_si_ji(seat, play, beaten, beaten_hand)
        self._remove(seat, play)
        self.last_action[seat] = f"{Verb.BURN.value} {play}" if burning else str(play)
        self.standing, self.standing_seat = play, seat
        self.yielder = None
        went_out = sum(self.counts[seat]) == 0
        burn = self.current_burn
        if went_out:
            self._finish(seat)
            if burn is not None and burn.burner == seat:
                burn.result = SUCCESS  # 烧成功: the burner played their last card
                self.current_burn = None
        elif fails and burn is not None:
            # 烧失败 (§9, burn_check "seeds"): the burner takes the lowest free place and
            # plays no more; the lead stands like a finished player's last hand.
            burn.result = FAILED
            self.current_burn = None
            self._finish(seat, place=max(p for p in range(1, 7) if p not in self.places))
            went_out = True
        if self.options.bie_san and self.three_rule[seat] and not went_out:
            c = self.counts[seat]
            if c[THREE] and c[THREE] == sum(c):
                self.stifle_watch = seat  # beaten by an opponent now, it is stifled (闷)
        if self._check_game_end():
            return
        self._after_play(seat, went_out)

    def _on_beaten(self, beaten: int, by: int) -> None:
        """Bookkeeping when the standing hand of ``beaten`` is beaten by ``by``."""
        if self.stifle_watch == beaten:
            if team_of(by) != team_of(beaten):
                self.stifled.append((beaten, by))
            self.stifle_watch = None
        burn = self.current_burn
        if burn is not None and burn.burner == beaten:
            burn.result = BROKEN  # 解烧
            self.current_burn = None
        if self.melee_pending:
            self._begin_melee()

    def _is_gou_si_ji(self, seat: int, play: Play, beaten: int | None, hand: Play | None) -> bool:
        """Is ``seat``'s (non-burning) ``play`` 够死级 (§3.4, option gou_si_ji)? One of the
        three gouji hands after 要头 (counted here), or the beat of 头科's or 二科's last
        hand, a gouji hand, by its opposite. Never in the melee."""
        if self.melee or not play.is_gouji:
            return False
        if self.head_kept[seat]:
            self.head_kept[seat] -= 1
            return True
        return (
            self.options.gou_si_ji
            and beaten == opposite_of(seat)
            and hand is not None
            and hand.is_gouji
            and self.places[beaten] in (1, 2)
        )

    def _begin_melee(self) -> None:
        """四户乱缠 (§3.5): the special rules stop. A burn still going on goes on (§4, Into
        the melee): from now the burner's leads are free; it breaks only if someone beats
        one of the burner's hands, and succeeds on the burner's last card."""
        self.melee_pending = False
        self.melee = True
        self.passed = [False] * 6
        self.queue = []
        self.head_kept = [0] * 6  # unused 够死级 hands lapse (§3.4)

    def _after_play(self, seat: int, went_out: bool) -> None:
        play = self._standing()
        if self.melee:
            self.standing_restricted = False
            self.melee_passes = 0
            self._advance_melee(seat)
            return
        ongoing_burn = self.current_burn is not None and self.current_burn.burner == seat
        restricted = (
            self.standing_dead
            or (play.is_gouji and self.has_head(seat))
            or (ongoing_burn and not went_out)
        )
        self.standing_restricted = restricted
        self.queue = [s for s in (next_seat(seat, k) for k in range(1, 6)) if self.may_answer(s)]
        if restricted:
            eligible = [
                s
                for s in range(6)
                if s != seat
                and s != opposite_of(seat)
                and self.is_active(s)
                and not self.is_headless(s)
                and self._burning_plays(s)
            ]
            if eligible:
                self.window = {}
                self.window_seats = eligible
                self.turn = None
                return
        self._next_answer()

    def _close_window(self) -> None:
        """Every eligible seat has answered the burn window: the first burner in priority
        takes the hand over out of turn, or the answers go on as usual."""
        outcome = self._window_outcome()
        if outcome is None:
            self._next_answer()
        else:
            self._play(*outcome, burning=True)  # a beat of the standing hand, out of turn

    def _next_answer(self) -> None:
        """Give the turn to the next seat in the answer queue, or end the round."""
        if self.queue:
            self.turn = self.queue[0]
            return
        self._round_won()

    def _pass(self, seat: int) -> None:
        self.last_action[seat] = Verb.PASS.value
        if self.melee:
            self.melee_passes += 1
            self._advance_melee(seat)
            return
        self.passed[seat] = True
        self.queue.pop(0)
        self._next_answer()

    def _yield(self, seat: int) -> None:
        self.last_action[seat] = Verb.YIELD.value
        self.yielder = seat
        # the next two seats that may answer go first, then the turn comes back once
        self.queue = self.queue[1:3] + [seat] + self.queue[3:]
        self._next_answer()

    def _advance_melee(self, last: int) -> None:
        q = self.standing_seat
        others = [s for s in self.active_seats() if s != q]
        if self.melee_passes >= len(others):
            self._round_won()
            return
        s = next_seat(last)
        while not self.is_active(s) or s == q:
            s = next_seat(s)
        self.turn = s

    def _round_won(self) -> None:
        """Nobody beat the standing hand: its player wins the round and leads, or 接风."""
        q, play = self._standing_seat(), self._standing()
        if not self.melee and self._opens(play) and not self.revolted[q]:
            self.opened[q] = True  # 开点
        if self.stifle_watch == q:
            self.stifle_watch = None
        if self.melee_pending:
            self._begin_melee()
        leader = q if self.is_active(q) else self._next_active(q)
        self._new_round(leader)

    def _opens(self, play: Play) -> bool:
        """Does winning a round with ``play`` open the point (开点, §3.2)? Strict: a gouji
        hand, not a single, no joker; wide (宽开点, §9): any gouji hand."""
        return play.is_gouji if self.options.open_rule == "wide" else play.opens_point

    def _next_active(self, seat: int) -> int:
        s = next_seat(seat)
        while not self.is_active(s):
            s = next_seat(s)
        return s

    # ----------------------------------------------------------------- finishing
    def _finish(self, seat: int, place: int | None = None) -> None:
        """走科: take the next free place (or ``place``, a failed burner's); the melee waits
        until this hand is settled."""
        self.places[seat] = self._next_place() if place is None else place
        self.finish_order.append(seat)
        if not self.melee and len(self.active_seats()) <= 4:
            self.melee_pending = True

    def _next_place(self) -> int:
        """The next free place from the top. A revolutionary holds 四科 from the revolution
        on and moves up to 三科 when its teammates take 头科 and 二科 (§3.3, §5)."""
        place = min(p for p in range(1, 7) if p not in self.places)
        rev = self.revolutionary
        if rev is not None and place == 3 and self.places[rev] == 4:
            mates = {self.places[m] for m in range(6) if team_of(m) == team_of(rev) and m != rev}
            if mates == {1, 2}:
                self.places[rev] = 3
                return 4
        return place

    def _check_game_end(self) -> bool:
        """The game ends when everyone still holding cards is on one team (§3.6)."""
        active = self.active_seats()
        if len({team_of(s) for s in active}) > 1:
            return False
        last = self.finish_order[-1] if self.finish_order else (self.leader or 0)
        # an unbeaten last hand that qualifies still opens (§3.2)
        q = self.standing_seat
        if (
            q is not None
            and self.places[q] is not None
            and not self.melee
            and self._opens(self._standing())
            and self.window is None
        ):
            self.opened[q] = True
        active.sort(key=lambda s: (sum(self.counts[s]), (s - last) % 6))
        for s in active:
            self.places[s] = self._next_place()
        self.phase = Phase.FINISHED
        self.turn = None
        self.window = None
        if self.current_burn is not None:
            self.current_burn.result = BROKEN
            self.current_burn = None
        return True

    # ----------------------------------------------------------------- results
    def successful_burns(self, seat: int | None = None) -> list[Burn]:
        """The burns that succeeded (烧成功: the burner went out), in order; ``seat``'s
        only, when given. The result card, the profiles and the tribute (烧贡) count these.

        >>> Game.from_deal(7).successful_burns()
        []
        """
        return [b for b in self.burns if b.result == SUCCESS and (seat is None or b.burner == seat)]

    @property
    def sweep(self) -> bool:
        """串三户 (§6)."""
        return self.phase == Phase.FINISHED and is_sweep(self.places)

    def points(self) -> list[int] | None:
        """Each seat's place points once finished (§8.6), else None."""
        if self.phase != Phase.FINISHED:
            return None
        return place_points(self._final_places(), self.sweep)

    def tribute(self) -> list[TributeOwed] | None:
        """What this game leaves owing to the next game of a series, once finished."""
        if self.phase != Phase.FINISHED:
            return None
        burns = [(b.burned, b.burner) for b in self.successful_burns()]
        return tribute_owed(self._final_places(), self.declared, self.opened, self.stifled, burns)

    def _final_places(self) -> list[int]:
        """Every seat's place, once the game is finished."""
        places = [p for p in self.places if p is not None]
        if len(places) != 6:
            raise RuntimeError("the game is not finished")
        return places
