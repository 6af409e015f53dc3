"""Shared set-up for the Gouji bot's end-to-end tests: the real bot against the fake Discord."""

from __future__ import annotations

import random
from pathlib import Path

from bot.discord_bot.client import GoujiBot
from bot.service.config import BotConfig
from tests.fakediscord import FakeDiscord


class FastGoujiBot(GoujiBot):
    """The Gouji bot as a test starts it: no 5 s wait before a re-IDENTIFY."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def bot_factory(fake: FakeDiscord, db: Path, seed: int = 11, **overrides):
    """A factory of bots on ``db`` with short timers, AI delay 0 and a seeded deal."""
    config = BotConfig(
        token=fake.token,
        db_path=str(db),
        guild_id=fake.guild_id,
        ai_delay=0.0,
        refresh_interval=0.05,
        warn_before=0.0,
        **overrides,
    )
    return lambda: FastGoujiBot(config, rng=random.Random(seed), guild_ready_timeout=0.05)


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
            and bot.service._next_step(live) is None
        ),
        30,
        "a person's turn",
        poll=0.005,
    )
    if not live.playing:
        return None
    return next(s for s in live.series.to_act if not live.is_ai(s))
