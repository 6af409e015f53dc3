"""The learned model of the hidden hands: the shipped weights, what they predict, and the
walk that weighs its guesses by them."""

from __future__ import annotations

import math
import random

import numpy as np

import engine.ai.cardmodel_weights as cardmodel_weights
from bench.ai_train import check_positions, sample_arrays, samples_of
from engine.ai.cardmodel import decode, encode, shipped, softmax_seats
from engine.ai.hint import EXPERT
from engine.ai.infer import Belief
from engine.ai.world import rebuild_with_evidence

ALL = 1 << 30


def test_the_shipped_weights_give_the_outputs_they_gave_at_training_time():
    """On the fixed positions the training recorded, the shipped weights (decoded from the
    module) give the same probabilities, to float32 rounding."""
    model = shipped()
    got = []
    for obs, true, _ in check_positions():
        arrays = sample_arrays(obs, true)
        assert arrays is not None
        x, off, _ = arrays
        got += softmax_seats(model.logits(x) + off).reshape(-1).tolist()
    assert len(got) == len(cardmodel_weights.CHECK) > 5 * 15 * 5
    np.testing.assert_allclose(got, cardmodel_weights.CHECK, atol=2e-5)


def test_the_weights_encode_and_decode_unchanged():
    arrays = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.ones(4, np.float32)}
    back = decode([encode(arrays)], {"a": (2, 3), "b": (4,)})
    assert all(np.array_equal(back[k], arrays[k]) for k in arrays)


def test_the_model_knows_the_hidden_cards_better_than_a_random_split():
    """On positions of deals the training never saw, the true cards are likelier under the
    model than under a uniformly random split, and its expected counts put more of them in
    the right hand; each seat's expected cards add up to its card count."""
    model = shipped()
    gain = 0.0
    cards = 0
    for obs, true, _ in samples_of(2001, 0.2) + samples_of(2002, 0.2):
        arrays = sample_arrays(obs, true)
        assert arrays is not None
        x, off, y = arrays
        learned = softmax_seats(model.logits(x) + off)
        uniform = softmax_seats(off)
        held = y > 0
        gain += float((y * (np.log(learned + 1e-12) - np.log(uniform + 1e-12)))[held].sum())
        cards += int(y.sum())
        _, evidence = rebuild_with_evidence(obs, random.Random(0), ALL)
        expected = model.expected(obs, evidence)
        for s in range(6):
            assert math.isclose(sum(expected[s]), obs.card_counts[s], abs_tol=1e-3)
    assert cards > 1000
    assert gain / cards > 0.05  # nats a hidden card


def test_a_prior_of_weight_zero_walks_as_no_prior_and_a_real_one_is_deterministic():
    """The walk with the model at weight 0 makes the same guesses as without it (the same
    draws, the same swaps kept); at weight 1 two walks of one seed agree, and each guess is
    a split of the unseen cards by the card counts."""
    obs, _, _ = samples_of(2003, 1.0)[60]
    guesses = []
    for prior, weight in ((None, 1.0), (shipped(), 0.0), (shipped(), 1.0), (shipped(), 1.0)):
        base, evidence = rebuild_with_evidence(obs, random.Random(1), ALL)
        belief = Belief(EXPERT, random.Random(2), prior=prior, prior_weight=weight)
        belief.start(obs, base, evidence)
        belief.walk(200)
        hands = belief.hands()
        assert [sum(h) for h in hands] == list(obs.card_counts)
        assert [sum(h[r] for s, h in enumerate(hands) if s != obs.seat) for r in range(15)] == (
            list(obs.unseen)
        )
        guesses.append(hands)
    assert guesses[0] == guesses[1]
    assert guesses[2] == guesses[3]
    assert guesses[2] != guesses[0]
