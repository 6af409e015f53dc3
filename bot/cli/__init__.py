"""The ``gouji`` command.

Each subcommand lives in its own module and is imported only when it runs, so that
``gouji replay`` starts fast and ``discord`` is imported only by ``gouji bot``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import pkgutil
import sys
from collections.abc import Callable

# name -> (module, one-line help). Each module has add_arguments(parser) and run(args) -> int.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "replay": (
        "bot.cli.replay",
        "replay a game or series record: the result, or the table at a step (录像)",
    ),
    "review": ("bot.cli.review", "a seat's costliest decisions in a finished game (复盘)"),
    "plays": ("bot.cli.plays", "list the legal plays of a hand"),
    "render": ("bot.cli.render", "draw a hand, a table or a series scoreboard as a PNG"),
    "bot": ("bot.cli.bot", "run the Discord bot"),
    "arena": ("bot.cli.arena", "measure AI players against each other"),
    "demo": ("bot.cli.demo", "watch six AI players play a five-game series, offline"),
    "play": ("bot.cli.play", "play a game in the terminal against five AI players"),
    "web": ("bot.cli.web", "play in your browser against AI players (and friends), no Discord"),
    "top": ("bot.cli.top", "print a server's leaderboard from the database"),
    "ratings": (
        "bot.cli.ratings",
        "skill ratings: rebuild them from the game results, show or check them",
    ),
    "db": ("bot.cli.db", "copy a database: gouji db copy --from URL --to URL"),
}


AI_HELP = "easy/简单 (hint), normal/普通 (expert), hard/困难 (strong)"


class CommandError(Exception):
    """A command's refusal, worded by the command: :func:`main` prints it as one line,
    ``gouji COMMAND: message``, on stderr and exits with status 2."""


def lang_choices() -> tuple[str, ...]:
    """The languages of ``--lang``: bot.text.langs' modules, found without loading them (so
    ``gouji --help`` stays fast), the fallback (English) last: ``("zh", "en")``."""
    spec = importlib.util.find_spec("bot.text.langs")
    where = spec.submodule_search_locations if spec is not None else None
    names = [m.name for m in pkgutil.iter_modules(where or [])]
    return tuple(sorted(names, key=lambda name: (name == "en", name)))


def ai_kind_arg(name: str) -> str:
    """The argparse type of an AI option: a difficulty or a kind, answered as the kind."""
    from engine.ai import ai_kind

    try:
        return ai_kind(name)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """The argparse type of a whole number from ``low`` to ``high``: anything else is
    argparse's one-line error before the command runs (a port past 65535 never reaches the
    socket)."""

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}")
        return value

    return number


#: The ports a server listens on (0: any free one).
PORT = whole_number(0, 65535)
#: The largest whole number the databases hold (SQLite's INTEGER, PostgreSQL's BIGINT):
#: a larger server id or row count reached the SQL and raised an OverflowError.
DB_INT_MAX = 2**63 - 1
#: A Discord server (guild) id; a number of rows to read.
SERVER_ID = whole_number(0, DB_INT_MAX)
ROWS = whole_number(1, DB_INT_MAX)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gouji", description="Gouji (够级): the six-player team card game, as a Discord bot."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``gouji ARGV``; its exit status. The one place a command's expected failures
    become one line on stderr and status 2: its :class:`CommandError`, and an ``OSError``
    (a file or folder that is not there or cannot be written, an address in use)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return int(args._module.run(args) or 0)
    except BrokenPipeError:  # e.g. `gouji replay FILE --json | head`: the reader went away
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except CommandError as err:
        return _refuse(args.command, str(err))
    except OSError as err:  # a file, a folder or an address the system refused
        said = f"{err.filename}: {err.strerror}" if err.filename and err.strerror else str(err)
        return _refuse(args.command, said)


def _refuse(command: str, message: str) -> int:
    print(f"gouji {command}: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
