"""``gouji top``: a server's leaderboard from the bot's database, for hosts.

    gouji top --db /data/gouji.db                   # every server in the file
    gouji top --db gouji.db --server 1234567890 --limit 20

Columns: rank, player (user id; the demo players by name), score, title (RULES.md §8.6),
games played and how often the player came 头科. The file is opened read-only: a missing
or foreign file is an error, never created or changed.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gouji top``."""
    parser.add_argument(
        "--db", default=None, help="the database file (default $GOUJI_DB, else gouji.db)"
    )
    parser.add_argument(
        "--server",
        type=int,
        default=None,
        help="Discord server (guild) id; default: every server in the file",
    )
    parser.add_argument("--limit", type=int, default=10, help="rows per server (default 10)")
    parser.add_argument(
        "--lang", choices=("zh", "en"), default=None, help="language (default: from the locale)"
    )


def run(args: argparse.Namespace) -> int:
    """Print the leaderboards; 2 when the file cannot be read or the arguments are wrong."""
    from bot.text.terminal import default_lang

    lang = args.lang or default_lang()
    if args.limit < 1:
        print("gouji top: --limit must be at least 1", file=sys.stderr)
        return 2
    path = Path(args.db or os.environ.get("GOUJI_DB") or "gouji.db")
    try:
        boards = read_boards(path, args.server, args.limit)
    except LookupError as exc:
        print(f"gouji top: {exc}", file=sys.stderr)
        return 2
    if not boards:
        which = f"server {args.server}" if args.server is not None else str(path)
        print(("还没有人打完一局：" if lang == "zh" else "No finished games yet: ") + which)
        return 0
    print("\n\n".join(format_board(guild, rows, lang) for guild, rows in boards.items()))
    return 0


def read_boards(path: Path, server: int | None, limit: int) -> dict[int, list[tuple[Any, ...]]]:
    """Each server's top ``limit`` rows ``(user_id, score, games, place_1)`` in leaderboard
    order (the store's: score, then more games, then lower user id). Raises LookupError
    with a message to act on when the file is missing or not a Gouji database."""
    if not path.is_file():
        raise LookupError(f"there is no database at {path}: give --db the bot's file (GOUJI_DB)")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise LookupError(f"cannot open {path}: {exc}") from exc
    try:
        where, params = ("WHERE guild_id = ?", (server,)) if server is not None else ("", ())
        guilds = [
            g
            for (g,) in conn.execute(
                f"SELECT DISTINCT guild_id FROM profiles {where} ORDER BY guild_id", params
            )
        ]
        return {
            guild: conn.execute(
                "SELECT user_id, score, games, place_1 FROM profiles WHERE guild_id = ? "
                "ORDER BY score DESC, games DESC, user_id ASC LIMIT ?",
                (guild, limit),
            ).fetchall()
            for guild in guilds
        }
    except sqlite3.DatabaseError as exc:
        raise LookupError(f"{path} is not a Gouji database ({exc})") from exc
    finally:
        conn.close()


def format_board(guild: int, rows: list[tuple[Any, ...]], lang: str) -> str:
    """One server's board as an aligned text table."""
    from bot.cli.demo import DEMO_GUILD, DEMO_NAMES, DEMO_USERS
    from bot.text.terminal import pad, text_width
    from engine.scoring import title_for

    names = dict(zip(DEMO_USERS, DEMO_NAMES, strict=True)) if guild == DEMO_GUILD else {}
    if lang == "zh":
        head = f"服务器 {guild}" + ("（gouji demo）" if guild == DEMO_GUILD else "") + " 排行榜"
        cols = ("名次", "玩家", "积分", "称号", "局数", "头科")
    else:
        head = f"Server {guild}" + (" (gouji demo)" if guild == DEMO_GUILD else "") + " leaderboard"
        cols = ("rank", "player", "score", "title", "games", "头科")
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
