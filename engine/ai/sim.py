"""A fast simulator of the play phase, for rollouts: the rules of :class:`engine.game.Game`
(docs/rules.en.md §3, §4, §7, and the house rules of §9 that change play) on a compact state — rank
counts per seat, no cards with suits, no action log, no observations — with the policy of
:mod:`engine.ai.hint` deciding each step through one reusable :class:`~engine.ai.view.View`
per seat.

It behaves exactly like ``engine.Game`` under the table options it declares,
:data:`SIMULATED_OPTIONS` (``tests/ai/test_sim.py`` plays thousands of random games on both
under each of them away from its default and compares every state): bie-san, 够死级 (要头
and the finisher's opposite's 够死级 hand), the seeds' burn check with failed burns, and
the wide 开点 (:data:`PLAY_OPTIONS`); the options that act between games (不还单张, 贡牌,
:data:`BETWEEN_GAMES_OPTIONS`) do not change play. A game with any other option away from
its default is refused (:class:`UnsimulatedOptions`): the simulator would play it wrong.

Nothing is checked: :meth:`Sim.apply` trusts its action (a search only plays legal ones;
:meth:`Sim.legal_actions` lists them). A guessed world can hold a position no real game
reaches (a burner whose hand cannot finish its burn); :meth:`Sim.rollout` then raises
:class:`ImpossibleWorld` instead of playing an illegal action.

>>> from engine.game import Game
>>> sim = Sim.from_game(Game.from_position(["KK5", "QQ", "44", "77", "88", "99"], leader=0))
>>> sim.rollout(EXPERT) > 0, sim.done, sim.places[0]
(True, True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial

from ..actions import Action, Verb
from ..burning import BROKEN, FAILED, ONGOING, SUCCESS, burn_completable, burn_priority
from ..cards import BIG_JOKER, SMALL_JOKER, THREE, TWO
from ..game import Game, Options, Phase
from ..hands import Play
from ..movegen import answer_plays, lead_plays
from ..scoring import TributeOwed, is_sweep, place_points, team_of, team_scores, tribute_owed
from .hint import EXPERT, Style, answer_choice, cheapest_beat, decide, lead_choice
from .view import View

__all__ = [
    "BETWEEN_GAMES_OPTIONS",
    "PLAY_OPTIONS",
    "SIMULATED_OPTIONS",
    "UNSIMULATED_OPTIONS",
    "ImpossibleWorld",
    "Sim",
    "UnsimulatedOptions",
    "require_simulated",
    "unsimulated",
]

# The table options (fields of engine.options.Options) the simulator plays: those that change
# play, which Sim._take_options reads, and those that act between games only (a game plays as
# under their defaults). UNSIMULATED_OPTIONS: those it knowingly does not play (a game setting
# one is refused; the strong player plays it by the expert policy). Every field of Options is
# in exactly one of the two, and each one is tested so (tests/ai/test_sim.py).
PLAY_OPTIONS = frozenset({"bie_san", "gou_si_ji", "burn_check", "open_rule"})
BETWEEN_GAMES_OPTIONS = frozenset({"no_single_return", "tribute_cards"})
SIMULATED_OPTIONS = PLAY_OPTIONS | BETWEEN_GAMES_OPTIONS
UNSIMULATED_OPTIONS: frozenset[str] = frozenset()


def unsimulated(options: Options) -> list[str]:
    """The options of ``options`` away from their defaults that the simulator does not play.

    >>> unsimulated(Options(bie_san=True, open_rule="wide"))
    []
    """
    return sorted(set(options.changed()) - SIMULATED_OPTIONS)


def require_simulated(options: Options) -> None:
    """:class:`UnsimulatedOptions` if ``options`` set a rule the simulator does not play."""
    names = unsimulated(options)
    if names:
        raise UnsimulatedOptions(names)


class UnsimulatedOptions(ValueError):
    """A game whose table options set a rule the simulator does not play."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(
            f"the simulator does not play the option(s) {', '.join(names)}: "
            "engine/ai/sim.py SIMULATED_OPTIONS"
        )
        self.names = names


class ImpossibleWorld(RuntimeError):
    """A guessed world in which a seat has no legal action (no real game gets there)."""


def _opp(seat: int) -> int:
    return (seat + 3) % 6


_OPP = tuple(_opp(s) for s in range(6))
_OTHERS = tuple(
    tuple(s for s in range(6) if s % 3 != seat % 3) for seat in range(6)
)  # not it or its opposite
_AFTER = tuple(tuple((seat + k) % 6 for k in range(1, 6)) for seat in range(6))  # play order


_FACTS: dict[Play, tuple[bool, bool]] = {}


def _facts(play: Play) -> tuple[bool, bool]:
    """(is_gouji, opens_point) of ``play``, computed once per distinct play (a few
    thousand exist): the properties cost more than a dictionary look-up."""
    facts = _FACTS.get(play)
    if facts is None:
        facts = _FACTS[play] = (play.is_gouji, play.opens_point)
    return facts


def _never() -> bool:
    return False


class Sim:
    """The state of a game in play. Build with :meth:`from_game` or :meth:`start`."""

    __slots__ = (
        "counts",
        "totals",
        "bie_san",
        "gou_si_ji",
        "seeds",
        "wide",
        "three_rule",
        "revolted",
        "declared",
        "places",
        "active",
        "finish_order",
        "opened",
        "melee",
        "melee_pending",
        "standing",
        "standing_seat",
        "restricted",
        "passed",
        "queue",
        "yielder",
        "turn",
        "melee_passes",
        "burns",
        "burner",
        "window",
        "choices",
        "stifle_watch",
        "stifled",
        "head_kept",
        "dead",
        "leader",
        "done",
        "replaying",
        "views",
        "yielders",
    )

    counts: list[list[int]]
    totals: list[int]
    bie_san: bool
    gou_si_ji: bool  # option 够死级: the finisher's opposite's 够死级 hand (要头 is head_kept)
    seeds: bool  # option burn_check "seeds": no lead limit on a burner, failed burns
    wide: bool  # option open_rule "wide" (宽开点): any gouji hand that wins its round opens
    three_rule: list[bool]
    revolted: list[bool]
    declared: list[bool]
    places: list[int | None]
    active: list[bool]  # still playing: no place and not revolted (kept with places)
    finish_order: list[int]
    opened: list[bool]
    melee: bool
    melee_pending: bool
    standing: Play | None
    standing_seat: int | None
    restricted: bool
    passed: list[bool]
    queue: list[int]
    yielder: int | None
    turn: int | None
    melee_passes: int
    burns: list[list[int | str]]  # [burner, burned, result]
    burner: int | None  # the burner of the burn going on
    window: list[int] | None  # seats a burn window asks, in the engine's order
    choices: dict[int, Play | None]  # their answers so far
    stifle_watch: int | None
    stifled: list[tuple[int, int]]
    head_kept: list[int]  # 要头: 够死级 hands each seat still has (0–3)
    dead: bool  # the standing hand is 够死级: only a burn may take it
    leader: int
    done: bool
    replaying: bool  # burn windows are imposed from a history, not computed
    views: list[View | None]
    yielders: list[Callable[[], bool]]  # may_yield of each seat, for the policy

    # ------------------------------------------------------------------ construction
    @classmethod
    def start(
        cls,
        hands: Sequence[Sequence[int]],
        leader: int,
        *,
        options: Options | None = None,
        declared: Sequence[bool] = (False,) * 6,
        revolted: Sequence[bool] = (False,) * 6,
        three_rule: Sequence[bool] | None = None,
        head_kept: Sequence[int] = (0,) * 6,
    ) -> Sim:
        """A game at its first lead: rank counts per seat, the leader, who declared and who
        revolted (a revolutionary's opposite counts as opened, §5.4), and the 够死级 hands
        of a seat that chose 要头."""
        sim = cls.__new__(cls)
        options = options or Options()
        bie = options.bie_san
        sim.counts = [list(h) for h in hands]
        sim.totals = [sum(h) for h in hands]
        sim._take_options(options)
        sim.three_rule = list(three_rule) if three_rule is not None else [bie] * 6
        sim.revolted = list(revolted)
        sim.declared = list(declared)
        sim.places = [4 if revolted[s] and sum(revolted) == 1 else None for s in range(6)]
        sim.active = [not r for r in sim.revolted]
        sim.finish_order = []
        sim.opened = [bool(revolted[_opp(s)]) for s in range(6)]
        sim.melee = sim.melee_pending = False
        sim.burns = []
        sim.burner = None
        sim.window = None
        sim.choices = {}
        sim.stifle_watch = None
        sim.stifled = []
        sim.head_kept = list(head_kept)
        sim.dead = False
        sim.leader = leader
        sim.done = False
        sim.replaying = False
        sim.views = [None] * 6
        sim.yielders = sim._yield_checkers()
        sim._new_round(leader)
        return sim

    @classmethod
    def from_game(cls, game: Game) -> Sim:
        """The simulator in the state of ``game`` (which must be in its play phase): reads
        only public attributes, and the burn results as the engine has them."""
        if game.phase != Phase.PLAY:
            raise ValueError(f"only a game in play can be simulated, not {game.phase!r}")
        sim = cls.__new__(cls)
        sim.counts = [list(c) for c in game.counts]
        sim.totals = [sum(c) for c in game.counts]
        sim._take_options(game.options)
        sim.three_rule = list(game.three_rule)
        sim.revolted = list(game.revolted)
        sim.declared = list(game.declared)
        sim.places = list(game.places)
        sim.active = [p is None and not r for p, r in zip(sim.places, sim.revolted, strict=True)]
        sim.finish_order = list(game.finish_order)
        sim.opened = list(game.opened)
        sim.melee, sim.melee_pending = game.melee, game.melee_pending
        sim.standing, sim.standing_seat = game.standing, game.standing_seat
        sim.restricted = game.standing_restricted
        sim.passed = list(game.passed)
        sim.queue = list(game.queue)
        sim.yielder, sim.turn = game.yielder, game.turn
        sim.melee_passes = game.melee_passes
        sim.burns = [[b.burner, b.burned, b.result] for b in game.burns]
        burn = game.current_burn
        sim.burner = burn.burner if burn is not None else None
        window = game.window
        sim.window = None if window is None else list(game.window_seats)
        sim.choices = {} if window is None else dict(window)
        sim.stifle_watch = game.stifle_watch
        sim.stifled = list(game.stifled)
        sim.head_kept = list(game.head_kept)
        sim.dead = game.standing_dead
        sim.leader = game.leader if game.leader is not None else 0
        sim.done = False
        sim.replaying = False
        sim.views = [None] * 6
        sim.yielders = sim._yield_checkers()
        return sim

    def copy(self) -> Sim:
        """An independent copy (the views are made again on demand)."""
        s = Sim.__new__(Sim)
        s.counts = [c[:] for c in self.counts]
        s.totals = self.totals[:]
        s.bie_san, s.gou_si_ji = self.bie_san, self.gou_si_ji
        s.seeds, s.wide = self.seeds, self.wide
        s.three_rule = self.three_rule
        s.revolted = self.revolted
        s.declared = self.declared
        s.places = self.places[:]
        s.active = self.active[:]
        s.finish_order = self.finish_order[:]
        s.opened = self.opened[:]
        s.melee, s.melee_pending = self.melee, self.melee_pending
        s.standing, s.standing_seat = self.standing, self.standing_seat
        s.restricted = self.restricted
        s.passed = self.passed[:]
        s.queue = self.queue[:]
        s.yielder, s.turn = self.yielder, self.turn
        s.melee_passes = self.melee_passes
        s.burns = [b[:] for b in self.burns]
        s.burner = self.burner
        s.window = None if self.window is None else self.window[:]
        s.choices = dict(self.choices)
        s.stifle_watch = self.stifle_watch
        s.stifled = self.stifled[:]
        s.head_kept = self.head_kept[:]
        s.dead = self.dead
        s.leader = self.leader
        s.done = self.done
        s.replaying = False
        s.views = [None] * 6
        s.yielders = s._yield_checkers()
        return s

    def _take_options(self, options: Options) -> None:
        """Take the options that change play (:func:`require_simulated` first)."""
        require_simulated(options)
        self.bie_san = options.bie_san
        self.gou_si_ji = options.gou_si_ji
        self.seeds = options.burn_check == "seeds"
        self.wide = options.open_rule == "wide"

    def _yield_checkers(self) -> list[Callable[[], bool]]:
        return [partial(self.may_yield, s) for s in range(6)]

    # ------------------------------------------------------------------ questions
    def is_active(self, seat: int) -> bool:
        return self.active[seat]

    def is_headless(self, seat: int) -> bool:
        """无头: the opposite is out — unless the seat chose 要头 and has 够死级 hands left."""
        return not self.active[_OPP[seat]] and not self.head_kept[seat]

    def opens(self, play: Play) -> bool:
        """Does winning a round with ``play`` open (开点, §3.2; 宽开点: any gouji hand)?"""
        return _facts(play)[0 if self.wide else 1]

    @property
    def to_act(self) -> list[int]:
        if self.done:
            return []
        if self.window is not None:
            return [s for s in self.window if s not in self.choices]
        return [self.turn] if self.turn is not None else []

    def may_answer(self, seat: int) -> bool:
        q = self.standing_seat
        if q is None or seat == q or not self.is_active(seat):
            return False
        if self.melee:
            return True
        if self.dead:
            return False  # 够死级: only a burn can take it
        if seat == _opp(q):
            return True
        if self.restricted:
            return self.is_headless(seat) and not self.passed[seat]
        return not self.passed[seat]

    def may_yield(self, seat: int) -> bool:
        """让牌 (§3.1), as :meth:`engine.game.Game.may_yield`."""
        q = self.standing_seat
        if q is None or (seat + 3) % 6 != q or self.melee or self.restricted:
            return False
        if self.yielder is not None or self.window is not None or self.turn != seat:
            return False
        if self.standing is None or _facts(self.standing)[0]:
            return False
        for up in ((seat + 5) % 6, (seat + 4) % 6):
            if self.is_active(up) and not self.passed[up]:
                return False
        return len(self.queue) > 1

    def burning_lead_ok(self, seat: int, play: Play) -> bool:
        """A burner's lead before the melee: a joker (but the last hand), completable (§4);
        with the seeds' check any lead (one without a joker fails the burn)."""
        if self.seeds or play.size == self.totals[seat]:
            return True
        if not play.jokers:
            return False
        after = self.counts[seat][:]
        for r, n in play.rank_counts():
            after[r] -= n
        return burn_completable(after, self.bie_san)

    def burning_plays(self, seat: int) -> list[Play]:
        """The burning plays ``seat`` holds against the standing hand (§4)."""
        return list(self._burning(seat))

    def _burning(self, seat: int) -> Iterator[Play]:
        """:meth:`burning_plays` one by one: the beats after which the hand is still
        :func:`~engine.burning.burn_completable` (computed from the hand's counts, without
        a copy per play); with the seeds' check, every beat of a hand whose sets are at
        most its jokers + 2 (:func:`~engine.burning.seeds_count_allows`)."""
        standing = self.standing
        if standing is None:
            return
        c = self.counts[seat]
        sets0 = TWO - c[:TWO].count(0)  # sets_needed counts ranks below 2
        jokers = c[SMALL_JOKER] + c[BIG_JOKER]
        if self.seeds:
            if sets0 - jokers <= 2:
                yield from answer_plays(c, standing, self.three_rule[seat])
            return
        bie = self.bie_san
        for p in answer_plays(c, standing, self.three_rule[seat]):
            rank, k, t, sj, g = p
            sets = sets0 - 1 if k and k == c[rank] else sets0
            # bie-san: 2s beside 3s and no other rank count as one more set
            if bie and sets == 1 and c[TWO] > t and c[THREE] > (k if rank == THREE else 0):
                sets = 2
            if sets <= jokers - sj - g + 1:
                yield p

    def legal_plays(self, seat: int) -> list[Play]:
        if self.done or self.window is not None or seat != self.turn:
            return []
        counts = self.counts[seat]
        bie = self.three_rule[seat]
        if self.standing is None:
            plays = lead_plays(counts, bie)
            if self.burner == seat and not self.melee and not self.seeds:
                plays = [p for p in plays if self.burning_lead_ok(seat, p)]
            return plays
        return answer_plays(counts, self.standing, bie)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, as :meth:`engine.game.Game.legal_actions`."""
        if seat not in self.to_act:
            return []
        if self.window is not None:
            return [Action(seat, Verb.NOBURN)] + [
                Action(seat, Verb.BURN, p) for p in self.burning_plays(seat)
            ]
        actions = [Action(seat, Verb.PLAY, p) for p in self.legal_plays(seat)]
        if self.standing is not None:
            actions.insert(0, Action(seat, Verb.PASS))
            if self.may_yield(seat):
                actions.insert(1, Action(seat, Verb.YIELD))
        return actions

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action) -> None:
        """Apply a legal ``action`` (not checked)."""
        seat, verb = action.seat, action.verb
        if verb == Verb.PLAY:
            assert isinstance(action.cards, Play)
            self.play(seat, action.cards)
        elif verb == Verb.PASS:
            self.pass_(seat)
        elif verb == Verb.YIELD:
            self.yield_(seat)
        elif verb == Verb.BURN:
            assert isinstance(action.cards, Play)
            self.answer_window(seat, action.cards)
        elif verb == Verb.NOBURN:
            self.answer_window(seat, None)
        else:
            raise ValueError(f"the simulator plays the play phase only, not {verb!r}")

    def answer_window(self, seat: int, play: Play | None) -> None:
        """``seat``'s answer in the open burn window; the last answer closes it."""
        assert self.window is not None
        self.choices[seat] = play
        for s in self.window:
            if s not in self.choices:
                return
        self.close_window()

    def close_window(self) -> None:
        """Close the burn window: the burner of highest priority burns, if any (§4)."""
        choices = self.choices
        self.window, self.choices = None, {}
        q = self.standing_seat
        assert q is not None
        best, best_key = None, (9, 9)
        for s, p in choices.items():
            if p is not None:
                key = burn_priority(s, q)
                if key < best_key:
                    best, best_key = s, key
        if best is None:
            self._next_answer()
            return
        play = choices[best]
        assert play is not None
        self._play(best, play, True)

    def play(self, seat: int, play: Play) -> None:
        """A lead or a beat by the seat whose turn it is."""
        self._play(seat, play, False)

    def _play(self, seat: int, play: Play, burning: bool) -> None:
        beaten_hand = self.standing
        beaten = self.standing_seat if beaten_hand is not None else None
        rank, naturals, twos, small, big = play
        size = naturals + twos + small + big
        # 烧失败 (seeds' check): a burner's lead without a joker that is not its last hand
        fails = (
            self.seeds
            and beaten is None
            and self.burner == seat
            and not self.melee
            and not (small or big)
            and size != self.totals[seat]
        )
        if beaten is not None and (
            self.stifle_watch is not None or self.burner is not None or self.melee_pending
        ):
            self._on_beaten(beaten, seat)
        if burning:
            assert beaten is not None
            self.burns.append([seat, beaten, ONGOING])
            self.burner = seat
        head_kept = self.head_kept
        if self.gou_si_ji:  # 够死级 (§3.4; 要头 only with the option): before the cards leave
            self.dead = not burning and self._is_gou_si_ji(seat, play, beaten, beaten_hand)
        counts = self.counts[seat]
        if naturals:
            counts[rank] -= naturals
        if twos:
            counts[TWO] -= twos
        if small:
            counts[SMALL_JOKER] -= small
        if big:
            counts[BIG_JOKER] -= big
        total = self.totals[seat] - size
        self.totals[seat] = total
        self.standing, self.standing_seat = play, seat
        self.yielder = None
        went_out = total == 0
        if went_out:
            self._finish(seat)
            if self.burner == seat:
                self._end_burn(SUCCESS)  # 烧成功
        elif fails:  # the burner takes the lowest free place and plays no more (§9)
            self._end_burn(FAILED)
            places = self.places
            self._finish(seat, max(p for p in range(1, 7) if p not in places))
            went_out = True
        if self.bie_san and self.three_rule[seat] and not went_out:
            if counts[THREE] and counts[THREE] == total:
                self.stifle_watch = seat
        if went_out and self._check_game_end():  # only a finish can end the game
            return
        # who answers next (one function with the play: it runs on every play)
        if self.melee:
            self.restricted = False
            self.melee_passes = 0
            self._advance_melee(seat)
            return
        active, passed = self.active, self.passed
        opp = _OPP[seat]
        restricted = (
            self.dead
            or ((active[opp] or head_kept[seat]) and (_FACTS.get(play) or _facts(play))[0])
            or (self.burner == seat and not went_out)
        )
        self.restricted = restricted
        # who may answer (may_answer, inlined: it runs on every play)
        if not restricted and True not in passed and False not in active:
            self.queue = list(_AFTER[seat])  # everyone, in play order
        else:  # (loops, not comprehensions: no function call)
            queue: list[int] = []
            self.queue = queue
            if self.dead:
                pass  # 够死级: nobody answers, a burn window at most
            elif restricted:  # the opposite, and headless seats that have not passed
                for s in _AFTER[seat]:
                    if active[s] and (
                        s == opp or not (active[_OPP[s]] or head_kept[s] or passed[s])
                    ):
                        queue.append(s)
            else:
                for s in _AFTER[seat]:
                    if active[s] and (s == opp or not passed[s]):
                        queue.append(s)
        if restricted:
            if self.replaying:  # the history says who was asked
                self.window, self.choices, self.turn = [], {}, None
                return
            eligible = []
            hands, totals = self.counts, self.totals
            # who holds a burning play: active, not headless, neither the player nor its
            # opposite, and (the cheap checks first) enough cards, no more sets than jokers
            # + 2 (a play takes at most one set and adds no joker), and a beat at all
            for s in _OTHERS[seat]:
                if not (active[s] and (active[_OPP[s]] or head_kept[s])):
                    continue
                c = hands[s]
                if (
                    totals[s] >= size
                    and TWO - c[:TWO].count(0) <= c[SMALL_JOKER] + c[BIG_JOKER] + 2
                    and cheapest_beat(c, play, self.three_rule[s], totals[s]) is not None
                    and next(self._burning(s), None) is not None
                ):
                    eligible.append(s)
            if eligible:
                self.window, self.choices, self.turn = eligible, {}, None
                return
        if self.queue:  # _next_answer, inlined
            self.turn = self.queue[0]
        else:
            self._round_won()

    def _is_gou_si_ji(self, seat: int, play: Play, beaten: int | None, hand: Play | None) -> bool:
        """Is ``seat``'s (non-burning) ``play`` 够死级? One of the three gouji hands after
        要头 (counted here), or the beat of 头科's or 二科's last hand, a gouji hand, by its
        opposite; never in the melee (as :meth:`engine.Game._is_gou_si_ji`)."""
        if self.melee or not _facts(play)[0]:
            return False
        if self.head_kept[seat]:
            self.head_kept[seat] -= 1
            return True
        return (
            self.gou_si_ji
            and beaten == _OPP[seat]
            and hand is not None
            and _facts(hand)[0]
            and self.places[beaten] in (1, 2)
        )

    def _end_burn(self, result: str) -> None:
        for b in reversed(self.burns):
            if b[2] == ONGOING:
                b[2] = result
                break
        self.burner = None

    def _on_beaten(self, beaten: int, by: int) -> None:
        if self.stifle_watch == beaten:
            if (by - beaten) % 2:
                self.stifled.append((beaten, by))
            self.stifle_watch = None
        if self.burner == beaten:
            self._end_burn(BROKEN)  # 解烧
        if self.melee_pending:
            self._begin_melee()

    def _begin_melee(self) -> None:
        """四户乱缠 (§3.5); a burn going on goes on (§4 "Into the melee")."""
        self.melee_pending = False
        self.melee = True
        self.passed = [False] * 6
        self.queue = []
        self.head_kept = [0] * 6  # unused 够死级 hands lapse (§3.4)

    def _next_answer(self) -> None:
        if self.queue:
            self.turn = self.queue[0]
            return
        self._round_won()

    def pass_(self, seat: int) -> None:
        if self.melee:
            self.melee_passes += 1
            self._advance_melee(seat)
            return
        self.passed[seat] = True
        queue = self.queue
        del queue[0]
        if queue:  # _next_answer, inlined
            self.turn = queue[0]
        else:
            self._round_won()

    def yield_(self, seat: int) -> None:
        self.yielder = seat
        q = self.queue
        self.queue = q[1:3] + [seat] + q[3:]
        self._next_answer()

    def _advance_melee(self, last: int) -> None:
        q = self.standing_seat
        active = self.active
        others = active.count(True)
        if q is not None and active[q]:
            others -= 1
        if self.melee_passes >= others:
            self._round_won()
            return
        s = (last + 1) % 6
        while not active[s] or s == q:
            s = (s + 1) % 6
        self.turn = s

    def _round_won(self) -> None:
        q, play = self.standing_seat, self.standing
        assert q is not None and play is not None
        if not self.melee and self.opens(play) and not self.revolted[q]:
            self.opened[q] = True
        if self.stifle_watch == q:
            self.stifle_watch = None
        if self.melee_pending:
            self._begin_melee()
        leader = q
        active = self.active
        while not active[leader]:
            leader = (leader + 1) % 6
        self._new_round(leader)

    def _new_round(self, leader: int) -> None:
        self.standing, self.standing_seat = None, None
        self.restricted = False
        self.dead = False
        self.passed = [False] * 6
        self.queue = []
        self.yielder = None
        self.melee_passes = 0
        self.turn = leader

    def _finish(self, seat: int, place: int | None = None) -> None:
        """走科: the next free place (or ``place``, a failed burner's)."""
        self.places[seat] = self._next_place() if place is None else place
        self.active[seat] = False
        self.finish_order.append(seat)
        if not self.melee and self.active.count(True) <= 4:
            self.melee_pending = True

    def _next_place(self) -> int:
        """As :meth:`engine.Game._next_place`: a revolutionary holds 四科 from the start and
        moves up to 三科 when its teammates take 头科 and 二科."""
        places = self.places
        place = 1
        while place in places:
            place += 1
        if place == 3 and True in self.revolted:
            rev = self.revolted.index(True)
            if places[rev] == 4:
                mates = sorted(places[m] or 0 for m in ((rev + 2) % 6, (rev + 4) % 6))
                if mates == [1, 2]:
                    places[rev] = 3
                    return 4
        return place

    def _check_game_end(self) -> bool:
        active = [s for s in range(6) if self.active[s]]
        team = active[0] % 2 if active else 0
        for s in active:
            if s % 2 != team:
                return False
        last = self.finish_order[-1] if self.finish_order else self.leader
        q = self.standing_seat
        if (
            q is not None
            and self.places[q] is not None
            and not self.melee
            and self.standing is not None
            and self.opens(self.standing)
            and self.window is None
        ):
            self.opened[q] = True
        active.sort(key=lambda s: (self.totals[s], (s - last) % 6))
        for s in active:
            self.places[s] = self._next_place()
            self.active[s] = False
        if True in self.revolted:
            rev = self.revolted.index(True)
            if self.places[rev] is None:
                self.places[rev] = self._next_place()
        self.done = True
        self.turn = None
        self.window = None
        if self.burner is not None:
            self._end_burn(BROKEN)
        return True

    # ------------------------------------------------------------------ results
    def points(self) -> list[int]:
        """Each seat's place points (the game must be over)."""
        places = [p or 0 for p in self.places]
        return place_points(places, is_sweep(list(self.places)))

    def tribute(self) -> list[TributeOwed]:
        """What the game leaves owing to the next one (the game must be over)."""
        burns = [(int(b[1]), int(b[0])) for b in self.burns if b[2] == SUCCESS]
        places = [p or 0 for p in self.places]
        return tribute_owed(places, self.declared, self.opened, self.stifled, burns)

    def value(self, seat: int, tribute_weight: float) -> float:
        """``seat``'s team points, plus ``tribute_weight`` per tribute card its team gets
        from the other team at the start of the next game (minus per card it pays)."""
        value = float(team_scores(self.points())[seat])
        if tribute_weight:
            team = seat % 2
            for owed in self.tribute():
                if (owed.payer - owed.receiver) % 2:
                    sign = 1 if team_of(owed.receiver) == team else -1
                    value += tribute_weight * owed.count * sign
        return value

    # ------------------------------------------------------------------ the policy
    def view(self, seat: int) -> View:
        """The policy's view of ``seat``: made once, its changing fields set on each call."""
        v = self.views[seat]
        if v is None:
            v = View(
                seat=seat,
                phase=Phase.PLAY,
                counts=self.counts[seat],
                card_counts=self.totals,
                standing=None,
                standing_seat=None,
                restricted=False,
                melee=False,
                three_rule=self.three_rule[seat],
                bie_san=self.bie_san,
                burning=False,
                can_yield=self.yielders[seat],
                in_window=False,
                burn_plays=lambda: self.burning_plays(seat),
                legal=lambda: self.legal_actions(seat),
                burn_seeds=self.seeds,
            )
            self.views[seat] = v
        v.standing = self.standing
        v.standing_seat = self.standing_seat
        v.restricted = self.restricted
        v.melee = self.melee
        v.burning = self.burner == seat and not self.melee
        v.in_window = self.window is not None
        return v

    def choose(self, seat: int, style: Style = EXPERT) -> tuple[Verb, Play | None]:
        """The policy's choice for ``seat`` as (verb, play or None), the same as
        :func:`engine.ai.hint.decide`; answers skip the view. :class:`ImpossibleWorld` when
        the seat has no legal action (a burner whose guessed hand cannot finish its burn)."""
        standing = self.standing
        if standing is not None and self.window is None:
            q = self.standing_seat
            assert q is not None
            if self.totals[seat] < standing.size:  # can neither beat nor go out
                return (Verb.YIELD if self.may_yield(seat) else Verb.PASS), None
            return answer_choice(
                seat,
                self.counts[seat],
                self.totals[seat],
                standing,
                q,
                self.three_rule[seat],
                self.restricted,
                self.melee,
                self.totals,
                self.yielders[seat],
                style,
            )
        if standing is None and (self.burner != seat or self.melee):  # a lead, not burning
            return Verb.PLAY, lead_choice(
                seat, self.counts[seat], self.three_rule[seat], self.totals, style
            )
        action = decide(self.view(seat), style)
        play = action.cards if isinstance(action.cards, Play) else None
        if (
            play is not None
            and standing is None
            and self.burner == seat
            and not self.melee
            and not self.burning_lead_ok(seat, play)
        ):
            legal = self.legal_plays(seat)
            if not legal:
                raise ImpossibleWorld(f"seat {seat} cannot go on with its burn")
            play = legal[0]
        return action.verb, play

    def decide(self, seat: int, style: Style = EXPERT) -> Action:
        """:meth:`choose` as an action."""
        verb, play = self.choose(seat, style)
        return Action(seat, verb, play)

    def rollout(self, style: Style = EXPERT, limit: int = 5000) -> int:
        """Play to the end with the policy for every seat; the actions used. The same
        choices as :meth:`choose`, with its commonest answers (a teammate's hand, a hand too
        big to beat) decided here without a call, and answers and plain leads asked of
        :func:`~engine.ai.hint.answer_choice` and :func:`~engine.ai.hint.lead_choice`
        directly. (Hot loop: ``tests/ai/test_sim.py`` keeps a digest of its choices.)"""
        steps = 0
        totals, counts, three_rule, yielders = (
            self.totals,
            self.counts,
            self.three_rule,
            self.yielders,
        )
        while not self.done and steps < limit:
            if self.window is not None:
                for seat in self.to_act:
                    verb, play = self.choose(seat, style)
                    self.answer_window(seat, play if verb == Verb.BURN else None)
                    steps += 1
                continue
            seat = self.turn  # type: ignore[assignment]
            standing = self.standing
            steps += 1
            if standing is None:
                if self.burner != seat or self.melee:  # a lead, not burning: as choose
                    verb, play = (
                        Verb.PLAY,
                        lead_choice(seat, counts[seat], three_rule[seat], totals, style),
                    )
                else:
                    verb, play = self.choose(seat, style)
            else:
                _, naturals, twos, small, big = standing
                size = naturals + twos + small + big
                total = totals[seat]
                q = self.standing_seat
                if total < size:  # can neither beat nor go out
                    # may_yield is false but for the opposite
                    verb = Verb.YIELD if (seat + 3) % 6 == q and self.may_yield(seat) else Verb.PASS
                elif total != size and (q - seat) % 2 == 0:  # type: ignore[operator]
                    verb = Verb.PASS  # a teammate's hand, and not our last
                else:  # only the opposite may yield
                    verb, play = answer_choice(
                        seat, counts[seat], total, standing, q, three_rule[seat],  # type: ignore[arg-type]
                        self.restricted, self.melee, totals,
                        yielders[seat] if (seat + 3) % 6 == q else _never, style,
                    )  # fmt: skip
            if verb == Verb.PASS:
                if self.melee:
                    self.pass_(seat)
                else:  # pass_, inlined
                    self.passed[seat] = True
                    queue = self.queue
                    del queue[0]
                    if queue:
                        self.turn = queue[0]
                    else:
                        self._round_won()
            elif verb == Verb.PLAY:
                assert play is not None
                self._play(seat, play, False)
            else:
                self.yield_(seat)
        return steps
