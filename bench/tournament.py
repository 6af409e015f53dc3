"""A tournament (比赛) of many people through the fake Discord (with Discord's rate limits
on): what a whole event costs the bot and Discord (docs/tournaments.md, "Figures").

    python -m bench.tournament [--players 60] [--rounds 3] [--json]

One bot process (the real discord.py client) and the fake Discord of ``tests/fakediscord``
in one event loop: the organiser opens a Swiss event with ``/gouji tournament new`` over one
channel per table, the people enter with ``/gouji tournament join``, the organiser starts it;
each round every person sits down with ``/gouji tournament here`` and hands their seat to
the AI (托管, as a person would press it), so single games play by themselves at AI speed.

Printed: the wall time; the bot's requests to Discord in all and per slash command (the
people's actions), and the 429s it met; per round the posts in the event's channel (the
target: one) and the table messages per table; and the time from a round's last recorded
game to the next round's seating (the service's own clock; the target: seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.e2e.gouji_helpers import bot_factory
from tests.e2e.test_gouji_tournament import play_round, say, until
from tests.fakediscord import BotRunner
from tests.fakediscord.runner import running_fake


async def run(players: int, rounds: int) -> dict[str, Any]:
    tables = -(-players // 6)
    members = [("org", "en-US"), *((f"p{i:03}", "zh-CN") for i in range(players))]
    channels = ("gouji", *(f"t{i}" for i in range(1, tables + 1)))
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with running_fake(members=members, channels=channels) as fake:
            org = fake.member("org")
            people = [fake.member(f"p{i:03}") for i in range(players)]
            venues = [fake.channel(f"t{i}") for i in range(1, tables + 1)]
            home = fake.channel("gouji")
            async with BotRunner(fake, bot_factory(fake, Path(tmp) / "gouji.db")) as runner:
                bot = runner.client
                first = len(fake.requests)
                commands = 0
                await say(
                    org,
                    "new",
                    name="bench",
                    format="swiss",
                    rounds=rounds,
                    channels=" ".join(f"<#{c.id}>" for c in venues),
                    gap=0,
                    show_up=600,
                )
                commands += 1
                for person in people:
                    await say(person, "join")
                    commands += 1
                before = {m.id for m in fake.messages_in(home.id)}
                await say(org, "start")
                commands += 1
                for number in range(1, rounds + 1):
                    await play_round(fake, bot, number)
                    commands += players
                events = bot.events
                assert events is not None
                event = await events.current(fake.guild_id)

                async def finished() -> bool:
                    return (await bot.store.get_tournament(event.id)).status == "finished"

                await until(finished, "the event finished", 60000)
                await fake.wait_for(
                    lambda: any("🥇" in m.content for m in fake.messages_in(home.id)), 30, "final"
                )
                requests = fake.requests[first:]
                posts = [
                    m
                    for m in fake.messages_in(home.id)
                    if m.id not in before and m.interaction_id is None and not m.ephemeral
                ]
                table_messages = sum(
                    1
                    for c in venues
                    for m in fake.messages_in(c.id, include_deleted=True)
                    if m.interaction_id is None and not m.ephemeral
                )
                gaps = [
                    events.seated_at[(event.id, n + 1)] - events.over_at[(event.id, n)]
                    for n in range(1, rounds)
                ]
                return {
                    "players": players,
                    "tables": tables,
                    "rounds": rounds,
                    "wall_seconds": round(time.perf_counter() - began, 1),
                    "requests": len(requests),
                    "requests_per_command": round(len(requests) / commands, 2),
                    "429s": sum(1 for r in requests if r.status == 429),
                    "event_channel_posts": len(posts),
                    "event_channel_posts_per_round": round((len(posts) - 1) / rounds, 2),
                    "table_channel_messages_created_per_table": round(
                        table_messages / (tables * rounds), 1
                    ),
                    "last_game_to_next_seating_seconds": [round(g, 3) for g in gaps],
                }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(run(args.players, args.rounds))
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:36} {value}")


if __name__ == "__main__":
    main()
