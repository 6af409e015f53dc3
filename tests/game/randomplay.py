"""Random self-play: every seat picks uniformly among its legal actions — under every table
option (:data:`OPTION_SETS`)."""

from __future__ import annotations

import random

from engine.actions import Action, Verb
from engine.cards import Card, deal, format_cards
from engine.game import Game, Options, Phase
from engine.series import Series

# Each table option away from its default, and all of them at once (docs/rules.en.md §9).
OPTION_SETS: dict[str, Options] = {
    "default": Options(),
    "bie_san": Options(bie_san=True),
    "no_single_return_off": Options(no_single_return=False),
    "tribute_biggest": Options(tribute_cards="biggest"),
    "gou_si_ji": Options(gou_si_ji=True),
    "burn_seeds": Options(burn_check="seeds"),
    "open_wide": Options(open_rule="wide"),
    "all": Options(
        bie_san=True,
        no_single_return=False,
        tribute_cards="biggest",
        gou_si_ji=True,
        burn_check="seeds",
        open_rule="wide",
    ),
}
# The options that change a single game (the tribute ones act between games only).
GAME_OPTION_SETS = {
    k: v for k, v in OPTION_SETS.items() if k not in ("no_single_return_off", "tribute_biggest")
}


def play_random_game(
    seed: int, bie_san: bool = False, max_steps: int = 5000, *, options: Options | None = None
) -> Game:
    """Deal from ``seed`` and play to the end with uniformly random legal actions."""
    rng = random.Random(seed)
    game = Game.from_deal(seed, options or Options(bie_san=bie_san))
    steps = 0
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        waiting = game.to_act
        assert waiting, f"nobody can act in phase {game.phase}"
        seat = rng.choice(waiting)
        actions = game.legal_actions(seat)
        assert actions, f"seat {seat} is waited on but has no legal action"
        game.apply(rng.choice(actions))
        steps += 1
        assert steps < max_steps, "game does not end"
    return game


__all__ = ["OPTION_SETS", "play_random_game", "play_random_series"]


def play_random_series(
    seed: int, bie_san: bool = False, *, options: Options | None = None
) -> tuple[Series, dict]:
    """A five-game tribute series of random players; returns (series, record dict)."""
    options = options or Options(bie_san=bie_san)
    rng = random.Random(seed)
    series = Series(options)
    record: dict = {"format": "gouji-series/1", "options": options.to_json(), "games": []}
    deal_no = 0
    while not series.finished:
        deal_seed = seed * 1000 + deal_no
        deal_no += 1
        hands = deal(deal_seed)
        entry: dict = {
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
            cards = format_cards([Card(r) for r in rng.sample(pool, n)])
            action = Action(giver, Verb.RETURN, cards)
            series.apply(action)
            entry["returns"].append(str(action))
        game = sg.game
        assert game is not None
        while game.phase not in (Phase.FINISHED, Phase.VOID):
            seat = rng.choice(game.to_act)
            action = rng.choice(game.legal_actions(seat))
            series.apply(action)
            entry["actions"].append(str(action))
    return series, record
