"""``gouji web``: play in your browser, without Discord.

A table on this machine against AI players (``--ai``: easy, normal, hard); you sit in seat
0, and with ``--seats 0,3`` others sit too — each person gets a link, others on the same
network open theirs when the server listens there (``--host 0.0.0.0``). The series starts
once every person has opened their link. The games go into the SQLite store like
``gouji demo``'s (``--db``, default ``gouji-web.db``). Ctrl-C stops.

    gouji web                          # opens http://127.0.0.1:8080/#… in your browser
    gouji web --ai hard --seats 0,2 --host 0.0.0.0 --port 8080
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import Any

from bot.cli import AI_HELP, PORT, ai_kind_arg, lang_choices
from bot.cli.options import add_option_argument, options_from_args

NAMES = ("济南", "青岛", "烟台", "潍坊", "淄博", "威海")  # the people's names by seat


def _seats(text: str) -> list[int]:
    try:
        seats = sorted({int(s) for s in text.split(",") if s.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats are numbers 0-5, like 0,3: not {text!r}") from None
    if not seats or any(not 0 <= s <= 5 for s in seats):
        raise argparse.ArgumentTypeError(f"seats are numbers 0-5, like 0,3: not {text!r}")
    return seats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ai", type=ai_kind_arg, default="hint", help=f"the AI players: {AI_HELP}; default easy"
    )
    parser.add_argument(
        "--seats", type=_seats, default=[0], help="the people's seats, e.g. 0,3 (default 0)"
    )
    parser.add_argument(
        "--names", default="", help="the people's names in seat order, comma-separated"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the network)"
    )
    parser.add_argument(
        "--port", type=PORT, default=8080, help="port (default 8080; 0: any free one)"
    )
    parser.add_argument("--db", default="gouji-web.db", help="SQLite file (default gouji-web.db)")
    parser.add_argument("--single", action="store_true", help="one game instead of a series")
    parser.add_argument("--turn-time", type=int, default=60, help="seconds a turn (default 60)")
    parser.add_argument("--ai-delay", type=float, default=0.8, help="seconds an AI waits to play")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals")
    parser.add_argument(
        "--lang", choices=lang_choices(), default=None, help="language of the messages here"
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    add_option_argument(parser)


def run(args: argparse.Namespace) -> int:
    from bot.text.terminal import default_lang

    lang = args.lang or default_lang()
    names = [n.strip() for n in args.names.split(",") if n.strip()]
    people = {
        seat: names[i] if i < len(names) else NAMES[seat] for i, seat in enumerate(args.seats)
    }
    if not 1 <= args.turn_time <= 600:
        print("gouji web: --turn-time must be 1 to 600 seconds", file=sys.stderr)
        return 2
    options = {
        **options_from_args(args).to_json(),
        "series": not args.single,
        "turn_time": args.turn_time,
    }
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_serve(args, people, options, lang))
    return 0


async def _serve(
    args: argparse.Namespace, people: dict[int, str], options: dict[str, Any], lang: str
) -> int:
    import random
    import webbrowser

    from bot.text.catalog import text
    from bot.web.local import LocalTable
    from data import Store, StoreError

    rng = random.Random(args.seed) if args.seed is not None else None
    try:
        store = await Store.open(args.db)
    except StoreError as exc:
        print(f"gouji web: {exc}", file=sys.stderr)
        return 2
    async with store:
        local = LocalTable(
            store,
            people,
            ai=args.ai,
            options=options,
            host=args.host,
            port=args.port,
            public_host=_public_host(args.host),
            ai_delay=args.ai_delay,
            rng=rng,
        )
        try:
            await local.open()
        except OSError as exc:
            print(f"gouji web: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
            await local.service.close()
            return 2
        try:
            for seat, name in people.items():
                print(text(lang, "web_seat_link", seat=seat, name=name, url=local.link(seat)))
            print(text(lang, "web_spectate_link", url=local.link(None)), flush=True)
            if not args.no_browser:
                webbrowser.open(local.link(min(people)))
            await asyncio.Event().wait()  # until Ctrl-C
        finally:
            await local.close()
    return 0


def _public_host(host: str) -> str:
    """The address others reach this machine at, for the links: the host itself, or this
    machine's name when listening on every address."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    import socket

    return socket.gethostname()
