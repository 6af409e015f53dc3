"""``gouji ratings``: the skill ratings (技术分) in the bot's database, for hosts.

    gouji ratings rebuild --db gouji.db             # compute every server's ratings again
    gouji ratings show --db gouji.db --server 1234567890 --limit 20
    gouji ratings check --db postgresql://gouji:…@db/gouji

``rebuild`` computes the ratings again from the game results (they are derived data: the
same numbers come out) and says how many games it rated. ``show`` prints a server's board:
rank, player (user id, or the AI level), the conservative figure mu − 3σ, mu ± σ, games,
and "?" for a provisional rating (fewer than 10 games). ``check`` rates every server's
games again with the ``openskill`` library itself (``PlackettLuce().rate``, slower) and
prints the largest difference from the stored ratings — the numbers are openskill's.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from bot.cli import ROWS, SERVER_ID
from data import PlayerRating, Store, StoreError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gouji ratings``."""
    parser.add_argument("action", choices=("rebuild", "show", "check"))
    parser.add_argument(
        "--db",
        default=None,
        help="the database: a file, sqlite:///PATH or postgresql://… (default "
        "$GOUJI_DATABASE_URL, else $GOUJI_DB, else gouji.db)",
    )
    parser.add_argument("--server", type=SERVER_ID, default=None, help="one server (guild) id")
    parser.add_argument("--limit", type=ROWS, default=10, help="rows per server (show)")


def run(args: argparse.Namespace) -> int:
    """Do the action; 2 when the database cannot be read or the arguments are wrong."""
    try:
        return asyncio.run(ACTIONS[args.action](args))
    except StoreError as exc:
        print(f"gouji ratings: {exc}", file=sys.stderr)
        return 2


async def rebuild(args: argparse.Namespace) -> int:
    async with await Store.open(args.db, create=False) as store:
        report = await store.rebuild_ratings(args.server)
    print(
        f"rebuilt the ratings of {report.guilds} server(s): {report.rated} of "
        f"{report.results} recorded games rated"
    )
    return 0


async def show(args: argparse.Namespace) -> int:
    async with await Store.open(args.db, create=False) as store:
        guilds = [args.server] if args.server is not None else await store.rating_guilds()
        boards = {g: await store.rating_board(g, args.limit) for g in guilds}
    boards = {g: rows for g, rows in boards.items() if rows}
    if not boards:
        print("no rated games yet")
        return 0
    print("\n\n".join(format_board(g, rows) for g, rows in boards.items()))
    return 0


def format_board(guild: int, rows: list[PlayerRating]) -> str:
    """One server's rating board as aligned text."""
    head = f"server {guild}: {rows[0].players} rated players"
    table = [("rank", "player", "rating", "mu ± sigma", "games")] + [
        (
            str(r.rank),
            r.player,
            f"{r.rating.ordinal:.1f}" + ("?" if r.rating.provisional else ""),
            f"{r.rating.mu:.2f} ± {r.rating.sigma:.2f}",
            str(r.rating.games),
        )
        for r in rows
    ]
    widths = [max(len(row[c]) for row in table) for c in range(5)]
    lines = [head]
    for row in table:
        lines.append("  ".join(cell.rjust(widths[c]) for c, cell in enumerate(row)).rstrip())
    return "\n".join(lines)


async def check(args: argparse.Namespace) -> int:
    """Rate every game again with openskill; 1 if a stored rating differs (beyond 1e-9)."""
    async with await Store.open(args.db, create=False) as store:
        guilds = [args.server] if args.server is not None else await store.rating_guilds()
        worst, players = 0.0, 0
        for guild in guilds:
            expected = reference_ratings(await store.rated_lineups(guild))
            stored = {r.player: r.rating for r in await store.rating_board(guild, 1_000_000)}
            if set(stored) != set(expected):
                print(f"server {guild}: the rated players differ from openskill's")
                return 1
            for player, (mu, sigma, games) in expected.items():
                got = stored[player]
                worst = max(worst, abs(got.mu - mu), abs(got.sigma - sigma))
                if got.games != games:
                    worst = float("inf")
            players += len(stored)
    print(
        f"{len(guilds)} server(s), {players} ratings: the largest difference from openskill's "
        f"PlackettLuce is {worst:.2e}"
    )
    return 0 if worst <= 1e-9 else 1


def reference_ratings(lineups: list[Any]) -> dict[str, tuple[float, float, int]]:
    """The ratings openskill's own ``PlackettLuce().rate`` gives the games, in order (the
    seats ranked as :func:`engine.rating.seat_ranks` says; a player on several seats
    merged as :func:`engine.rating.merge_copies` does)."""
    from openskill.models import PlackettLuce

    from engine.rating import DEFAULT, TEAMS, Rating, merge_copies, seat_ranks
    from engine.scoring import team_of

    model = PlackettLuce()
    ratings: dict[str, Rating] = {}
    for entries in lineups:
        before = {e.player: ratings.get(e.player, DEFAULT.initial()) for e in entries}
        seats = [
            model.rating(mu=before[e.player].mu, sigma=before[e.player].sigma) for e in entries
        ]
        ranks = seat_ranks(entries, DEFAULT.mode)
        if DEFAULT.mode == TEAMS:
            teams = [[seats[s] for s in range(t, 6, 2)] for t in (0, 1)]
            rated = model.rate(teams, ranks=[ranks[0], ranks[1]])
            after = [rated[team_of(s)][s // 2] for s in range(6)]
        else:
            after = [team[0] for team in model.rate([[s] for s in seats], ranks=list(ranks))]
        players = [e.player for e in entries]
        ratings.update(merge_copies(before, players, [(r.mu, r.sigma) for r in after], DEFAULT))
    return {p: (r.mu, r.sigma, r.games) for p, r in ratings.items()}


ACTIONS = {"rebuild": rebuild, "show": show, "check": check}
