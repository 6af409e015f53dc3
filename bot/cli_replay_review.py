"""``gouji replay FILE --step N -o table.png`` and ``gouji review RECORD --seat N [--json]``.

Each command is ``add_*_arguments(parser)`` + ``run_*(args) -> int`` (the shape of every
``gouji`` subcommand) and ``*_main(argv)`` to call it directly. (New file; at the merge of
the bot's new layout it belongs in ``bot/cli/``: the replay options join ``gouji replay``,
``review`` becomes a subcommand.)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any


def _load(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror}") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not JSON: {e}") from e


def _replay_of(args: argparse.Namespace) -> Any:
    """The :class:`~engine.replay_steps.Replay` of ``args.file`` (raises ValueError)."""
    from engine.replay_steps import Replay

    return Replay.from_record(_load(args.file), args.game)


def _names(text: str | None, lang: str) -> list[str]:
    from .replay_pictures import default_names

    if not text:
        return default_names(lang)
    names = [n.strip() for n in text.split(",")]
    if len(names) != 6:
        raise ValueError("--names takes six names separated by commas")
    return names


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", type=int, help="in a series record, the game (1-5; default the last finished)"
    )


# ----------------------------------------------------------------- gouji replay --step
def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a finished game's record (gouji-record/1 or gouji-series/1)")
    _common(parser)
    parser.add_argument("--step", type=int, help="the step to draw (0: the deal; default: the end)")
    parser.add_argument("-o", "--output", help="write the table picture (PNG) here")
    parser.add_argument("--seat", type=int, default=0, choices=range(6), help="seat at the bottom")
    parser.add_argument("--names", help="six display names, comma separated")
    parser.add_argument("--lang", default="zh", choices=("zh", "en"))
    parser.add_argument(
        "--moments", action="store_true", help="print the key moments (JSON) to jump to"
    )


def run_replay(args: argparse.Namespace) -> int:
    """Draw the table at one step with every hand shown, and/or list the key moments."""
    from engine.record import ReplayError

    from .replay_pictures import replay_png

    try:
        replay = _replay_of(args)
        step = replay.steps if args.step is None else args.step
        if not 0 <= step <= replay.steps:
            raise ValueError(f"--step must be 0 to {replay.steps} (the steps of this game)")
        if args.output is None and not args.moments:
            raise ValueError("say where to draw the picture (-o table.png) or ask for --moments")
        if args.output is not None:
            png = replay_png(
                replay, step, _names(args.names, args.lang), lang=args.lang, bottom_seat=args.seat
            )
            with open(args.output, "wb") as f:
                f.write(png)
    except ReplayError as e:
        print(f"illegal action (action {e.index}: {e.action!r}): {e.reason}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as e:
        print(str(e), file=sys.stderr)
        return 2
    if args.moments:
        moments = [_moment_json(m) for m in replay.moments]
        print(json.dumps({"steps": replay.steps, "moments": moments}, ensure_ascii=False))
    else:
        print(f"step {step} of {replay.steps} drawn to {args.output}")
    return 0


def _moment_json(moment: Any) -> dict[str, Any]:
    """A key moment as JSON: its fields that are set."""
    fields = ("kind", "step", "seat", "number", "other", "place", "result")
    return {f: getattr(moment, f) for f in fields if getattr(moment, f) is not None}


def replay_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="gouji replay", description=run_replay.__doc__)
    add_replay_arguments(parser)
    return run_replay(parser.parse_args(list(argv)))


# ----------------------------------------------------------------- gouji review
def add_review_arguments(parser: argparse.ArgumentParser) -> None:
    from engine.ai.review import DEFAULT_BUDGET

    parser.add_argument(
        "file", metavar="RECORD", help="a finished game's record (gouji-record/1 or gouji-series/1)"
    )
    parser.add_argument("--seat", type=int, required=True, choices=range(6), help="whose play")
    _common(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=0, help="seed of the guessed deals")
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"rollouts for the whole review (default {DEFAULT_BUDGET}: about half a minute)",
    )


def run_review(args: argparse.Namespace) -> int:
    """The seat's costliest decisions, up to five, each against what the strong AI would do."""
    from engine.ai.review import review
    from engine.record import ReplayError

    try:
        if args.budget < 1:
            raise ValueError("--budget must be at least 1 rollout")
        result = review(_replay_of(args), args.seat, seed=args.seed, budget=args.budget)
    except ReplayError as e:
        return _fail(args, f"illegal action (action {e.index}: {e.action!r}): {e.reason}")
    except ValueError as e:
        return _fail(args, str(e))
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


def _fail(args: argparse.Namespace, message: str) -> int:
    if args.json:
        print(json.dumps({"ok": False, "error": {"reason": message}}, ensure_ascii=False))
    else:
        print(message, file=sys.stderr)
    return 2


def review_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="gouji review", description=run_review.__doc__)
    add_review_arguments(parser)
    return run_review(parser.parse_args(list(argv)))


if __name__ == "__main__":  # python -m bot.cli_replay_review replay|review ...
    _commands = {"replay": replay_main, "review": review_main}
    if len(sys.argv) < 2 or sys.argv[1] not in _commands:
        print("usage: python -m bot.cli_replay_review replay|review ARGS", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(_commands[sys.argv[1]](sys.argv[2:]))
