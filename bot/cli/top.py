"""``gouji top``: a server's leaderboard from the bot's database, for hosts.

    gouji top --db /data/gouji.db                   # every server in the file
    gouji top --db gouji.db --server 1234567890 --limit 20
    gouji top --db postgresql://gouji:…@db/gouji    # a bot on PostgreSQL

Columns: rank, player (user id; the demo players by name), score, title (docs/rules.en.md §8.6),
games played and how often the player came 头科. It reads through the store, so SQLite and
PostgreSQL alike; a missing SQLite file or a foreign database is an error, never created.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from bot.cli import ROWS, SERVER_ID, lang_choices
from data import Store, StoreError
from data.backend import database_url, redact


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gouji top``."""
    parser.add_argument(
        "--db",
        default=None,
        help="the database: a file, sqlite:///PATH or postgresql://… (default "
        "$GOUJI_DATABASE_URL, else $GOUJI_DB, else gouji.db)",
    )
    parser.add_argument(
        "--server",
        type=SERVER_ID,
        default=None,
        help="Discord server (guild) id; default: every server in the database",
    )
    parser.add_argument("--limit", type=ROWS, default=10, help="rows per server (default 10)")
    parser.add_argument(
        "--lang", choices=lang_choices(), default=None, help="language (default: from the locale)"
    )


def run(args: argparse.Namespace) -> int:
    """Print the leaderboards; 2 when the database cannot be read or the arguments are wrong."""
    from bot.text.terminal import default_lang

    lang = args.lang or default_lang()
    url = args.db or database_url()
    try:
        boards = asyncio.run(read_boards(url, args.server, args.limit))
    except StoreError as exc:
        print(f"gouji top: {exc}", file=sys.stderr)
        return 2
    if not boards:
        which = f"server {args.server}" if args.server is not None else redact(url)
        from bot.text.langs import text

        print(text(lang, "term.no_games", which=which))
        return 0
    print("\n\n".join(format_board(guild, rows, lang) for guild, rows in boards.items()))
    return 0


async def read_boards(url: str, server: int | None, limit: int) -> dict[int, list[tuple[Any, ...]]]:
    """Each server's top ``limit`` rows ``(user_id, score, games, place_1)`` in the store's
    leaderboard order. Raises :class:`StoreError` with a message to act on when the database
    is missing, cannot be reached or is not a Gouji database."""
    async with await Store.open(url, create=False) as store:
        guilds = [server] if server is not None else await store.profile_guilds()
        boards = {}
        for guild in guilds:
            rows = await store.leaderboard(guild, limit)
            if rows:
                boards[guild] = [(p.user_id, p.score, p.games, p.places[0]) for p in rows]
        return boards


def format_board(guild: int, rows: list[tuple[Any, ...]], lang: str) -> str:
    """One server's board as an aligned text table."""
    from bot.cli.demo import DEMO_GUILD, DEMO_NAMES, DEMO_USERS
    from bot.text.langs import text
    from bot.text.terminal import pad, text_width
    from engine.scoring import title_for

    names = dict(zip(DEMO_USERS, DEMO_NAMES, strict=True)) if guild == DEMO_GUILD else {}
    demo = text(lang, "term.board_demo") if guild == DEMO_GUILD else ""
    head = text(lang, "term.board_head", guild=guild, demo=demo)
    cols = tuple(text(lang, "term.board_columns").split())
    table = [cols] + [
        (
            str(i),
            names.get(user, str(user)),
            f"{score:+d}",
            title_for(score),
            str(games),
            str(firsts),
        )
        for i, (user, score, games, firsts) in enumerate(rows, start=1)
    ]
    widths = [max(text_width(row[c]) for row in table) for c in range(len(cols))]
    right = {0, 2, 4, 5}
    lines = [head]
    for row in table:
        cells = [pad(cell, widths[c], right=c in right) for c, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
