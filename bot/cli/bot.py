"""``gouji bot``: run the Discord bot (discord.py is imported only here, inside run())."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``gouji bot``: everything else comes from the environment (bot/service/config.py)."""
    parser.add_argument(
        "--db", help="the SQLite file (default: $GOUJI_DATABASE_URL, else $GOUJI_DB or gouji.db)"
    )
    parser.add_argument(
        "--guild", type=int, help="sync the commands to this server only ($GOUJI_GUILD)"
    )


def run(args: argparse.Namespace) -> int:
    """Start the bot; without a token, say how to get one and exit with status 2."""
    import dataclasses
    import logging

    from bot.cli.collector import collect_in_steps
    from bot.service.config import TOKEN_HELP, BotConfig

    try:
        config = BotConfig.from_env()
    except ValueError as exc:
        print(f"gouji bot: {exc}", file=sys.stderr)
        return 2
    if args.db:
        config = dataclasses.replace(config, db_path=args.db, database_url=None)
    if args.guild:
        config = dataclasses.replace(config, guild_id=args.guild)
    if not config.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2

    from bot.discord_bot.client import make_bot
    from bot.discord_bot.endpoints import configure_from_env

    configure_from_env()
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    web = None
    if config.web_url:  # the browser table beside the bot (docs/web.md)
        from bot.web.activity import ActivityKeys
        from bot.web.app import BesideBot

        keys = None
        if config.activity and config.client_id and config.client_secret:  # a Discord Activity
            keys = ActivityKeys(
                config.client_id, config.client_secret, config.token, config.discord_api
            )
        web = BesideBot(config.web_url, config.web_host, config.web_port, config.web_secret, keys)
    bot, token = make_bot(config, web=web), config.token

    async def serve() -> None:
        async with bot:  # closed on the way out: tables saved, claims released
            # a service stop (SIGTERM) closes the bot cleanly, as Ctrl-C does
            asyncio.get_running_loop().add_signal_handler(
                signal.SIGTERM, lambda: asyncio.ensure_future(bot.close())
            )
            await bot.start(token)

    collect_in_steps()  # short garbage-collection pauses with many tables in memory
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())
    return 0
