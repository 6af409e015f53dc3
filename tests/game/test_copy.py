"""``Game.copy`` (used by search) copies every field: nothing is shared that can change,
and playing on with the copy leaves the original as it was."""

from __future__ import annotations

import copy
import random

from engine.game import Burn, Game, Options, Phase


def _positions(seed: int, every: int = 7) -> list[Game]:
    """Snapshots of a random game at every ``every``-th step (burn windows included)."""
    rng = random.Random(seed)
    game = Game.from_deal(seed, Options(bie_san=seed % 2 == 1))
    out = [game.copy()]
    step = 0
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        seat = rng.choice(game.to_act)
        game.apply(rng.choice(game.legal_actions(seat)))
        step += 1
        if step % every == 0 or game.window is not None or game.current_burn is not None:
            out.append(game.copy())
    return out


def _shared(a: object, b: object) -> bool:
    """Do ``a`` and ``b`` share a mutable container or a burn?"""
    if isinstance(a, (list, dict, Burn)) and a is b:
        return True
    if isinstance(a, list) and isinstance(b, list):
        return any(_shared(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return any(_shared(a[k], b[k]) for k in a)
    return False


def test_game_copy_copies_every_field():
    checked = 0
    for seed in range(6):
        for game in _positions(seed):
            twin = game.copy()
            assert set(vars(twin)) == set(vars(game))
            for name, value in vars(game).items():
                assert getattr(twin, name) == value, name
                assert not _shared(getattr(twin, name), value), name
            if game.current_burn is not None:  # the copy's current burn is its own burn
                assert any(b is twin.current_burn for b in twin.burns)
            checked += 1
    assert checked > 100


def test_playing_on_a_copy_leaves_the_original_unchanged():
    for seed in range(6):
        for game in _positions(seed, every=25):
            before = copy.deepcopy(vars(game))
            twin = game.copy()
            rng = random.Random(seed)
            while twin.phase not in (Phase.FINISHED, Phase.VOID):
                seat = rng.choice(twin.to_act)
                twin.apply(rng.choice(twin.legal_actions(seat)))
            assert vars(game) == before
