"""The hint policy (and the expert style the strong player uses) under every table option:
its own choice is always legal — it never leans on ``suggest``'s fallback — and a burner
never leads a hand that fails its burn when a joker lead is at hand."""

from __future__ import annotations

import random

import pytest

from engine.actions import Verb
from engine.ai.hint import EXPERT, HINT, decide
from engine.ai.view import view_of_observation
from engine.game import Game, Phase
from engine.hands import Play

from .randomplay import GAME_OPTION_SETS
from .test_invariants import random_position


def _play_with_policy(game: Game, seed: int) -> tuple[int, int]:
    """Seats alternate between the hint, the expert style and random choices; every policy
    choice must be legal as it stands. Returns (decisions, 要头 answers)."""
    rng = random.Random(seed)
    decisions = heads = 0
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        seat = rng.choice(game.to_act)
        obs = game.observe(seat)
        kind = (seat + seed) % 3
        if kind == 2:
            action = rng.choice(obs.legal_actions)
        else:
            view = view_of_observation(obs)
            action = decide(view, HINT if kind == 0 else EXPERT)
            assert action in obs.legal_actions, (action, game.phase)
            if view.burning and not view.melee and action.verb == Verb.PLAY and view.burn_seeds:
                has_joker_lead = any(
                    a.verb == Verb.PLAY and isinstance(a.cards, Play) and a.cards.jokers
                    for a in obs.legal_actions
                )
                assert isinstance(action.cards, Play)
                last = action.cards.size == view.total
                assert last or action.cards.jokers or not has_joker_lead
            decisions += 1
            heads += obs.phase == "head"
        game.apply(action)
    return decisions, heads


@pytest.mark.parametrize("name", sorted(GAME_OPTION_SETS))
def test_hint_and_expert_choose_legal_actions_under_every_option(name):
    options = GAME_OPTION_SETS[name]
    decisions = heads = 0
    for seed in range(12):
        d, _ = _play_with_policy(Game.from_deal(seed, options), seed)
        decisions += d
    for seed in range(120):
        d, h = _play_with_policy(random_position(seed, options)[0], seed)
        decisions += d
        heads += h
    assert decisions > 1000
    if options.gou_si_ji:
        assert heads > 0  # the policy answered 要头 / 无头
