"""``gouji review RECORD --seat N [--json]``: a seat's costliest decisions (复盘, docs/replay.md).

The record helpers here (``load_record``, ``replay_of``, ``add_game_argument``) are shared
with ``gouji replay --step``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any


def load_record(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror}") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not JSON: {e}") from e


def replay_of(args: argparse.Namespace) -> Any:
    """The :class:`~engine.replay_steps.Replay` of ``args.file`` (raises ValueError)."""
    from engine.replay_steps import Replay

    return Replay.from_record(load_record(args.file), args.game)


def fail(args: argparse.Namespace, message: str) -> int:
    """Say what is wrong (JSON with ``--json``); exit status 2."""
    if args.json:
        print(json.dumps({"ok": False, "error": {"reason": message}}, ensure_ascii=False))
    else:
        print(message, file=sys.stderr)
    return 2


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", type=int, help="in a series record, the game (1-5; default the last finished)"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from engine.ai.review import DEFAULT_BUDGET

    parser.add_argument(
        "file", metavar="RECORD", help="a finished game's record (gouji-record/1 or gouji-series/1)"
    )
    parser.add_argument("--seat", type=int, required=True, choices=range(6), help="whose play")
    add_game_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=0, help="seed of the guessed deals")
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"rollouts for the whole review (default {DEFAULT_BUDGET}: about half a minute)",
    )


def run(args: argparse.Namespace) -> int:
    """The seat's costliest decisions, up to five, each against what the strong AI would do."""
    from engine.ai.review import review
    from engine.record import ReplayError

    try:
        if args.budget < 1:
            raise ValueError("--budget must be at least 1 rollout")
        result = review(replay_of(args), args.seat, seed=args.seed, budget=args.budget)
    except ReplayError as e:
        return fail(args, f"illegal action (action {e.index}: {e.action!r}): {e.reason}")
    except ValueError as e:
        return fail(args, str(e))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    print(f"seat {result.seat}: {result.decisions} decisions reviewed, {result.rollouts} rollouts")
    if not result.mistakes:
        print("  no decision cost clearly more than the strong AI's choice")
    for m in result.mistakes:
        facing = f"facing {m.standing} of seat {m.standing_seat}" if m.standing else "leading"
        print(
            f"  step {m.step} ({facing}, hand {m.hand}): {m.action.verb} "
            f"{m.action.cards or ''}".rstrip()
            + f" — the AI: {m.suggested.verb} {m.suggested.cards or ''}".rstrip()
            + f"; costs {m.cost:.1f} ± {m.margin:.1f} team points ({m.worlds} guessed deals)"
        )
    return 0


def main(argv: Sequence[str]) -> int:
    """``gouji review ARGS`` as a function."""
    parser = argparse.ArgumentParser(prog="gouji review", description=run.__doc__)
    add_arguments(parser)
    return run(parser.parse_args(list(argv)))
