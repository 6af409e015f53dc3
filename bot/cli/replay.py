"""``gouji replay FILE [--json]``: replay a game or series record (docs/record.md).

``gouji replay FILE [--step N] -o table.png`` draws the table at one step of a finished game
with every hand shown (录像, docs/replay.md); ``--moments`` lists the key moments to jump to.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from bot.cli import lang_choices
from bot.cli.review import add_game_argument, fail, load_record, replay_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a gouji-record/1 or gouji-series/1 JSON file ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_game_argument(parser)
    parser.add_argument(
        "--step", type=int, help="with -o: the step to draw (0: the deal; default: the end)"
    )
    parser.add_argument(
        "-o", "--output", help="draw the table at --step (every hand shown) to this PNG"
    )
    parser.add_argument("--seat", type=int, default=0, choices=range(6), help="seat at the bottom")
    parser.add_argument("--names", help="six display names, comma separated")
    parser.add_argument("--lang", default="zh", choices=lang_choices())
    parser.add_argument(
        "--moments", action="store_true", help="print the key moments (JSON) to jump to"
    )


def run(args: argparse.Namespace) -> int:
    """Replay the record and print the result, or draw one step / list the key moments."""
    if args.output is not None or args.moments or args.step is not None:
        return _run_steps(args)
    from engine.record import RecordError, ReplayError, replay

    try:
        data = load_record(args.file)
    except ValueError as e:
        return fail(args, str(e))
    try:
        result = replay(data)
    except ReplayError as e:
        if args.json:
            print(json.dumps(e.to_json(), ensure_ascii=False))
        else:
            where = f"game {e.game}, " if e.game is not None else ""
            print(
                f"illegal action ({where}action {e.index}: {e.action!r}): {e.reason}",
                file=sys.stderr,
            )
        return 2
    except (RecordError, ValueError) as e:
        return fail(args, f"not a valid record: {e}")
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        from bot.cli.demo import DEMO_NAMES
        from bot.text.play import replay_account

        try:  # a record has no names: the seats are named as gouji demo and play name them
            names = _names(args.names, args.lang) if args.names else list(DEMO_NAMES)
        except ValueError as e:
            return fail(args, str(e))
        print("\n".join(replay_account(data, names, args.lang)))
    return 0


def _names(text: str | None, lang: str) -> list[str]:
    from bot.pictures.replay import default_names

    if not text:
        return default_names(lang)
    names = [n.strip() for n in text.split(",")]
    if len(names) != 6:
        raise ValueError("--names takes six names separated by commas")
    return names


def _run_steps(args: argparse.Namespace) -> int:
    """Draw the table at one step with every hand shown, and/or list the key moments."""
    from bot.pictures.replay import replay_png
    from engine.record import ReplayError

    try:
        replay = replay_of(args)
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
        return fail(args, f"illegal action (action {e.index}: {e.action!r}): {e.reason}")
    except (ValueError, OSError) as e:
        return fail(args, str(e))
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


def main(argv: Sequence[str]) -> int:
    """``gouji replay ARGS`` as a function."""
    parser = argparse.ArgumentParser(prog="gouji replay", description=run.__doc__)
    add_arguments(parser)
    return run(parser.parse_args(list(argv)))
