"""``gouji review RECORD --seat N [--json] [--pictures DIR]``: a seat's costliest decisions
(复盘, docs/replay.md), and each one's picture as Discord shows it.

The record helpers here (``load_record``, ``replay_of``, ``add_game_argument``) are shared
with ``gouji replay --step``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from bot.cli import lang_choices


def load_record(path: str) -> Any:
    """The JSON of the record file ``path`` ('-': stdin); ValueError, saying why in one line,
    for a file that cannot be read, is not UTF-8 text, or is not JSON a record can be."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise ValueError(f"{path} is not a record: byte {e.start} is not UTF-8 text") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not JSON: {e}") from e
    except RecursionError as e:  # e.g. "[" * 100000: no record nests that deep
        raise ValueError(f"{path} is not a record: its JSON nests too deep") from e


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
        help=f"rollouts for the whole review (default {DEFAULT_BUDGET}: a few seconds)",
    )
    parser.add_argument(
        "--pictures",
        metavar="DIR",
        help="draw each listed decision's picture (as on Discord) to DIR/decision-N.png",
    )
    parser.add_argument(
        "--lang", choices=lang_choices(), help="of the text and pictures (default: the locale's)"
    )


def run(args: argparse.Namespace) -> int:
    """The seat's costliest decisions, up to five, each against what the strong AI would do."""
    from bot.text.terminal import default_lang
    from engine.ai.review import review
    from engine.record import ReplayError

    args.lang = args.lang or default_lang()
    try:
        if args.budget < 1:
            raise ValueError("--budget must be at least 1 rollout")
        result = review(replay_of(args), args.seat, seed=args.seed, budget=args.budget)
        if args.pictures is not None:
            _draw(args.pictures, result.mistakes, args.lang)
    except ReplayError as e:
        return fail(args, f"illegal action (action {e.index}: {e.action!r}): {e.reason}")
    except (ValueError, OSError) as e:
        return fail(args, str(e))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    for line in review_lines(result, args.lang, args.pictures):
        print(line)
    return 0


def review_lines(result: Any, lang: str, pictures: str | None = None) -> list[str]:
    """The review as the terminal prints it, its plays and hands in words (四张 8 + 两张 2)."""
    from bot.text.cards import action_words, hand_text, play_words
    from bot.text.catalog import text
    from bot.text.terminal import say

    lines = [
        say(lang, "review_head", seat=result.seat, decisions=result.decisions,
            rollouts=result.rollouts)
    ]  # fmt: skip
    if not result.mistakes:
        lines.append(say(lang, "review_none"))
    for m in result.mistakes:
        if m.standing is None:
            facing = text(lang, "review_leading")
        else:
            seat = say(lang, "review_seat", seat=m.standing_seat)
            facing = text(lang, "review_facing", seat=seat, cards=play_words(m.standing, lang))
        lines.append(
            say(lang, "review_line", step=m.step, facing=facing, hand=hand_text(m.hand, lang),
                did=action_words(lang, m.action), suggested=action_words(lang, m.suggested),
                cost=m.cost, margin=m.margin, worlds=m.worlds)
        )  # fmt: skip
    if pictures is not None and result.mistakes:
        drawn = [os.path.join(pictures, f"decision-{n}.png") for n in (1, len(result.mistakes))]
        files = say(lang, "review_to").join(dict.fromkeys(drawn))  # one picture: its name once
        lines.append(say(lang, "review_pictures", files=files))
    return lines


def _draw(folder: str, mistakes: Sequence[Any], lang: str) -> None:
    """Each mistake's picture to ``folder``/decision-N.png (the folder made if missing)."""
    from bot.pictures.replay import review_item_png

    os.makedirs(folder, exist_ok=True)
    for n, mistake in enumerate(mistakes, 1):
        with open(os.path.join(folder, f"decision-{n}.png"), "wb") as f:
            f.write(review_item_png(mistake, lang))


def main(argv: Sequence[str]) -> int:
    """``gouji review ARGS`` as a function."""
    parser = argparse.ArgumentParser(prog="gouji review", description=run.__doc__)
    add_arguments(parser)
    return run(parser.parse_args(list(argv)))
