"""The bot process of ``bench.discord_shards``: ``gouji bot``, whose table service also
writes each question it asks a person to the file ``$GOUJI_BENCH_ASKS`` names, one JSON
line each (:class:`bench.discord.Ask`), so that the bench can pair them with the
notifications the fake Discord saw (question → notification, which ``bench.discord``
measures in its own process). Times are ``time.monotonic()``: one clock for every process
of the machine.

    GOUJI_BENCH_ASKS=asks.jsonl python -m bench.shard_bot

At its exit it writes beside that file (:func:`figures_path`) what its drawer did
(:func:`bench.discord.drawing_figures`) and how late its event loop ran
(:class:`bench.discord.LoopLag`).
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import IO, Any

from bench.discord import Ask, Asked, LoopLag, drawing_figures
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


def figures_path(asks: Path) -> Path:
    """Where the bot process whose questions go to ``asks`` writes its figures at exit."""
    return asks.with_suffix(".figures.json")


def read_figures(asks: Path) -> dict[str, Any]:
    """The figures the bot process of ``asks`` wrote at its exit: ``pictures`` (what its
    drawer did) and ``loop_lags`` (``[when, seconds late]``; none if it did not get there."""
    path = figures_path(asks)
    return json.loads(path.read_text()) if path.exists() else {}


def main() -> int:
    """``gouji bot``, its table service listened to by an :class:`AskFile`."""
    asks = Path(os.environ[ASKS_ENV])
    out = open(asks, "a", buffering=1)  # a line each: read after the exit
    set_up = GoujiBot.setup_hook
    bots: list[GoujiBot] = []
    lag = LoopLag()

    async def setup_hook(bot: GoujiBot) -> None:
        await set_up(bot)
        bot.service.listen(AskFile(bot.service, out))
        bots.append(bot)
        lag.start()

    GoujiBot.setup_hook = setup_hook  # type: ignore[method-assign,assignment]
    try:
        return gouji(["bot"])
    finally:
        out.close()
        if bots:
            figures = {"pictures": drawing_figures(bots[0].draw), "loop_lags": lag.lags}
            figures_path(asks).write_text(json.dumps(figures))


if __name__ == "__main__":
    raise SystemExit(main())
