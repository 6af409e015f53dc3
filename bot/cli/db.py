"""``gouji db copy --from URL --to URL [--replace]``: move a database between backends
(e.g. SQLite to PostgreSQL before running shard processes); the work is ``data.copy``. The
snapshots stay behind (a cache of the logs, and pickles: not taken from another database);
the copied tables restore from their logs."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``gouji db copy …``: the options after ``copy`` are ``data.copy``'s own."""
    parser.add_argument("action", choices=["copy"], help="copy: copy a whole database")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="--from URL --to URL [--replace]")


def run(args: argparse.Namespace) -> int:
    """Run the database command; its exit status."""
    from data.copy import main

    return main(args.options)
