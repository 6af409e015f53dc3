"""``gouji demo``: six AI players play a five-game tribute series, offline.

Everything goes through the same layers as the bot: the deals, every action and the results
(with profile updates) into the SQLite store, the pictures through :mod:`render` via
:mod:`bot.pictures.views`. Afterwards ``gouji top --db DIR/gouji.db`` shows the demo players'
leaderboard and ``gouji replay DIR/series.json`` replays the series.

    gouji demo                        # into ./gouji-demo/
    gouji demo --out /tmp/d --seed 7 --ai strong

The demo players sit on a server of their own (id :data:`DEMO_GUILD`) as users 1 to 6
with an AI standing in for each (托管), so they get profiles like real players and never
appear on a real server's leaderboard.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli import AI_HELP, ai_kind_arg
from bot.cli.options import add_option_argument, options_from_args

if TYPE_CHECKING:  # the engine, the store and Pillow load when the demo runs
    from data import Profile
    from engine.ai import Player
    from engine.cards import Card
    from engine.series import Series, SeriesGame

DEMO_GUILD = 0
DEMO_CHANNEL = 0
DEMO_USERS = (1, 2, 3, 4, 5, 6)
DEMO_NAMES = ("济南", "青岛", "烟台", "潍坊", "淄博", "威海")  # six Shandong cities
DEFAULT_OUT = "gouji-demo"
# Measured on this project's 2-core machine (busy with other work): a five-game series with
# pictures takes about 1 s with the hint AI and 60 s with the strong AI (Monte Carlo search).


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
        choices=("zh", "en"),
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


def play_deal(
    series: Series, players: Sequence[Player], seed: int, on_action: Callable[[int], None]
) -> list[str]:
    """Deal the next game of ``series`` from ``seed``, let ``players`` return tribute and play it
    to the end (finished or void); returns the deal's log in record notation."""
    from engine.actions import RETURN, Action
    from engine.cards import deal, format_cards
    from engine.game import FINISHED, VOID

    current = series.start_game(deal(seed), seed=seed)
    log: list[str] = []
    while current.pending_return is not None:
        giver = current.pending_return.giver
        n, returnable = series.returnable(giver)
        cards = format_cards(players[giver].choose_return(returnable, n)) if n else ""
        series.apply(Action(giver, RETURN, cards))
        if cards:  # a return of no cards (none legal) is the default and is not logged
            log.append(f"{giver} return {cards}")
    game = current.game
    if game is None:
        raise RuntimeError("the tribute is returned but there is no game")
    while game.phase not in (FINISHED, VOID):
        for seat in list(game.to_act):
            if seat in game.to_act:
                action = players[seat].act(game.observe(seat))
                game.apply(action)
                log.append(str(action))
                on_action(len(log))
    return log


async def _demo(args: argparse.Namespace, out: Path, db: Path, lang: str) -> None:
    from bot.service.results import game_result, profile_updates
    from bot.text.terminal import describe_deal, describe_totals
    from data import Store
    from engine.ai import make_player
    from engine.series import Series

    started = time.perf_counter()
    names = DEMO_NAMES
    players = [make_player(args.ai, args.seed * 10 + s) for s in range(6)]
    options = options_from_args(args)
    series = Series(options, games=args.games)
    progress = Progress(args.games)
    print(_header(args, lang))
    async with await Store.open(db) as store:
        table = await store.create_table(DEMO_GUILD, DEMO_CHANNEL, DEMO_USERS[0], options.changed())
        for seat, user in enumerate(DEMO_USERS):
            await store.set_seat(table.id, seat, user_id=user, ai_kind=args.ai, standin=True)
        await store.set_table_status(table.id, "playing")
        srow = await store.start_series(table.id)
        first_hand = None
        tables: list[Path] = []
        while not series.finished:
            seed = args.seed * 1000 + len(series.deals)
            number = series.number_of_next_game
            progress.update(number, 0, force=True)
            log = play_deal(series, players, seed, functools.partial(progress.update, number))
            current = series.current
            if current is None:
                raise RuntimeError("a deal was played but the series has none")
            row = await store.start_game(
                srow.id, seed, [" ".join(map(str, h)) for h in current.dealt]
            )
            await store.append_actions(row.id, log, expected_index=0)
            progress.close()
            if first_hand is None:
                first_hand = current.dealt[0]
            if current.void:
                await store.void_game(row.id)
            else:
                await store.record_game_result(
                    DEMO_GUILD, row.id, profile_updates(current, DEMO_USERS), game_result(current)
                )
                if not args.no_images:
                    tables.append(_write_table(out, current, names, lang))
            print("\n".join(describe_deal(current, names, lang)))
        await store.finish_series(srow.id, series.totals())
        await store.set_table_status(table.id, "finished")
        record = await store.export_series_record(srow.id)
        board = await store.leaderboard(DEMO_GUILD, limit=10)
    print()
    print("\n".join(describe_totals(series, names, lang)))
    (out / "series.json").write_text(
        json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    written = []
    if not args.no_images:
        written = _write_pictures(out, series, names, first_hand, board, lang, tables)
    elapsed = time.perf_counter() - started
    print()
    print(_footer(args, lang, out, db, written, elapsed))


def _header(args: argparse.Namespace, lang: str) -> str:
    from bot.text.options import house_rules

    rules = house_rules(lang, options_from_args(args).changed())
    if lang == "zh":
        variant = f"（{rules}）" if rules else ""
        return f"够级演示：六个 AI 玩家（{args.ai}）打一场 {args.games} 局进贡系列赛{variant}，种子 {args.seed}。\n"
    variant = f" ({rules})" if rules else ""
    return (
        f"Gouji demo: six AI players ({args.ai}) play a {args.games}-game tribute series{variant}, "
        f"seed {args.seed}.\n"
    )


def _footer(
    args: argparse.Namespace, lang: str, out: Path, db: Path, written: list[Path], elapsed: float
) -> str:
    pics = ", ".join(p.name for p in written)
    if lang == "zh":
        lines = [f"图片（{out}/）：{pics}" if written else "（没有画图片）",
                 f"牌局记录：{out / 'series.json'} —— 用 gouji replay 重放",
                 f"数据库：{db} —— 看排行榜：gouji top --db {db}",
                 f"用时 {elapsed:.1f} 秒（AI：{args.ai}；strong AI 一场约 1 分钟）。"]  # fmt: skip
    else:
        lines = [f"Pictures in {out}/: {pics}" if written else "(no pictures drawn)",
                 f"Series record: {out / 'series.json'} — replay it with: gouji replay {out / 'series.json'}",
                 f"Database: {db} — see the leaderboard with: gouji top --db {db}",
                 f"Took {elapsed:.1f} s with the {args.ai} AI (the strong AI takes about a minute for a series)."]  # fmt: skip
    return "\n".join(lines)


def _write_table(out: Path, current: SeriesGame, names: Sequence[str], lang: str) -> Path:
    from bot.pictures.views import table_view_of_game
    from bot.service.results import finished_game
    from render import render_table, to_png

    caption = (
        f"第 {current.number} 局 · 够级演示"
        if lang == "zh"
        else f"Game {current.number} · Gouji demo"
    )
    view = table_view_of_game(
        finished_game(current), names, viewer=0, ai=(True,) * 6, caption=caption
    )
    path = out / f"table-game{current.number}.png"
    path.write_bytes(to_png(render_table(view, lang=lang)))
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
    from render import render_hand, render_leaderboard, render_series, to_png

    title = f"{names[0]} · 第 1 局手牌" if lang == "zh" else f"{names[0]} · hand of game 1"
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
