"""Duplicate matches between the hard AI with and without the model of the hidden hands.

    nice -n 19 python -m bench.ai_arena --a strong+model --b expert --games 100 --seed 5000

``gouji arena`` (the same deals, seats, seeds and figures: :func:`bot.cli.arena.play_match`)
with two more kinds of player: ``strong+model``, the hard AI whose inference walk weighs its
guesses by the shipped model (:mod:`engine.ai.cardmodel`, weight ``--weight``), and
``strong-model``, the hard AI without it; any other kind is ``gouji arena``'s. One process;
each deal's result is appended to ``--out`` (JSON lines) as it is played, so a match stopped
early can be summed up (``--summary PATH``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import engine.ai
from bot.cli.arena import format_summary, play_deal, summarize
from bot.cli.options import add_option_argument, options_from_args
from engine.ai.player import Player
from engine.ai.strong import StrongPlayer

_make_player = engine.ai.make_player


def kinds(weight: float, model_swaps: int, plain_swaps: int) -> Any:
    """``make_player`` with the two kinds of this bench (and their swaps between worlds)."""

    def make(kind: str, seed: int) -> Player:
        if kind == "strong+model":
            from engine.ai.cardmodel import shipped

            return StrongPlayer(seed, model=shipped(), model_weight=weight, world_swaps=model_swaps)
        if kind == "strong-model":
            return StrongPlayer(seed, model=None, world_swaps=plain_swaps)
        return _make_player(kind, seed)

    return make


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--a", default="strong+model")
    parser.add_argument("--b", default="expert")
    parser.add_argument("--games", type=int, default=20, help="deals to play (each twice)")
    parser.add_argument("--seed", type=int, default=5000, help="first deal's seed")
    parser.add_argument("--series", action="store_true", help="five-game tribute series")
    parser.add_argument("--bie-san", action="store_true", help="the bie-san (憋三) variant")
    parser.add_argument("--weight", type=float, default=1.0, help="the model's weight")
    parser.add_argument("--model-swaps", type=int, default=60, help="strong+model's world swaps")
    parser.add_argument("--plain-swaps", type=int, default=60, help="strong-model's world swaps")
    parser.add_argument("--out", default="/tmp/gouji-arena.jsonl", help="each deal's result")
    parser.add_argument("--summary", default="", help="only sum up the results in this file")
    add_option_argument(parser)
    args = parser.parse_args()
    if args.summary:
        with open(args.summary, encoding="utf-8") as f:
            deals = [json.loads(line) for line in f]
        print(format_summary(summarize(deals), args))
        return
    engine.ai.make_player = kinds(
        args.weight, args.model_swaps, args.plain_swaps
    )  # play_deal imports it when it plays
    options = options_from_args(args).to_json()
    deals = []
    with open(args.out, "w", encoding="utf-8") as f:
        for d in range(args.games):
            deals.append(play_deal((args.a, args.b, args.seed, d, args.series, dict(options))))
            f.write(json.dumps(deals[-1]) + "\n")
            f.flush()
            print(f"{d + 1}/{args.games} deals", file=sys.stderr, flush=True)
    print(format_summary(summarize(deals), args))


if __name__ == "__main__":
    main()
