"""The five-game tribute series (进贡局, docs/rules.en.md §6, §8).

Game 1 is played as dealt. Every later game starts by paying what the game before left
owing (闷贡, 烧贡, 点贡, 落贡 — only big jokers, small jokers and 2s, highest first; with the
option ``tribute_cards="biggest"`` the biggest cards of any rank), then the receivers of 落贡
return as many cards as they got (还贡, 头科 first; to an opponent only ranks the payer holds
while ``no_single_return`` is on), then the game runs its own phases. A void deal (two revolutionaries) does not count: the same game is dealt
again and the tribute is paid again from the new hands.

>>> s = Series()
>>> s.games_total, s.number_of_next_game
(5, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, IllegalActionError, NotYourTurnError, Verb
from .cards import (
    BIG_JOKER,
    NUM_RANKS,
    SMALL_JOKER,
    TWO,
    Card,
    card_sort_key,
    format_cards,
    parse_cards,
)
from .game import Game, Options, Phase
from .scoring import LEAVE_PENALTY, PLACE, TributeOwed, team_of

TRIBUTE_RANKS = (BIG_JOKER, SMALL_JOKER, TWO)  # what tribute is paid in, highest first
ALL_RANKS_HIGH_FIRST = tuple(range(BIG_JOKER, -1, -1))  # 贡牌 "biggest": any rank (§9)

# A series game given as a position: (leader, declared, revolted seats).
Position = tuple[int, Sequence[bool] | None, Sequence[int]]


@dataclass(slots=True)
class Payment:
    """Cards that moved as tribute at the start of a game."""

    kind: str
    payer: int
    receiver: int
    cards: list[Card]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "from": self.payer,
            "to": self.receiver,
            "cards": format_cards(self.cards),
        }


@dataclass(slots=True)
class ReturnDue:
    """还贡 owed: ``giver`` (who received 落贡) gives ``count`` cards back to ``taker``."""

    giver: int
    taker: int
    count: int
    cards: list[Card] | None = None  # once made

    def to_json(self) -> dict[str, Any]:
        return {"from": self.giver, "to": self.taker, "cards": format_cards(self.cards or [])}


@dataclass(slots=True)
class SeriesGame:
    """One deal of a series: the hands as dealt, the tribute, the returns, the game."""

    number: int
    dealt: list[list[Card]]
    seed: int | None
    hands: list[list[Card]]  # during tribute and returns; then the game's starting hands
    paid: list[Payment] = field(default_factory=list)
    returns: list[ReturnDue] = field(default_factory=list)
    game: Game | None = None
    position: Position | None = None  # for a position record

    @property
    def void(self) -> bool:
        return self.game is not None and self.game.phase == Phase.VOID

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.phase == Phase.FINISHED

    @property
    def pending_return(self) -> ReturnDue | None:
        return next((r for r in self.returns if r.cards is None), None)

    def tribute_points(self) -> list[int]:
        """−1 to the payer and +1 to the receiver per tribute card paid (void deals: 0)."""
        pts = [0] * 6
        if self.void:
            return pts
        for p in self.paid:
            pts[p.payer] -= len(p.cards)
            pts[p.receiver] += len(p.cards)
        return pts

    def score(self) -> list[int]:
        """Seat points of this game: tribute points, plus place points once finished."""
        pts = self.tribute_points()
        place = self.game.points() if self.game is not None else None
        if place:
            pts = [a + b for a, b in zip(pts, place, strict=True)]
        return pts

    def penalties(self) -> list[int]:
        pen = [0] * 6
        if self.game is not None:
            for seat in self.game.left:
                pen[seat] += LEAVE_PENALTY
        return pen


def _take(cards: list[Card], rank: int, n: int) -> list[Card]:
    """Remove up to ``n`` cards of ``rank`` from a sorted card list; return them."""
    taken: list[Card] = []
    i = 0
    while i < len(cards) and len(taken) < n:
        if cards[i].rank == rank:
            taken.append(cards.pop(i))
        else:
            i += 1
    return taken


def _counts(cards: Sequence[Card]) -> list[int]:
    c = [0] * NUM_RANKS
    for card in cards:
        c[card.rank] += 1
    return c


class Series:
    """A tribute series at one table. ``tribute=False`` plays the games without tribute."""

    def __init__(self, options: Options | None = None, *, tribute: bool = True, games: int = 5):
        self.options = options or Options()
        self.tribute_on = tribute
        self.games_total = games
        self.deals: list[SeriesGame] = []  # every deal, void ones included

    # ----------------------------------------------------------------- questions
    @property
    def counted(self) -> list[SeriesGame]:
        """The deals that count as games (not void)."""
        return [d for d in self.deals if not d.void]

    @property
    def current(self) -> SeriesGame | None:
        return self.deals[-1] if self.deals else None

    @property
    def number_of_next_game(self) -> int:
        return len([d for d in self.deals if d.finished]) + 1

    @property
    def finished(self) -> bool:
        return len([d for d in self.deals if d.finished]) >= self.games_total

    @property
    def to_act(self) -> list[int]:
        cur = self.current
        if cur is None:
            return []
        due = cur.pending_return
        if due is not None:
            return [due.giver]
        return cur.game.to_act if cur.game else []

    def owed_next(self) -> list[TributeOwed]:
        """The tribute the next game starts with: owed by the last finished game."""
        if not self.tribute_on:
            return []
        done = [d for d in self.deals if d.finished]
        last = done[-1].game if done else None
        return (last.tribute() or []) if last is not None else []

    def totals(self) -> list[int]:
        """Seat points over the series so far."""
        tot = [0] * 6
        for d in self.deals:
            for s, v in enumerate(d.score()):
                tot[s] += v
        return tot

    def penalties(self) -> list[int]:
        pen = [0] * 6
        for d in self.deals:
            for s, v in enumerate(d.penalties()):
                pen[s] += v
        return pen

    def team_totals(self) -> list[int]:
        tot = self.totals()
        return [sum(tot[s] for s in range(6) if team_of(s) == t) for t in (0, 1)]

    def player_scores(self) -> list[int]:
        """Each player's profile score from this series: team seat points + own penalties."""
        teams = self.team_totals()
        pen = self.penalties()
        return [teams[team_of(s)] + pen[s] for s in range(6)]

    # ----------------------------------------------------------------- a new deal
    def start_game(
        self,
        hands: Sequence[Sequence[Card] | str],
        seed: int | None = None,
        position: Position | None = None,
    ) -> SeriesGame:
        """Deal the next game (or the redeal of a void one) from ``hands`` as dealt, pay the
        tribute owed, and wait for returns; then the game begins with declaring — or, with
        ``position=(leader, declared, revolted)``, straight with play."""
        cur = self.current
        if self.finished:
            raise IllegalActionError("series_over")
        if cur is not None and not (cur.finished or cur.void):
            raise IllegalActionError("game_not_over")
        dealt = [
            sorted(parse_cards(h) if isinstance(h, str) else list(h), key=card_sort_key)
            for h in hands
        ]
        if len(dealt) != 6:
            raise ValueError(f"a deal needs six hands, got {len(dealt)}")
        deal = SeriesGame(
            number=self.number_of_next_game,
            dealt=dealt,
            seed=seed,
            hands=[list(h) for h in dealt],
            position=position,
        )
        self._pay(deal, self.owed_next())
        self.deals.append(deal)
        try:
            self._settle_empty_returns(deal)
            if deal.pending_return is None:
                self._begin(deal)
        except ValueError:  # a position that cannot be played: the series is unchanged
            self.deals.pop()
            raise
        return deal

    def _settle_empty_returns(self, deal: SeriesGame) -> None:
        """A receiver with no card legal to return returns none (§8.4: "as many as there
        are"), at once: the series never waits on a seat that has nothing to choose."""
        while (due := deal.pending_return) is not None and self.returnable(due.giver)[0] == 0:
            due.cards = []

    def _begin(self, deal: SeriesGame) -> None:
        if deal.position is None:
            deal.game = Game.from_hands(deal.hands, options=self.options, seed=deal.seed)
            return
        leader, declared, revolted = deal.position
        deal.game = Game.from_position(
            deal.hands,
            leader,
            declared=declared,
            revolted=revolted,
            options=self.options,
            buy_threes=True,
        )
        deal.game.seed = deal.seed

    def _pay(self, deal: SeriesGame, owed: list[TributeOwed]) -> None:
        for entry in owed:
            payer_cards = deal.hands[entry.payer]
            given: list[Card] = []
            ranks = (
                TRIBUTE_RANKS
                if self.options.tribute_cards == "jokers_and_twos"
                else ALL_RANKS_HIGH_FIRST
            )
            for rank in ranks:
                given += _take(payer_cards, rank, entry.count - len(given))
            if not given:
                continue
            deal.hands[entry.receiver] = sorted(
                deal.hands[entry.receiver] + given, key=card_sort_key
            )
            deal.paid.append(Payment(entry.kind, entry.payer, entry.receiver, given))
            if entry.kind == PLACE:
                deal.returns.append(ReturnDue(entry.receiver, entry.payer, len(given)))

    # ----------------------------------------------------------------- returns
    def returnable(self, seat: int) -> tuple[int, list[int]]:
        """For the seat that must return now: (how many cards, rank counts it may return)."""
        deal, due = self._due_for(seat)
        counts = _counts(deal.hands[seat])
        if self.options.no_single_return and team_of(due.giver) != team_of(due.taker):
            # 不还单张: to an opponent, only ranks the payer holds
            taker = _counts(deal.hands[due.taker])
            counts = [c if taker[r] else 0 for r, c in enumerate(counts)]
        return min(due.count, sum(counts)), counts

    def default_return(self, seat: int) -> str:
        """The lowest cards legal to return (timeouts and AIs)."""
        n, allowed = self.returnable(seat)
        out: list[int] = []
        for rank, c in enumerate(allowed):
            take = min(c, n - len(out))
            out += [rank] * take
        return format_cards([Card(r) for r in out])

    def _due_for(self, seat: int) -> tuple[SeriesGame, ReturnDue]:
        """The current deal and the return ``seat`` owes now (refused if it owes none)."""
        cur = self.current
        due = cur.pending_return if cur else None
        if cur is None or due is None:
            raise IllegalActionError("no_return_due")
        if due.giver != seat:
            raise NotYourTurnError("return_turn", seat=due.giver)
        return cur, due

    def apply(self, action: Action) -> None:
        """Apply a return (``SEAT return CARDS``) or an action of the current game."""
        cur = self.current
        if cur is None:
            raise IllegalActionError("no_game")
        if action.verb == Verb.RETURN:
            self._return(action.seat, action.returned)
            return
        if cur.pending_return is not None:
            due = cur.pending_return
            raise IllegalActionError("return_first", seat=due.giver, count=due.count, to=due.taker)
        if cur.game is None:
            raise IllegalActionError("no_game")
        cur.game.apply(action)

    def _return(self, seat: int, text: str) -> None:
        deal, due = self._due_for(seat)
        n, allowed = self.returnable(seat)
        cards = parse_cards(text)
        want = _counts(cards)
        held = _counts(deal.hands[seat])
        if len(cards) != n:
            raise IllegalActionError("return_count", count=n, to=due.taker)
        for rank, k in enumerate(want):
            if k > held[rank]:
                raise IllegalActionError("return_not_held", cards=format_cards(cards))
            if k > allowed[rank]:
                raise IllegalActionError("return_rank", to=due.taker)
        before = ([list(h) for h in deal.hands], [r.cards for r in deal.returns])
        moved: list[Card] = []
        for rank, k in enumerate(want):
            moved += _take(deal.hands[seat], rank, k)
        deal.hands[due.taker] = sorted(deal.hands[due.taker] + moved, key=card_sort_key)
        due.cards = moved
        try:
            self._settle_empty_returns(deal)
            if deal.pending_return is None:
                self._begin(deal)
        except ValueError:  # a position that cannot be played: undo the return
            deal.hands = before[0]
            for r, was in zip(deal.returns, before[1], strict=True):
                r.cards = was
            raise
