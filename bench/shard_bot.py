"""The bot process of ``bench.discord_shards``: ``gouji bot``, whose table service also
writes each question it asks a person to the file ``$GOUJI_BENCH_ASKS`` names, one JSON
line each (:class:`bench.discord.Ask`), so that the bench can pair them with the
notifications the fake Discord saw (question → notification, which ``bench.discord``
measures in its own process). Times are ``time.monotonic()``: one clock for every process
of the machine.

    GOUJI_BENCH_ASKS=asks.jsonl python -m bench.shard_bot
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import IO, Any

from bench.discord import Ask, Asked
from bot.cli import main as gouji
from bot.discord_bot.client import GoujiBot

ASKS_ENV = "GOUJI_BENCH_ASKS"


class AskFile(Asked):
    """:class:`~bench.discord.Asked`, each question written to ``out`` as it is asked."""

    def __init__(self, service: Any, out: IO[str]) -> None:
        super().__init__(service)
        self.out = out

    def prompt(self, live: Any, seat: int, kind: str) -> None:
        super().prompt(live, seat, kind)
        for ask in self.asks:
            self.out.write(json.dumps(dataclasses.asdict(ask)) + "\n")
        self.asks.clear()


def read_asks(path: Path) -> list[Ask]:
    """The questions an :class:`AskFile` wrote (none if the file is not there)."""
    if not path.exists():
        return []
    return [Ask(**json.loads(line)) for line in path.read_text().splitlines() if line]


def main() -> int:
    """``gouji bot``, its table service listened to by an :class:`AskFile`."""
    out = open(os.environ[ASKS_ENV], "a", buffering=1)  # a line each: read after the exit
    set_up = GoujiBot.setup_hook

    async def setup_hook(bot: GoujiBot) -> None:
        await set_up(bot)
        bot.service.listen(AskFile(bot.service, out))

    GoujiBot.setup_hook = setup_hook  # type: ignore[method-assign,assignment]
    try:
        return gouji(["bot"])
    finally:
        out.close()


if __name__ == "__main__":
    raise SystemExit(main())
