"""``gouji replay FILE [--json]``: replay a game or series record (RECORD.md)."""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a gouji-record/1 or gouji-series/1 JSON file ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from engine.record import RecordError, ReplayError, replay

    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as e:
        return _fail(args, f"cannot read {args.file}: {e.strerror}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return _fail(args, f"{args.file} is not JSON: {e}")
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
        return _fail(args, f"not a valid record: {e}")
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        from engine.report import describe

        print(describe(data, result))
    return 0


def _fail(args: argparse.Namespace, message: str) -> int:
    if args.json:
        print(json.dumps({"ok": False, "error": {"reason": message}}, ensure_ascii=False))
    else:
        print(message, file=sys.stderr)
    return 2
