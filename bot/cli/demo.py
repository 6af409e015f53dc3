"""``gouji demo``: six AI players play a five-game tribute series, offline.

The demo is a front end of the table service, like the bot: it opens a table, seats its
players, lets their AIs play for them (托管) and starts the series; the service deals, plays,
logs every action and records the results (with profile updates) in the SQLite store. The
demo listens to the table (its progress bar, the table as each game ends) and reads what it
prints from the service's read side (finished deals, the series record, the leaderboard);
pictures go through :mod:`render` via :mod:`bot.pictures.views`. Afterwards ``gouji top --db
DIR/gouji.db`` shows the demo players' leaderboard and ``gouji replay DIR/series.json``
replays the series.

    gouji demo                        # into ./gouji-demo/
    gouji demo --out /tmp/d --seed 7 --ai strong

The demo players sit on a server of their own (id :data:`DEMO_GUILD`) as users 1 to 6
with an AI standing in for each (托管), so they get profiles like real players and never
appear on a real server's leaderboard.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli import AI_HELP, ai_kind_arg, lang_choices
from bot.cli.options import add_option_argument, options_from_args

if TYPE_CHECKING:  # the engine, the store and Pillow load when the demo runs
    from bot.service.tables import TableService
    from data import Profile
    from engine.cards import Card
    from engine.series import Series
    from render.models import TableView

#: The store's server of the tables outside Discord (bot.service.tables.OWN_GUILD, not
#: imported: the service loads when the demo runs): the demo table is its first player's own.
DEMO_GUILD = 0
DEMO_USERS = (1, 2, 3, 4, 5, 6)
DEMO_NAMES = ("济南", "青岛", "烟台", "潍坊", "淄博", "威海")  # six Shandong cities
DEFAULT_OUT = "gouji-demo"
# Measured on this project's 2-core machine (busy with other work): a five-game series with
# pictures takes about 5 s with the hint AI (under 2 s of CPU: the rest is the store committing
# each action, as at a bot's table; 2-3 s when the demo drove the engine and logged each game
# at once) and 60 s with the strong AI (Monte Carlo search).


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The demo's options."""
    parser.add_argument(
        "--out",
        default=DEFAULT_OUT,
        help="folder for the pictures, the record and the database (default ./gouji-demo)",
    )
    parser.add_argument("--db", default=None, help="SQLite database file (default OUT/gouji.db)")
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the deals (the same seed, the same series)"
    )
    parser.add_argument(
        "--ai",
        type=ai_kind_arg,
        default="hint",
        help=f"the AI players: {AI_HELP}; default easy (fast; hard searches, ~1 min)",
    )
    parser.add_argument("--games", type=int, default=5, help="games in the series (default 5)")
    parser.add_argument(
        "--lang",
        choices=lang_choices(),
        default=None,
        help="language of the account (default: from the locale)",
    )
    parser.add_argument("--bie-san", action="store_true", help="the bie-san (憋三) variant")
    add_option_argument(parser)
    parser.add_argument("--no-images", action="store_true", help="skip the pictures")


def run(args: argparse.Namespace) -> int:
    """Play the series, store it, draw it, print it; 2 on bad arguments."""
    from bot.text.terminal import default_lang

    if not 1 <= args.games <= 10:
        print("gouji demo: --games must be 1 to 10", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"gouji demo: {out} is a file: give --out a folder", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    db = Path(args.db) if args.db else out / "gouji.db"
    lang = args.lang or default_lang()
    from data import StoreError

    try:
        asyncio.run(_demo(args, out, db, lang))
    except StoreError as exc:
        print(f"gouji demo: {exc}", file=sys.stderr)
        return 2
    return 0


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, games: int, enabled: bool | None = None) -> None:
        self.games = games
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.last = 0.0

    def update(self, game: int, actions: int, force: bool = False) -> None:
        """Show game ``game`` (1-based) with ``actions`` actions so far; at most 20 times a second."""
        now = time.monotonic()
        if not self.enabled or (not force and now - self.last < 0.05):
            return
        self.last = now
        width = 30
        done = width * (game - 1) // self.games
        bar = "#" * done + "." * (width - done)
        print(
            f"\r[{bar}] game {game}/{self.games} · {actions} actions ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    def close(self) -> None:
        if self.enabled:
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)


async def _demo(args: argparse.Namespace, out: Path, db: Path, lang: str) -> None:
    from bot.cli.watch import DemoWatcher
    from bot.service.tables import TableService
    from bot.text.terminal import describe_deal, describe_totals
    from data import Store
    from engine.record import series_from_record

    started = time.perf_counter()
    names = DEMO_NAMES
    overrides = {**options_from_args(args).to_json(), "series_games": args.games}
    progress = Progress(args.games)
    watcher = DemoWatcher(progress.update)
    print(_header(args, lang))
    async with await Store.open(db) as store:
        service = TableService(
            store, watcher, ai_delay=0, warn_before=0, rng=random.Random(args.seed)
        )
        watcher.service = service
        live = await service.open_table(
            None, None, DEMO_USERS[0], overrides
        )  # the first player's own
        for user in DEMO_USERS[1:]:
            await service.join(live, user)
        for user in DEMO_USERS:  # 托管: each player's AI plays for them
            await service.hand_over(live, user, args.ai)
        progress.update(1, 0, force=True)
        await service.start(live, DEMO_USERS[0])
        first_hand = None
        tables: list[Path] = []
        for _ in range(args.games):  # each game told as it ends, while the next is played
            number = await watcher.games.get()
            progress.close()
            deal = await service.archive.finished_deal(await _finished_id(service, live.id, number))
            deals = [d for d in series_from_record(deal.record).deals if d.number == number]
            if first_hand is None:
                first_hand = deals[0].dealt[0]
            for told in deals:
                print("\n".join(describe_deal(told, names, lang)))
            if not args.no_images:
                tables.append(_write_table(out, watcher.ended[number], number, names, lang))
        await service.settle(live)
        found = await service.archive.last_record(live)  # the series: never a game in progress
        board = await service.archive.leaderboard(DEMO_GUILD, limit=10)
        await service.end(live, DEMO_USERS[0], may_manage=True)
        await service.close()
    series = series_from_record(found.record)
    print()
    print("\n".join(describe_totals(series, names, lang)))
    (out / "series.json").write_text(
        json.dumps(found.record, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    written = []
    if not args.no_images:
        written = _write_pictures(out, series, names, first_hand, board, lang, tables)
    elapsed = time.perf_counter() - started
    print()
    print(_footer(args, lang, out, db, written, elapsed))


async def _finished_id(service: TableService, table_id: int, number: int) -> int:
    """The id of game ``number`` of the demo table (just finished)."""
    found = await service.archive.finished_games(DEMO_GUILD, limit=50)
    return next(g.game_id for g in found if g.table_id == table_id and g.number == number)


def _header(args: argparse.Namespace, lang: str) -> str:
    from bot.text.langs import text
    from bot.text.options import house_rules

    rules = house_rules(lang, options_from_args(args).changed())
    variant = text(lang, "term.demo_variant", rules=rules) if rules else ""
    return text(
        lang, "term.demo_header", ai=args.ai, games=args.games, variant=variant, seed=args.seed
    )


def _footer(
    args: argparse.Namespace, lang: str, out: Path, db: Path, written: list[Path], elapsed: float
) -> str:
    from bot.text.langs import text

    pics = ", ".join(p.name for p in written)
    lines = [
        text(lang, "term.demo_pictures", out=out, pics=pics)
        if written
        else text(lang, "term.demo_no_pictures"),
        text(lang, "term.demo_record", record=out / "series.json"),
        text(lang, "term.demo_db", db=db),
        text(lang, "term.demo_took", elapsed=elapsed, ai=args.ai),
    ]
    return "\n".join(lines)


def _write_table(out: Path, table: TableView, number: int, names: Sequence[str], lang: str) -> Path:
    """The table as game ``number`` ended (the service's public view), named."""
    from bot.pictures.views import named
    from bot.text.langs import text
    from render import render_table, to_png

    caption = text(lang, "term.demo_caption", n=number)
    path = out / f"table-game{number}.png"
    path.write_bytes(to_png(render_table(named(table, names, caption), lang=lang)))
    return path


def _write_pictures(
    out: Path,
    series: Series,
    names: Sequence[str],
    first_hand: list[Card] | None,
    board: list[Profile],
    lang: str,
    tables: list[Path],
) -> list[Path]:
    """The hand of seat 0 in game 1, the scoreboard and the leaderboard (the tables after each
    game are drawn as the games end)."""
    from bot.pictures.views import leaderboard_rows, series_view
    from bot.text.langs import text
    from render import render_hand, render_leaderboard, render_series, to_png

    title = text(lang, "term.demo_hand", name=names[0])
    pictures = {
        "hand.png": render_hand(first_hand, lang=lang, title=title),
        "series.png": render_series(
            series_view(series, names, caption="够级演示 · Gouji demo"), lang=lang
        ),
        "leaderboard.png": render_leaderboard(
            leaderboard_rows(board, dict(zip(DEMO_USERS, names, strict=True))),
            server="gouji demo",
            lang=lang,
        ),
    }
    for name, image in pictures.items():
        (out / name).write_bytes(to_png(image))
    return [out / "hand.png", *tables, out / "series.png", out / "leaderboard.png"]
