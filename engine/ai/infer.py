"""Inference of the hidden hands: guesses of the other seats' cards that explain what they
did, for the strong player's worlds.

Every recorded decision of another seat (:class:`~engine.ai.world.Evidence`: a lead, a
beat, a pass, a yield, with the public table it was taken at) is a test a guessed hand can
fail: would the policy, holding that hand then (the guess now plus what the seat has
played since), have taken that decision? A guess's *surprise* is the number of decisions
it fails. Against players who play like the policy the true hands have none, and a random
split of the unseen cards fails many (a third of a seat's decisions by the middle of a
game): a lead of the lowest set says which ranks below it the seat does not hold, a pass
which beats it has not got.

:class:`Belief` keeps one guess and improves it by a Metropolis walk: swap cards between
two other seats (most often one whose guess surprises), keep the swap if it surprises no
more (or, now and then, one surprise more, so that the walk does not stick), re-checking
only the two seats' own decisions. The worlds of a search are the walk's guesses a few swaps apart. The walk goes
on from one decision of the player to the next (its guess carried over: the cards each
seat played since taken out, the few that the guess did not hold put right), so a long
game costs no more per decision than its start.

Work is counted in policy calls (one recorded decision checked against one guessed hand),
the unit of :attr:`Belief.work`; the walk's lengths are fixed numbers of swaps, so the
guesses, and the decisions made on them, never depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import add
from typing import TYPE_CHECKING, Any

from ..burning import burn_completable
from ..cards import NUM_RANKS, TWO
from ..game import Phase
from ..hands import NO_RANK, Play
from ..observation import Observation
from .hint import Style, answer_choice, lead_candidates, lead_choice
from .sim import Sim
from .view import View
from .world import Decision, Evidence, UnfitObservation, sample_hands

if TYPE_CHECKING:
    from .cardmodel import CardModel

__all__ = ["Belief", "checks", "informative", "right_share", "seat_surprises", "surprises"]

# The walk's proposals, chosen by the share of hidden cards put in the right hand against
# expert play (76 positions, 400 swaps: 0.683 with uniform single-card swaps, 0.724 so):
TARGET = 0.8  # how often seat a is drawn among the seats its guess surprises
BLOCK = 0.5  # how often a swap moves several cards of each rank


def informative(d: Decision) -> bool:
    """Could the decision tell anything of the seat's hand? A seat holding fewer cards
    than the hand it faces, or facing a teammate's hand it cannot finish with, always
    passes (or yields)."""
    standing = d.standing
    if standing is None:
        return True
    total, seat = d.totals[d.action.seat], d.action.seat
    if total < standing.size:
        return False
    q = d.standing_seat
    return not (q is not None and (q - seat) % 2 == 0 and total != standing.size)


# A decision as a check (:func:`checks`): a lead (``standing`` None) or an answer, with
# what the table showed then and what the seat did.
Check = tuple[
    int, tuple[int, ...], tuple[int, ...], Play | None, int, bool, bool, bool, bool, str, object
]


def checks(decisions: Sequence[Decision]) -> list[Check]:
    """The decisions as flat tuples (seat, played since — () for nothing —, totals,
    standing, its seat, restricted, melee, burning, could yield, verb, cards):
    :func:`seat_surprises` runs over them millions of times."""
    return [
        (
            d.action.seat,
            d.played_since if any(d.played_since) else (),
            d.totals,
            d.standing,
            -1 if d.standing_seat is None else d.standing_seat,
            d.restricted,
            d.melee,
            d.burning,
            d.can_yield,
            d.action.verb,
            d.action.cards,
        )  # fmt: skip
        for d in decisions
    ]


def seat_surprises(
    decisions: Sequence[Check], hand: list[int], bie_san: bool, style: Style, cap: int
) -> int:
    """How many of one seat's ``decisions`` (:func:`checks`) the policy ``style`` would not
    have taken with ``hand`` now (its cards then: ``hand`` plus what it played since),
    counting up to ``cap``."""
    out = 0
    for d in decisions:
        out += fails(d, hand, bie_san, style)
        if out >= cap:
            break
    return out


def fails(check: Check, hand: list[int], bie_san: bool, style: Style) -> bool:
    """Whether the policy ``style`` would not have taken the decision ``check``
    (:func:`checks`) with ``hand`` now (its cards then: ``hand`` plus what it played
    since)."""
    seat, since, totals, standing, q, restricted, melee, burning, can_yield, verb, cards = check
    then = list(map(add, hand, since)) if since else hand  # the policy only reads it
    if standing is None:
        if burning:  # a burner's lead (rare): the policy's own list
            view = View(
                seat, Phase.PLAY, then, totals, None, None, False, melee, bie_san,
                bie_san, True, _no, False, _none, _none,
            )  # fmt: skip
            leads = lead_candidates(view, style)
            return not leads or leads[0] != cards
        return lead_choice(seat, then, bie_san, totals, style) != cards
    chosen = answer_choice(
        seat, then, totals[seat], standing, q, bie_san, restricted, melee, totals,
        _yes if can_yield else _no, style,
    )  # fmt: skip
    return chosen[0] != verb or chosen[1] != cards


def read_from(check: Check, style: Style) -> int:
    """The lowest rank whose count can change what the policy does at ``check``: an
    answer that cannot go out reads only the ranks that may beat the standing hand, the
    2s and the jokers (:func:`~engine.ai.hint.answer_choice`); a lead reads every rank.

    >>> read_from((1, (), (9,) * 6, Play(7, 2, 0, 0, 0), 0, False, False, False, False,
    ...            "pass", None), Style())
    8
    """
    seat, _, totals, standing = check[:4]
    if standing is None or style.grab_big:
        return 0
    srank, snat, stwos, ssmall, sbig = standing
    if totals[seat] == snat + stwos + ssmall + sbig:
        return 0  # the whole hand may go out: every rank counts
    floor = srank if snat or not (stwos or ssmall or sbig) else (TWO if stwos else NO_RANK)
    return min(floor + 1, TWO)


def surprises(
    evidence: Evidence,
    hands: Sequence[Sequence[int]],
    obs: Observation,
    style: Style,
    cap: int = 1 << 30,
) -> int:
    """How many of the recorded decisions the policy ``style`` would not have taken with
    the guessed ``hands`` (each seat's cards then: its guess now plus what it played
    since), counting up to ``cap``. Fewer means a likelier guess, as far as the others
    play like the policy."""
    out = 0
    for seat in range(6):
        mine = checks([d for d in evidence.decisions if d.action.seat == seat])
        if mine and out < cap:
            out += seat_surprises(mine, list(hands[seat]), obs.options.bie_san, style, cap - out)
    return out


def right_share(
    hands: Sequence[Sequence[float]], true: Sequence[Sequence[int]], seat: int
) -> float:
    """The share of the other seats' cards (``true``: every seat's rank counts) that the
    guess ``hands`` puts in the right hand, card for card (``hands`` may hold expected
    counts): the measure of a guess (bench/ai_infer.py, docs/ai.md).

    >>> right_share([[1, 0], [2, 0], [0, 1]], [[1, 0], [1, 1], [1, 0]], 0)  # 1 of 3 right
    0.333...
    """
    hit = total = 0.0
    for s, (guess, held) in enumerate(zip(hands, true, strict=True)):
        if s != seat:
            hit += sum(min(a, b) for a, b in zip(guess, held, strict=True))
            total += sum(held)
    return hit / total if total else 1.0


def _yes() -> bool:
    return True


def _no() -> bool:
    return False


def _none() -> list[Any]:
    return []


class Belief:
    """A guess of the other seats' current hands, improved by a Metropolis walk over swaps
    of cards between them (see the module doc). ``temperature``: a swap that adds ``k``
    surprises is kept with probability ``exp(-k / temperature)``.

    With a ``prior`` (a learned model of the hidden hands, :mod:`engine.ai.cardmodel`), the
    walk weighs its guesses by it too: a swap's gain in the model's log-likelihood of the
    guess, times ``prior_weight``, counts against its added surprises (one surprise weighs
    ``1 / temperature``), so the walk samples guesses likely under both.

    Use: :meth:`start` at each decision (it carries the last guess over when the game is
    the same one), :meth:`walk` for some swaps, :meth:`hands` for a world's guess."""

    def __init__(
        self,
        style: Style,
        rng: random.Random,
        temperature: float = 0.3,
        prior: CardModel | None = None,
        prior_weight: float = 1.0,
    ) -> None:
        self.style = style
        self.rng = rng
        self.temperature = temperature
        self.prior = prior
        self.prior_weight = prior_weight
        self._logp: list[list[float]] | None = None
        self._evidence: Evidence | None = None
        self.work = 0  # policy calls so far (the unit of the walk's cost)
        self._hands: list[list[int]] = []
        self._history: tuple[str, ...] = ()
        self._played: list[list[int]] = []
        self._seat = -1

    # ------------------------------------------------------------------ a new decision
    def start(self, obs: Observation, base: Sim, evidence: Evidence) -> bool:
        """Set the walk up for the decision of ``obs`` (``base``: the rebuilt state, whose
        burn window, if open, says who is asked): the last guess carried over if it is the
        same game, else a fresh random split. True when carried over."""
        self._obs = obs
        self._bie = obs.options.bie_san
        self._burner = (
            obs.burner
            if obs.burner not in (None, obs.seat)
            and not obs.melee
            and obs.options.burn_check == "completable"
            else None
        )
        self._asked = [s for s in obs.to_act if s != obs.seat] if base.window else []
        self._base = base
        self._evidence = evidence
        self._logp = self._log_prior(obs, evidence) if self.prior is not None else None
        carried = None
        same_game = (
            self._seat == obs.seat
            and len(obs.history) >= len(self._history)
            and obs.history[: len(self._history)] == self._history
        )
        if same_game:
            carried = self._carry(obs, evidence.played)
        reused = carried is not None
        if carried is None:
            carried = sample_hands(obs, self.rng, window=base)
        self._hands = carried
        self._history, self._played, self._seat = obs.history, evidence.played, obs.seat
        self._others = [s for s in range(6) if s != obs.seat and obs.card_counts[s]]
        by_seat: dict[int, list[Decision]] = {s: [] for s in self._others}
        for d in reversed(evidence.decisions):  # the latest first: they fail most often
            if d.action.seat in by_seat and informative(d):
                by_seat[d.action.seat].append(d)
        # every one: checking only a seat's latest 8 puts 0.659 of the cards right, not 0.712
        self._decisions = {s: checks(ds) for s, ds in by_seat.items()}
        self._reads = {
            s: [read_from(d, self.style) for d in ds] for s, ds in self._decisions.items()
        }
        # (seat, *hand) -> (count, counted only up to a cap, each decision failed when exact)
        self._known: dict[tuple[int, ...], tuple[int, bool, list[bool] | None]] = {}
        self._failed: dict[int, list[bool]] = {}  # each seat's guess: the decisions it fails
        self._tried: dict[int, list[bool] | None] = {}  # the last hand _surprises counted
        self._score = {}
        for s in self._others:
            self._score[s] = self._surprises(s, carried[s])
            self._failed[s] = self._tried[s] or []
        return reused

    def _log_prior(self, obs: Observation, evidence: Evidence) -> list[list[float]]:
        """Per seat and rank, ``prior_weight`` times the log of the model's chance that an
        unseen card of that rank is in that seat (the observer's row unused)."""
        assert self.prior is not None
        p = self.prior.probabilities(obs, evidence)
        out = [[0.0] * NUM_RANKS for _ in range(6)]
        w = self.prior_weight
        for i, row in enumerate(p.tolist()):
            out[(obs.seat + 1 + i) % 6] = [w * math.log(max(x, 1e-6)) for x in row]
        return out

    def expected(self) -> list[list[float]] | None:
        """The prior's expected rank counts of every seat at the decision :meth:`start`
        set up (:meth:`~engine.ai.cardmodel.CardModel.expected`), None without a prior."""
        if self.prior is None or self._evidence is None:
            return None
        return self.prior.expected(self._obs, self._evidence)

    def _carry(self, obs: Observation, played: list[list[int]]) -> list[list[int]] | None:
        """The last guess with the cards each seat played since taken out, and put right:
        a rank a seat played more of than the guess held is taken from the seats the guess
        gave it to, and each seat brought back to its number of cards from the rest."""
        rng = self.rng
        hands = [[0] * NUM_RANKS for _ in range(6)]
        for s in range(6):
            if s == obs.seat:
                hands[s] = list(obs.counts)
                continue
            for r in range(NUM_RANKS):
                since = played[s][r] - self._played[s][r]
                hands[s][r] = max(0, self._hands[s][r] - since)
        others = [s for s in range(6) if s != obs.seat]
        pool = [0] * NUM_RANKS
        for r in range(NUM_RANKS):
            held: int = sum(hands[s][r] for s in others)
            while held > obs.unseen[r]:  # the guess gave this rank to the wrong seat
                s = rng.choice([s for s in others if hands[s][r]])
                hands[s][r] -= 1
                held -= 1
            pool[r] = obs.unseen[r] - held
        for s in others:
            while sum(hands[s]) > obs.card_counts[s]:
                r = _pick(hands[s], rng)
                hands[s][r] -= 1
                pool[r] += 1
        for s in sorted(others, key=lambda s: not obs.revolted[s]):
            while sum(hands[s]) < obs.card_counts[s]:
                allowed = pool[:TWO] + [0] * (NUM_RANKS - TWO) if obs.revolted[s] else pool
                if not sum(allowed):
                    return None
                r = _pick(allowed, rng)
                hands[s][r] += 1
                pool[r] -= 1
        if any(not self._fits(s, hands[s]) for s in others):
            return None
        return hands

    # ------------------------------------------------------------------ the walk
    def walk(self, swaps: int) -> None:
        """``swaps`` proposed swaps of the Metropolis walk. A swap takes seat ``a`` most
        often among the seats its guess surprises (``TARGET``) and any other seat ``b``,
        a card of one rank from ``a`` and of another from ``b`` — and, half the time
        (``BLOCK``), up to as many of each as both hold (sets move whole)."""
        others = self._others
        if len(others) < 2:
            return
        rng, hands, revolted = self.rng, self._hands, self._obs.revolted
        score, temperature, logp = self._score, self.temperature, self._logp
        slack = max(1, math.ceil(4 * temperature))  # a swap adding more is all but never kept
        for _ in range(swaps):
            failing = [s for s in others if score[s]]
            if failing and rng.random() < TARGET:
                a = rng.choices(failing, [score[s] for s in failing])[0]
                b = rng.choice([s for s in others if s != a])
            else:
                a, b = rng.sample(others, 2)
            ra, rb = _pick(hands[a], rng), _pick(hands[b], rng)
            if ra == rb or (revolted[a] and rb >= TWO) or (revolted[b] and ra >= TWO):
                continue
            k = rng.randint(1, min(hands[a][ra], hands[b][rb])) if rng.random() < BLOCK else 1
            ha, hb = hands[a][:], hands[b][:]
            ha[ra] -= k
            ha[rb] += k
            hb[rb] -= k
            hb[ra] += k
            if not (self._fits(a, ha) and self._fits(b, hb)):
                continue
            before = score[a] + score[b]
            moved = ra if ra > rb else rb  # the ranks below both read as the guess did
            sa = self._surprises(a, ha, before + slack, moved)
            tried_a = self._tried[a]
            sb = (
                self._surprises(b, hb, before + slack - sa, moved) if sa < before + slack else slack
            )
            delta = sa + sb - before
            energy = delta / temperature
            if logp is not None:  # the prior's log-likelihood gained by the swap
                la, lb = logp[a], logp[b]
                energy -= k * (lb[ra] + la[rb] - la[ra] - lb[rb])
            if delta < slack and (energy <= 0 or rng.random() < math.exp(-energy)):
                hands[a], hands[b] = ha, hb
                score[a], score[b] = sa, sb
                failed_b = self._tried[b]
                assert tried_a is not None and failed_b is not None  # kept: counted exactly
                self._failed[a], self._failed[b] = tried_a, failed_b

    def hands(self) -> list[list[int]]:
        """A copy of the current guess (every seat; the observer's own cards as they are)."""
        return [h[:] for h in self._hands]

    @property
    def surprise(self) -> int:
        """The current guess's surprises (informative decisions it fails)."""
        return sum(self._score.values())

    def _surprises(
        self, seat: int, hand: list[int], cap: int = 1 << 30, moved: int = NUM_RANKS
    ) -> int:
        """:func:`seat_surprises` of ``seat`` holding ``hand``, remembered for this decision
        (a walk proposes the same hands again and again: most swaps are refused). ``hand``
        differs from the seat's guess in no rank above ``moved``, so a decision that reads
        only higher ranks (:func:`read_from`) fails as it does for the guess. Leaves in
        ``_tried[seat]`` each decision failed, or None if counting stopped at ``cap``."""
        key = (seat, *hand)
        known = self._known.get(key)
        if known is not None and (not known[1] or known[0] >= cap):
            self._tried[seat] = known[2]
            return known[0]  # exact, or already at least the cap
        decisions = self._decisions[seat]
        self.work += len(decisions)
        bie, style = self._bie, self.style
        guess = self._failed.get(seat) if moved < NUM_RANKS else None
        failed: list[bool] = []
        count = 0
        if guess is None:
            for d in decisions:
                f = fails(d, hand, bie, style)
                failed.append(f)
                count += f
                if count >= cap:
                    break
        else:
            for d, low, was in zip(decisions, self._reads[seat], guess, strict=True):
                f = was if moved < low else fails(d, hand, bie, style)
                failed.append(f)
                count += f
                if count >= cap:
                    break
        capped = count >= cap
        tried = None if capped else failed
        self._known[key] = (count, capped, tried)
        self._tried[seat] = tried
        return count

    def _fits(self, seat: int, hand: list[int]) -> bool:
        """What the position makes certain (as :func:`~engine.ai.world.sample_hands`): a
        burner can finish its burn, a seat the open burn window asks holds a burning play."""
        if seat == self._burner and not burn_completable(hand, self._bie):
            return False
        if seat in self._asked:
            base = self._base
            saved = base.counts[seat]
            base.counts[seat] = hand
            ok = bool(base.burning_plays(seat))
            base.counts[seat] = saved
            return ok
        return True


def _pick(hand: Sequence[int], rng: random.Random) -> int:
    """A rank drawn with the probability of its share of ``hand``'s cards."""
    k = rng.randrange(sum(hand))
    for r, n in enumerate(hand):
        if k < n:
            return r
        k -= n
    raise UnfitObservation("no card to draw")  # not reached: k < sum(hand)
