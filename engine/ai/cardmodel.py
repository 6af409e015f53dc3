"""A learned model of the hidden hands: from one seat's public history and own cards, how
likely each unseen card is in each other seat.

The model is a small network (one hidden layer) over features of what the seat saw
(:func:`features`): its own cards, the unseen cards, and for each other seat its card
count, what it has played, and what its decisions hint — the ranks it passed over
(a pass on a hand that a card of that rank would have beaten), skipped when it beat (a
higher rank used), skipped when it led (a higher set led first). For each rank it gives
each other seat a logit; a card of that rank is in seat ``s`` with probability
proportional to ``card_counts[s] * exp(logit)`` (so all-zero logits are a uniformly
random split), a revolutionary holds no 2 and no joker. :meth:`CardModel.expected`
scales the probabilities so that each seat's expected cards add up to its card count.

It was trained on the expert policy's self-play (``python -m bench.ai_train``, which
writes :mod:`engine.ai.cardmodel_weights`: the weights, the seed, the data's size, and its
outputs on fixed positions that the tests check). The inference walk
(:class:`~engine.ai.infer.Belief`) can weigh its guesses by it
(``StrongPlayer(model=shipped())``). The hard AI does not by default: the guesses get
better, the decisions do not (docs/ai.md has the figures). The engine stays pure: the
weights are a module that is imported, not a file that is read.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from functools import cache

import numpy as np
from numpy.typing import NDArray

from ..cards import NUM_RANKS, TWO
from ..hands import NO_RANK, Play
from ..observation import Observation
from .infer import informative
from .world import Evidence

__all__ = ["CardModel", "FEATURES", "features", "load", "shipped"]

OTHERS = 5  # the other seats, by their distance clockwise: 1 (next) … 5 (previous)
SEAT_RANK = 6  # features of each other seat and rank (see features())
SEAT_ONLY = 7  # features of each other seat
FEATURES = 2 * NUM_RANKS + 3 + OTHERS * (SEAT_RANK * NUM_RANKS + SEAT_ONLY)

Floats = NDArray[np.float32]


def _floor(p: Play) -> int:
    """The rank above which a card beats ``p`` by rank (:func:`~engine.ai.infer.read_from`)."""
    if p.naturals:
        return p.rank
    return TWO if p.twos else NO_RANK + NUM_RANKS  # jokers: nothing counted


def _low(p: Play) -> int:
    """The rank ``p`` is played as: its natural rank, else 2, else the small joker."""
    if p.naturals:
        return p.rank
    return TWO if p.twos else TWO + 1


def features(obs: Observation, evidence: Evidence) -> Floats:
    """The model's input for the decision of ``obs`` (``evidence``: every recorded decision
    of the other seats, :func:`~engine.ai.world.rebuild_with_evidence` with no limit)."""
    me = obs.seat
    seat_rank = np.zeros((OTHERS, SEAT_RANK, NUM_RANKS), np.float32)
    seat_only = np.zeros((OTHERS, SEAT_ONLY), np.float32)
    for d in evidence.decisions:
        a = d.action
        i = (a.seat - me) % 6 - 1
        if i < 0:
            continue
        row = seat_rank[i]
        cards = a.cards if isinstance(a.cards, Play) else None
        standing = d.standing
        if standing is None:
            if cards is not None:  # a lead: the ranks below it were not led
                seat_only[i, 0] += 1
                row[2, : _low(cards)] += 1
            continue
        q = d.standing_seat
        if q is None or (q - a.seat) % 2 == 0 or not informative(d):
            continue  # a teammate's hand, or nothing the seat could do
        lo = _floor(standing) + 1
        if cards is None:  # a pass (or yield) on a hand each rank above lo could beat
            seat_only[i, 1] += 1
            row[0, lo:] += 1
            if standing.size <= 2:
                row[1, lo:] += 1
            if standing.size >= 4:
                row[5, lo:] += 1
        else:  # a beat: the ranks between the hand and the beat were skipped
            seat_only[i, 2] += 1
            row[3, lo : _low(cards)] += 1
    for s in range(6):
        i = (s - me) % 6 - 1
        if i < 0:
            continue
        seat_rank[i, 4] += np.asarray(evidence.played[s], np.float32) / 8
        seat_only[i, 3] = obs.card_counts[s] / 36
        seat_only[i, 4] = obs.revolted[s]
        seat_only[i, 5] = obs.declared[s]
        seat_only[i, 6] = obs.card_counts[s] == 0
    np.log1p(seat_rank[:, :4], out=seat_rank[:, :4])
    np.log1p(seat_rank[:, 5], out=seat_rank[:, 5])
    np.log1p(seat_only[:, :3], out=seat_only[:, :3])
    head = np.concatenate(
        [
            np.asarray(obs.counts, np.float32) / 8,
            np.asarray(obs.unseen, np.float32) / 16,
            np.asarray([obs.melee, sum(obs.card_counts) / 216, len(obs.history) / 400]),
        ]
    ).astype(np.float32)
    return np.concatenate([head, seat_rank.reshape(-1), seat_only.reshape(-1)])


def offsets(obs: Observation) -> Floats:
    """Per other seat and rank, the log of the uniform split's odds: log card count, and
    -inf where the seat cannot hold the rank (no cards; a revolutionary's 2s and jokers)."""
    out = np.full((OTHERS, NUM_RANKS), -np.inf, np.float32)
    for s in range(6):
        i = (s - obs.seat) % 6 - 1
        if i >= 0 and obs.card_counts[s]:
            out[i] = np.log(obs.card_counts[s])
            if obs.revolted[s]:
                out[i, TWO:] = -np.inf
    return out


def softmax_seats(logits: Floats) -> Floats:
    """Each rank's probabilities over the other seats (axis -2), -inf logits at zero."""
    top = np.max(logits, axis=-2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(logits - top)
    total = e.sum(axis=-2, keepdims=True)
    return (e / np.where(total > 0, total, 1)).astype(np.float32)


class CardModel:
    """The network: ``w1`` (features × hidden), ``b1``, ``w2`` (hidden × 75 logits: other
    seat by rank), ``b2``, and the input's scaling ``mean`` and ``scale``."""

    def __init__(self, weights: Mapping[str, NDArray[np.float32]]) -> None:
        self.w1 = weights["w1"]
        self.b1 = weights["b1"]
        self.w2 = weights["w2"]
        self.b2 = weights["b2"]
        self.mean = weights["mean"]
        self.scale = weights["scale"]

    def logits(self, x: Floats) -> Floats:
        """The learned logits (``(..., 5, 15)``) for feature rows ``x``."""
        h = np.maximum((x - self.mean) * self.scale @ self.w1 + self.b1, 0)
        out: Floats = h @ self.w2 + self.b2
        return out.reshape(*x.shape[:-1], OTHERS, NUM_RANKS)

    def probabilities(self, obs: Observation, evidence: Evidence) -> Floats:
        """``(5, 15)``: the chance that an unseen card of each rank is in each other seat
        (by distance clockwise from ``obs.seat``)."""
        return softmax_seats(self.logits(features(obs, evidence)) + offsets(obs))

    def expected(self, obs: Observation, evidence: Evidence, rounds: int = 20) -> list[list[float]]:
        """Every seat's expected rank counts (the observer's own as they are): the
        probabilities times the unseen cards, scaled in turn (``rounds`` times) so that
        each seat's add up to its card count and each rank's to the unseen ones."""
        unseen = np.asarray(obs.unseen, np.float64)
        p = self.probabilities(obs, evidence).astype(np.float64) * unseen
        want = np.asarray([obs.card_counts[(obs.seat + 1 + i) % 6] for i in range(OTHERS)])
        for _ in range(rounds):
            held = p.sum(axis=1)
            p *= (want / np.where(held > 0, held, 1))[:, None]
            ranks = p.sum(axis=0)
            p *= unseen / np.where(ranks > 0, ranks, 1)
        out = [[0.0] * NUM_RANKS for _ in range(6)]
        out[obs.seat] = [float(c) for c in obs.counts]
        for i in range(OTHERS):
            out[(obs.seat + 1 + i) % 6] = [float(v) for v in p[i]]
        return out


def decode(blob: Sequence[str], shapes: Mapping[str, tuple[int, ...]]) -> dict[str, Floats]:
    """The arrays that :func:`encode` wrote: float32, in the order of ``shapes``."""
    raw = np.frombuffer(base64.b64decode("".join(blob)), np.float32)
    out, at = {}, 0
    for name, shape in shapes.items():
        n = int(np.prod(shape))
        out[name] = raw[at : at + n].reshape(shape)
        at += n
    return out


def encode(arrays: Mapping[str, NDArray[np.float32]]) -> str:
    """The arrays as float32, one after the other, in base64 (the weights module's text)."""
    return base64.b64encode(
        b"".join(np.ascontiguousarray(a, np.float32).tobytes() for a in arrays.values())
    ).decode()


@cache
def shipped() -> CardModel:
    """The model whose weights are committed (:mod:`engine.ai.cardmodel_weights`)."""
    from .cardmodel_weights import BLOB, SHAPES

    return CardModel(decode(BLOB, SHAPES))


def load(weights: Mapping[str, NDArray[np.float32]] | None = None) -> CardModel:
    """A model of ``weights``, or the shipped one."""
    return shipped() if weights is None else CardModel(weights)
