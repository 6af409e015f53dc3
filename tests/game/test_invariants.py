"""Invariants over thousands of random games: every seat picks uniformly among its legal
actions. ``pytest --slow`` runs 20,000 games instead of 1,200."""

from __future__ import annotations

import random

import pytest

from engine.cards import format_cards
from engine.game import FINISHED, VOID, Game, Options
from engine.record import replay_record, state_json
from engine.scoring import team_scores

from .randomplay import play_random_game


def record_of(game: Game) -> dict:
    """The real-game record of a game played from a deal."""
    return {
        "format": "gouji-record/1",
        "options": game.options.to_json(),
        "hands": [" ".join(str(c) for c in h) for h in game.dealt],
        "seed": game.seed,
        "actions": [str(a) for a in game.actions],
    }


def check_game(game: Game) -> None:
    total = [sum(h[r] for h in map(_counts, game.dealt)) for r in range(15)]
    held = [sum(c[r] for c in game.counts) for r in range(15)]
    assert [h + p for h, p in zip(held, game.played, strict=True)] == total  # cards conserved
    for seat in range(6):
        assert format_cards(game.cards[seat]) == format_cards(_from_counts(game.counts[seat]))
    if game.phase == VOID:
        assert sum(game.revolted) >= 2
        return
    assert game.phase == FINISHED and game.to_act == []
    assert sorted(game.places) == [1, 2, 3, 4, 5, 6]  # places are a permutation
    assert sum(team_scores(game.points())) == 0  # team points sum to zero
    assert sum(game.points()) == 0
    for b in game.burns:
        assert b.result in ("success", "broken")
    replayed = replay_record(record_of(game))
    assert replayed == state_json(game)  # the log rebuilds the same state


def _counts(cards):
    c = [0] * 15
    for card in cards:
        c[card.rank] += 1
    return c


def _from_counts(counts):
    from engine.cards import Card

    return [Card(r) for r, n in enumerate(counts) for _ in range(n)]


@pytest.mark.parametrize("bie_san", [False, True])
def test_random_full_games_keep_every_invariant(bie_san):
    for seed in range(500):
        check_game(play_random_game(seed, bie_san))


def random_position_game(seed: int) -> Game:
    """Small random hands (4–9 cards) from the shoe: burns, melee and endings come often."""
    from engine.cards import new_shoe

    rng = random.Random(seed)
    shoe = new_shoe()
    rng.shuffle(shoe)
    hands, i = [], 0
    for _ in range(6):
        n = rng.randint(4, 9)
        hands.append(shoe[i : i + n])
        i += n
    g = Game.from_position(hands, rng.randrange(6), options=Options(bie_san=rng.random() < 0.3))
    g.seed = seed
    steps = 0
    while g.phase != FINISHED:
        assert g.to_act, "someone can always act until the end"
        seat = rng.choice(g.to_act)
        actions = g.legal_actions(seat)
        assert actions
        g.apply(rng.choice(actions))
        steps += 1
        assert steps < 2000
    return g


def test_random_small_positions_keep_every_invariant_and_burn():
    burns = {"success": 0, "broken": 0}
    melee = 0
    for seed in range(1000):
        g = random_position_game(seed)
        assert sorted(g.places) == [1, 2, 3, 4, 5, 6]
        assert sum(team_scores(g.points())) == 0
        for b in g.burns:
            burns[b.result] += 1
        melee += g.melee
        rec = {
            "format": "gouji-record/1",
            "options": g.options.to_json(),
            "hands": [" ".join(str(c) for c in h) for h in g.dealt],
            "leader": g.leader,
            "actions": [str(a) for a in g.actions],
        }
        assert replay_record(rec) == state_json(g)
    assert burns["success"] > 0 and melee > 0  # broken burns are rare here: see test_burn.py


@pytest.mark.slow
def test_many_random_games_keep_every_invariant():
    for seed in range(10_000):
        for bie_san in (False, True):
            check_game(play_random_game(seed + 10_000, bie_san))
