"""How fast 录像 (replay) and 复盘 (review) are answered on Discord, through the fake Discord
(with Discord's rate limits on).

    python -m bench.replay [--record examples/planted.json] [--draw-processes 1]
                           [--bursts 10] [--review-budget 2000] [--json]

One bot (the real discord.py client, :class:`bot.discord_bot.client.GoujiBot`) and the fake
Discord of ``tests/fakediscord`` in one event loop, the pictures drawn by
``--draw-processes`` worker processes as in production (their start, once per bot, is
timed apart). A finished game (``--record``) is stored as the bot stores one, then one
person:

* runs ``/gouji replay watch`` and presses ▶ through every step, each press once the previous
  picture is in (someone stepping through the game), then picks every option of the jump menu;
* makes ``--bursts`` bursts of five quick presses on one message (all five before any of
  their pictures arrives): the newest wins, the older pictures are dropped;
* runs ``/gouji replay review`` for their seat at ``--review-budget`` rollouts (0: no review).

Printed: p50, p99 and the largest time from the gateway's dispatch of an interaction to its
first answer (the fake's ``latency``), against the target (p99 ≤ 150 ms), and to the real
answer (the edited picture of a press; the replay or the review of a command; no target).
The fake runs in the same process, so its own work is in the figures too. The review's
quality (time on one core, agreement of two seeds) is ``python -m bench.review``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.discord import answer_latency, summarize
from bot.discord_bot.client import GoujiBot
from bot.discord_bot.replay import ReplayDesk
from bot.service.config import BotConfig
from engine.ai.review import DEFAULT_BUDGET
from tests.fakediscord import BotRunner, running_fake
from tests.replay.helpers import edited, shown_step, store_finished_game

PLANTED = Path(__file__).parents[1] / "examples" / "planted.json"
BURST = 5  # quick presses in a burst
PATIENCE = float(
    os.environ.get("BENCH_PATIENCE", 600)
)  # seconds to wait for an answer (a review on a busy machine)
COMPONENT = 3  # interaction type


def _button(msg: Any, emoji: str) -> dict[str, Any]:
    return next(b for b in msg.buttons() if b.get("label") == emoji)


async def _burst(fake: Any, desk: ReplayDesk, user: Any, msg: Any, rng: random.Random) -> list:
    """Five presses of the jump menu on ``msg`` as it is shown, one right after the other;
    waits until each is answered. The presses (interaction records)."""
    select = msg.selects()[0]
    values = [o["value"] for o in select["options"]]
    channel = fake.channels[msg.channel_id]
    recs = []
    for value in rng.sample(values, min(BURST, len(values))):
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": [value]}
        recs.append(await fake.create_interaction(user.user, COMPONENT, channel, data, msg))

    def answered() -> bool:
        return all(rec.responses for rec in recs) and desk.presses.waiting == 0

    await fake.wait_for(answered, PATIENCE, "a burst of presses answered")
    return recs


def _subcommand(data: dict[str, Any]) -> str:
    """The subcommand an interaction ran, below /gouji: ``replay watch``."""
    names, options = [], data["options"]
    while options and options[0]["type"] in (1, 2):  # a subcommand (group)
        names.append(options[0]["name"])
        options = options[0].get("options", [])
    return " ".join(names)


def _known(latency: float | None) -> float:
    """A latency that was measured (every answered press has one)."""
    assert latency is not None
    return latency


async def run_benchmark(
    record: dict[str, Any],
    draw_processes: int = 1,
    bursts: int = 10,
    review_budget: int = DEFAULT_BUDGET,
    seed: int = 1,
) -> dict[str, Any]:
    """Step through, jump around and review ``record`` on Discord; the figures."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with running_fake() as fake:
            config = BotConfig(
                token=fake.token,
                db_path=str(Path(tmp) / "bench.db"),
                guild_id=fake.guild_id,
                draw_processes=draw_processes,
                review_budget=max(1, review_budget),
            )

            def factory() -> GoujiBot:
                return GoujiBot(config, rng=random.Random(seed), guild_ready_timeout=0.05)

            async with BotRunner(fake, factory) as runner:
                person = fake.members[0]
                channel = next(iter(fake.channels))
                bot: Any = runner.client  # the GoujiBot: its store and desk are set once started
                store = bot.store
                await store_finished_game(
                    store, fake.guild_id, channel, record, {0: person.user.id}
                )
                desk = bot.replays
                # a bot runs for days: its workers' start (import, fonts) is counted apart
                began = time.monotonic()
                await bot.draw(os.getpid)
                warm = {"drawing": time.monotonic() - began}
                if review_budget > 0:
                    await desk.reviewer(os.getpid)
                    warm["review"] = time.monotonic() - began
                commands = [await person.slash("gouji", "replay", "watch")]
                msg = await commands[0].original(PATIENCE)
                steps, jumps, quick = [], [], []
                while not _button(msg, "▶").get("disabled"):
                    steps.append(await person.click(msg, _button(msg, "▶")["custom_id"]))
                    msg = await edited(steps[-1], PATIENCE)
                for option in msg.selects()[0]["options"]:
                    select_id = msg.selects()[0]["custom_id"]
                    jumps.append(await person.select(msg, select_id, [option["value"]]))
                    msg = await edited(jumps[-1], PATIENCE)
                on_last = 0  # bursts that ended on their last press's step
                for _ in range(bursts):
                    burst = await _burst(fake, desk, person, msg, rng)
                    quick += burst
                    msg = fake.messages[msg.id]
                    on_last += shown_step(msg) == int(burst[-1].data["values"][0].split(".")[0])
                began = time.monotonic()
                if review_budget > 0:
                    commands.append(rec := await person.slash("gouji", "replay", "review"))
                    await fake.wait_for(
                        lambda: sum(r.kind == "edit_original" for r in rec.responses) >= 2,
                        PATIENCE,
                        "the review",
                    )
                review_seconds = time.monotonic() - began
    presses = steps + jumps + quick
    return {
        "record_steps": len(steps),
        "first_answer": {
            "presses": summarize([r.latency for r in presses]),
            "commands": {_subcommand(r.data): summarize([_known(r.latency)]) for r in commands},
        },
        "picture": {
            "command": summarize([_known(answer_latency(commands[0]))]),
            "stepping": summarize([_known(answer_latency(r)) for r in steps + jumps]),
            "bursts": summarize([lat for r in quick if (lat := answer_latency(r)) is not None]),
        },
        "bursts": {
            "presses": len(quick),
            "pictures_shown": sum(
                any(x.kind == "edit_original" for x in r.responses) for r in quick
            ),
            "ended_on_the_last_press": on_last,
            "count": bursts,
        },
        "review": {"budget": review_budget, "seconds": round(review_seconds, 1)}
        if review_budget > 0
        else None,
        "draw_processes": draw_processes,
        "workers_ready_seconds": {k: round(v, 1) for k, v in warm.items()},
    }


def _line(name: str, s: dict[str, Any], target: bool = False) -> str:
    verdict = (
        ("  meets p99 ≤ 150 ms" if s["meets_target"] else "  MISSES p99 ≤ 150 ms") if target else ""
    )
    return (
        f"  {name}: {s['count']}: p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, "
        f"max {s['max_ms']} ms{verdict}"
    )


def format_report(fig: dict[str, Any]) -> str:
    """The figures as lines of text."""
    first, picture, bursts = fig["first_answer"], fig["picture"], fig["bursts"]
    lines = [
        f"replay of a {fig['record_steps']}-step game, {fig['draw_processes']} drawing process(es)",
        "workers ready after the bot's start (not in the figures below): "
        + ", ".join(f"{k} {v} s" for k, v in fig["workers_ready_seconds"].items()),
        "first answer (dispatch → deferral):",
        _line("presses (▶ every step, every jump, bursts)", first["presses"], target=True),
    ]
    lines += [_line(f"/gouji {name}", s, target=True) for name, s in first["commands"].items()]
    lines += [
        "the picture (dispatch → the reply filled in, or the message edited):",
        _line("/gouji replay watch", picture["command"]),
        _line("stepping (▶ and jumps, one at a time)", picture["stepping"]),
        _line("bursts (the pictures shown)", picture["bursts"]),
        f"bursts: {bursts['presses']} presses, {bursts['pictures_shown']} pictures shown "
        "(the others dropped: a newer press on the message had come); "
        f"{bursts['ended_on_the_last_press']} of {bursts['count']} ended on their last press",
    ]
    if fig["review"] is not None:
        review = fig["review"]
        lines.append(
            f"/gouji replay review at {review['budget']} rollouts: "
            f"{review['seconds']} s to the review"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", type=Path, default=PLANTED, help="a finished game's record")
    parser.add_argument("--draw-processes", type=int, default=1)
    parser.add_argument("--bursts", type=int, default=10, help="bursts of five quick presses")
    parser.add_argument(
        "--review-budget", type=int, default=DEFAULT_BUDGET, help="rollouts (0: no review)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    record = json.loads(args.record.read_text(encoding="utf-8"))
    fig = asyncio.run(
        run_benchmark(record, args.draw_processes, args.bursts, args.review_budget, args.seed)
    )
    print(json.dumps(fig, ensure_ascii=False, indent=2) if args.json else format_report(fig))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
