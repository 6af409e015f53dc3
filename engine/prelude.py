"""Before play (docs/rules.en.md §5, §7): declaring, buying 3s, revolution and the first leader —
a part of :class:`engine.game.Game`."""

from __future__ import annotations

import random

from .actions import Action, IllegalActionError
from .cards import BIG_JOKER, FOUR, SMALL_JOKER, THREE, TWO, Card, card_sort_key
from .options import Phase
from .scoring import opposite_of
from .state import QUESTIONS, GameState

HEAD_HANDS = 3  # 要头: the first three gouji hands are 够死级 (§3.4)


def next_seat(seat: int, step: int = 1) -> int:
    """The seat ``step`` places on in play order."""
    return (seat + step) % 6


class Prelude(GameState):
    """Declaring, buying 3s, revolting and choosing the first leader (mixed into
    :class:`engine.game.Game`)."""

    def _apply_phase_answer(self, action: Action) -> None:
        seat, verb = action.seat, action.verb
        asked = QUESTIONS[self.phase]
        if verb not in (asked.yes, asked.no):
            who = {"seat": self.phase_seats[0]} if self.phase == Phase.HEAD else {}
            raise IllegalActionError(asked.refusal, **who)
        if seat not in self.to_act:
            self._refuse_wrong_seat(seat)
        self.phase_answers[seat] = verb == asked.yes
        if self.to_act:
            return
        if self.phase == Phase.HEAD:
            if self.phase_answers[seat]:
                self.head_kept[seat] = HEAD_HANDS  # 要头: three 够死级 hands, then headless
            self._start_play(self._leader_after_question)
        elif self.phase == Phase.DECLARE:
            for s, yes in self.phase_answers.items():
                self.declared[s] = yes
            self._buy_threes()
            self._start_revolution()
        else:
            for s, yes in self.phase_answers.items():
                if yes:
                    self.revolted[s] = True
            self._after_revolution()

    def _buy_threes(self) -> None:
        """买3 / 要3 (§7), automatic, buyers in seat order; a player with no 3, no 2 and no
        joker revolts automatically."""
        if not self.options.bie_san:
            return
        for buyer in range(6):
            c = self.counts[buyer]
            if c[THREE]:
                continue
            pay_rank = next((r for r in (TWO, SMALL_JOKER, BIG_JOKER) if c[r]), None)
            if pay_rank is None:
                self.revolted[buyer] = True
                self.auto_revolted.append(buyer)
                continue
            opp = opposite_of(buyer)
            sellers = [opp] + [s for s in (next_seat(buyer), next_seat(buyer, 5))]
            seller = next((s for s in sellers if self.counts[s][THREE] >= 2), None)
            if seller is not None:
                paid = self._move_card(buyer, seller, pay_rank)
                self._move_card(seller, buyer, THREE)
                self.bought.append((buyer, seller, THREE, paid))
                continue
            mate = next(
                (
                    s
                    for s in (next_seat(buyer, 2), next_seat(buyer, 4))
                    if self.counts[s][THREE] >= 2
                ),
                None,
            )
            if mate is not None:
                self._move_card(mate, buyer, THREE)
                self.bought.append((buyer, mate, THREE, None))
                continue
            self.three_rule[buyer] = False  # no 3 to be had: no last-hand rule

    def _move_card(self, giver: int, taker: int, rank: int) -> Card:
        cards = self.cards[giver]
        i = next(i for i, c in enumerate(cards) if c.rank == rank)
        card = cards.pop(i)
        self.counts[giver][rank] -= 1
        self.cards[taker].append(card)
        self.cards[taker].sort(key=card_sort_key)
        self.counts[taker][rank] += 1
        return card

    def revolt_eligible(self, seat: int) -> bool:
        c = self.counts[seat]
        return not self.revolted[seat] and not (c[TWO] or c[SMALL_JOKER] or c[BIG_JOKER])

    def _start_revolution(self) -> None:
        self.phase_answers = {}
        self.phase_seats = [s for s in range(6) if self.revolt_eligible(s)]
        if self.phase_seats and sum(self.revolted) < 2:
            self.phase = Phase.REVOLT
            return
        self._after_revolution()

    def _after_revolution(self, leader: int | None = None) -> None:
        self.phase_answers = {}
        self.phase_seats = []
        if sum(self.revolted) >= 2:
            self.phase = Phase.VOID  # two or more revolt: the deal is void (§5.4)
            self.turn = None
            return
        rev = self.revolutionary
        if rev is not None:
            self.opened[opposite_of(rev)] = True  # a revolution concedes the point
            self.places[rev] = 4  # 四科 at once; 三科 if its teammates take 头科 and 二科
        if leader is None:
            leader = self._first_leader()
        if not self.is_active(leader):
            raise ValueError(f"seat {leader} cannot lead: it holds no cards or revolted")
        if rev is not None and self.options.gou_si_ji:
            # 要头 / 无头 (§3.4): asked of the revolutionary's opposite before the first lead
            self.phase = Phase.HEAD
            self.phase_seats = [opposite_of(rev)]
            self._leader_after_question = leader
            return
        self._start_play(leader)

    def _start_play(self, leader: int) -> None:
        self.phase_answers = {}
        self.phase_seats = []
        self.phase = Phase.PLAY
        self.leader = leader
        self._new_round(leader)

    def _first_leader(self) -> int:
        """上班 (§5.5): most cards of one suit of 4s (bie-san) or 3s, at least two; ties and
        nobody-with-two broken by the seed."""
        rank = FOUR if self.options.bie_san else THREE
        best: dict[int, int] = {}
        for s in self.active_seats():
            per_suit: dict[str, int] = {}
            for c in self.cards[s]:
                if c.rank == rank and c.suit:
                    per_suit[c.suit] = per_suit.get(c.suit, 0) + 1
            best[s] = max(per_suit.values(), default=0)
        top = max(best.values())
        candidates = [s for s in best if best[s] == top] if top >= 2 else list(best)
        if len(candidates) == 1:
            return candidates[0]
        return random.Random(f"leader:{self.seed}").choice(sorted(candidates))
