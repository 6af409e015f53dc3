"""Inference of the hidden hands: guesses that explain the other seats' decisions."""

from __future__ import annotations

import random

from engine.ai import make_player
from engine.ai.hint import EXPERT
from engine.ai.infer import Belief, right_share, surprises
from engine.ai.world import rebuild_with_evidence, sample_hands
from engine.burning import burn_completable
from engine.game import Game, Phase
from tests.ai.helpers import dealt

ALL = 1 << 30


def expert_positions(seeds, every: int):
    """(game, observation) at every ``every``-th decision of expert games (the game as it
    was then: a copy)."""
    for seed in seeds:
        game = dealt(seed)
        players = [make_player("expert", s) for s in range(6)]
        step = 0
        while game.phase not in (Phase.FINISHED, Phase.VOID):
            seat = game.to_act[0]
            obs = game.observe(seat)
            step += 1
            if game.phase == "play" and step % every == 0:
                yield game.copy(), obs
            game.apply(players[seat].act(obs))


def right_cards(hands, game: Game, seat: int) -> float:
    """The share of the other seats' cards a guess puts in the right hand."""
    return right_share(hands, game.counts, seat)


def test_true_hands_never_surprise_against_the_policy():
    """With every seat playing the expert policy, the true hands explain every recorded
    decision, while random guesses do not."""
    rng = random.Random(4)
    checked = guessed = 0
    for game, obs in expert_positions(range(300, 303), 20):
        _, evidence = rebuild_with_evidence(obs, rng, ALL)
        assert surprises(evidence, [list(c) for c in game.counts], obs, EXPERT) == 0
        guessed += surprises(evidence, sample_hands(obs, rng), obs, EXPERT)
        checked += 1
    assert checked > 20 and guessed > 3 * checked


def test_the_walk_explains_the_decisions_and_finds_the_cards():
    """Against expert play, 400 swaps take a random split from many surprises to few, and
    put clearly more cards in the right hand than random splits do; every guess is a split
    of the unseen cards by the seats' card counts."""
    rng = random.Random(5)
    before = after = 0
    right_random = right_walk = 0.0
    n = 0
    for game, obs in expert_positions(range(310, 313), 17):
        base, evidence = rebuild_with_evidence(obs, rng, ALL)
        belief = Belief(EXPERT, random.Random(n))
        belief.start(obs, base, evidence)
        before += belief.surprise
        right_random += right_cards(belief.hands(), game, obs.seat)
        belief.walk(400)
        after += belief.surprise
        hands = belief.hands()
        assert surprises(evidence, hands, obs, EXPERT) == belief.surprise
        assert hands[obs.seat] == list(obs.counts)
        assert [sum(h) for h in hands] == list(obs.card_counts)
        assert [sum(h[r] for s, h in enumerate(hands) if s != obs.seat) for r in range(15)] == (
            list(obs.unseen)
        )
        right_walk += right_cards(hands, game, obs.seat)
        n += 1
    assert n > 20
    assert after * 3 < before
    assert right_walk / n > right_random / n + 0.08


def test_the_guess_is_carried_from_one_decision_to_the_next():
    """The same seat's next decision in the same game starts from the last guess, the
    cards played since taken out (a valid split again); a new game starts afresh."""
    rng = random.Random(6)
    belief = Belief(EXPERT, random.Random(1))
    warm = []
    for _game, obs in expert_positions([320], 1):
        if obs.seat != 2 or len(obs.legal_actions) < 2:
            continue
        base, evidence = rebuild_with_evidence(obs, rng, ALL)
        warm.append(belief.start(obs, base, evidence))
        hands = belief.hands()
        assert [sum(h) for h in hands] == list(obs.card_counts)
        assert [sum(h[r] for s, h in enumerate(hands) if s != 2) for r in range(15)] == list(
            obs.unseen
        )
        belief.walk(50)
    assert warm[0] is False and all(warm[1:]) and len(warm) > 5
    _game, obs = next(
        (g, o) for g, o in expert_positions([321], 1) if o.seat == 2 and len(o.history) > 40
    )
    base, evidence = rebuild_with_evidence(obs, rng, ALL)
    assert belief.start(obs, base, evidence) is False  # another game: a fresh split


def test_the_walk_is_deterministic_for_a_seed_and_keeps_a_burner_able_to_finish():
    """Seat 2 burns KK with AA and must be able to finish its burn: no guess of the walk
    gives it a hand of three ranks and one joker; two beliefs of one seed agree."""
    game = Game.from_position(["KK3", "4455", "AAB56", "789T", "6677", "22JQ"], leader=0)
    game.apply_text("0 play KK")
    game.apply_text("2 burn AA")
    obs = game.observe(5)
    guesses = []
    for _ in range(2):
        base, evidence = rebuild_with_evidence(obs, random.Random(1), ALL)
        belief = Belief(EXPERT, random.Random(2))
        belief.start(obs, base, evidence)
        seen = []
        for _ in range(30):
            belief.walk(5)
            assert burn_completable(belief.hands()[2], False)
            seen.append(belief.hands())
        guesses.append(seen)
    assert guesses[0] == guesses[1]
