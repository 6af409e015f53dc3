"""Shared set-up for the Gouji bot's end-to-end tests: the real bot against the fake Discord."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.discord_bot.client import GoujiBot
from bot.discord_bot.endpoints import API_ENV, GATEWAY_ENV
from bot.service.config import BotConfig
from tests.fakediscord import FakeDiscord


class FastGoujiBot(GoujiBot):
    """The Gouji bot as a test starts it: no 5 s wait before a re-IDENTIFY."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def bot_factory(
    fake: FakeDiscord, db: Path, seed: int = 11, **overrides: Any
) -> Callable[[], FastGoujiBot]:
    """A factory of bots on ``db`` with short timers, AI delay 0 and a seeded deal
    (``overrides``: other ``BotConfig`` values, these too)."""
    timers = {"ai_delay": 0.0, "refresh_interval": 0.05, "warn_before": 0.0}
    config = BotConfig(
        token=fake.token, db_path=str(db), guild_id=fake.guild_id, **{**timers, **overrides}
    )
    return lambda: FastGoujiBot(config, rng=random.Random(seed), guild_ready_timeout=0.05)


async def series_of(bot: Any, fake: FakeDiscord, games: int) -> None:
    """Make the tables opened from now on in ``fake``'s server play ``games`` games a series
    (the server's table defaults, as ``gouji demo --games`` sets them; Discord's is five):
    a test that needs a series, not five games of one, plays two."""
    await bot.store.set_table_defaults(fake.guild_id, {"series_games": games})


@asynccontextmanager
async def gouji_process(
    fake: FakeDiscord, db: Path, **env: str
) -> AsyncIterator[asyncio.subprocess.Process]:
    """``gouji bot`` as a process against ``fake``, configured by its environment only (the
    token, ``db``, the commands synced to the fake's guild, and ``env``); yielded once it
    has synced its commands and connected; stopped (SIGTERM) after, its stderr free of
    tracebacks."""
    environment = {
        **os.environ,
        API_ENV: fake.api_base,
        GATEWAY_ENV: fake.gateway_url,
        "DISCORD_TOKEN": fake.token,
        "GOUJI_DB": str(db),
        "GOUJI_GUILD": str(fake.guild_id),
        **env,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "bot",
        env=environment,
        cwd=Path(__file__).parents[2],
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_for(
            lambda: (
                (fake.commands.commands_in(fake.guild_id) and fake.gateway.sessions)
                or proc.returncode is not None
            ),
            30,
            "the bot to sync its commands and connect",
            poll=0.1,
        )
        assert proc.returncode is None
        yield proc
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    assert b"Traceback" not in err, err.decode()[-2000:]


def find_prompt(user, table_id: int, verb: str, select: bool = False, token: str = ""):
    """The newest DM of ``user`` still offering ``verb`` at the table (a button, or with
    ``select`` a menu; of question ``token`` if given): (message, custom_id), or (None, None)."""
    prefix = f"{'gs' if select else 'g'}:{table_id}:{token}"
    for msg in reversed(user.dms()):
        for comp in msg.selects() if select else msg.buttons():
            cid = comp.get("custom_id", "")
            if cid.startswith(prefix) and cid.endswith(f":{verb}"):
                return msg, cid
    return None, None


async def acted(rec) -> None:
    """Wait until a DM button or menu press has had its real answer: the bot acknowledges a
    press at once, then edits its message (done) or follows up (a refusal or the hint) — or,
    when the press leads to a new question for the same player, re-sends the controller
    (the pressed message is deleted and a new one notifies them)."""
    what = f"the answer to {rec.id} ({(rec.data or {}).get('custom_id')})"
    fake = rec.fake

    def answered() -> bool:
        pressed = fake.messages.get(rec.message_id) if rec.message_id else None
        return len(rec.responses) >= 2 or (pressed is not None and pressed.deleted)

    await fake.wait_for(answered, 30, what)


async def next_person(fake: FakeDiscord, bot, live) -> int | None:
    """Wait until the bot's automatic actions are done and a person is asked: their seat, or
    None once the series (or single game) is over."""
    await fake.wait_for(
        lambda: (
            not live.playing
            or any(not live.is_ai(s) for s in live.series.to_act)
            and bot.service.quiet(live)
        ),
        30,
        "a person's turn",
        poll=0.005,
    )
    if not live.playing:
        return None
    return next(s for s in live.series.to_act if not live.is_ai(s))


async def press(
    fake: FakeDiscord, service: Any, user: Any, live: Any, verb: str, select: bool = False
) -> Any:
    """Answer the question open now from ``user``'s DM controller: press its ``verb`` button,
    or with ``select`` choose the first options of its ``verb`` menu (as many as it needs);
    wait for the bot's answer. The pressed message is returned."""
    token = service.views.question_token(live) + ":"
    what = f"{user.name}'s {verb} {'menu' if select else 'button'}"
    await fake.wait_for(
        lambda: find_prompt(user, live.id, verb, select, token)[0] is not None, 10, what
    )
    msg, custom_id = find_prompt(user, live.id, verb, select, token)
    if select:
        (menu,) = [s for s in msg.selects() if s["custom_id"] == custom_id]
        values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
        await acted(await user.select(msg, custom_id, values))
    else:
        await acted(await user.click(msg, custom_id))
    return msg


def check_message_counts(
    fake: FakeDiscord, people: dict[int, Any], asked: Sequence[int], started: int, games: int = 5
) -> None:
    """Issue 14's counts for ``people`` (seat: user) after interaction ``started``: at most
    one new DM (a notification) per question asked plus one controller per game; no channel
    notification deleted; at most three lasting channel messages per game besides the
    answers to commands."""
    for seat, user in people.items():
        dm = user.dm_channel()
        created = [m for m in fake.messages.values() if dm is not None and m.channel_id == dm.id]
        assert len(created) <= asked[seat] + games, (user.name, len(created), asked[seat])
    channel = fake.channel("gouji").id
    posted = [
        m
        for m in fake.messages_in(channel)
        if not m.ephemeral and m.interaction_id is None and m.id > started
    ]
    assert not [m for m in posted if m.deleted_at is not None and "<@" in m.content]
    lasting = [m for m in posted if m.deleted_at is None]
    assert len(lasting) <= 3 * games, [m.content[:40] for m in lasting]
