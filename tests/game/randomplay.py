"""Random self-play: every seat picks uniformly among its legal actions."""

from __future__ import annotations

import random

from engine.game import FINISHED, PLAY_PHASE, VOID, Game, Options


def play_random_game(seed: int, bie_san: bool = False, max_steps: int = 5000) -> Game:
    """Deal from ``seed`` and play to the end with uniformly random legal actions."""
    rng = random.Random(seed)
    game = Game.from_deal(seed, Options(bie_san=bie_san))
    steps = 0
    while game.phase not in (FINISHED, VOID):
        waiting = game.to_act
        assert waiting, f"nobody can act in phase {game.phase}"
        seat = rng.choice(waiting)
        actions = game.legal_actions(seat)
        assert actions, f"seat {seat} is waited on but has no legal action"
        game.apply(rng.choice(actions))
        steps += 1
        assert steps < max_steps, "game does not end"
    return game


__all__ = ["play_random_game", "PLAY_PHASE"]


def play_random_series(seed: int, bie_san: bool = False) -> tuple:
    """A five-game tribute series of random players; returns (series, record dict)."""
    from engine.actions import RETURN, Action
    from engine.cards import deal
    from engine.series import Series

    rng = random.Random(seed)
    series = Series(Options(bie_san=bie_san))
    record = {"format": "gouji-series/1", "options": {"bie_san": bie_san}, "games": []}
    deal_no = 0
    while not series.finished:
        deal_seed = seed * 1000 + deal_no
        deal_no += 1
        hands = deal(deal_seed)
        entry = {
            "hands": [" ".join(str(c) for c in h) for h in hands],
            "seed": deal_seed,
            "returns": [],
            "actions": [],
        }
        record["games"].append(entry)
        sg = series.start_game(hands, deal_seed)
        while sg.pending_return is not None:
            giver = sg.pending_return.giver
            n, allowed = series.returnable(giver)
            pool = [r for r, c in enumerate(allowed) for _ in range(c)]
            from engine.cards import Card, format_cards

            cards = format_cards([Card(r) for r in rng.sample(pool, n)])
            action = Action(giver, RETURN, cards)
            series.apply(action)
            entry["returns"].append(str(action))
        game = sg.game
        while game.phase not in (FINISHED, VOID):
            seat = rng.choice(game.to_act)
            action = rng.choice(game.legal_actions(seat))
            series.apply(action)
            entry["actions"].append(str(action))
    return series, record
