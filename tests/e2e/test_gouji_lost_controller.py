"""Issue 50: a question's DM controller whose post fails — a 503, which discord.py does not
retry on that route, or a dropped connection — is posted again, and the player answers with
it; past its tries it goes at the seat's next update, which comes by itself while the seat is
asked. Through the real bot against the fake Discord; the counts are the requests it saw."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.discord_bot.controllers import TRIES
from tests.fakediscord import BotRunner, FakeDiscord, MessageRecord

from .gouji_helpers import bot_factory, next_person
from .test_gouji_notify import _answer, _offers, _single_game_with_ai

PATIENCE = 30.0  # only how long a loaded machine may take: every wait is for an event


async def _asked(
    fake: FakeDiscord, bot: Any, user: Any, live: Any
) -> tuple[str, str, MessageRecord]:
    """The user's next question (its token and kind) and the DM controller sent with it."""
    assert await next_person(fake, bot, live) is not None
    token, kind = bot.service.views.question_token(live), str(bot.service.views.question_kind(live))

    def sent() -> list[MessageRecord]:
        return [m for m in user.dms() if _offers(m, live.id, token, first=True)]

    await fake.wait_for(sent, PATIENCE, "a DM controller sent with the question")
    (msg,) = sent()
    return token, kind, msg


async def _next_controller_failing(
    fake: FakeDiscord, tmp_path: Path, fail: Callable[[str], list[Any]]
) -> list[int]:
    """bo, alone with five AI seats, answers his first question from its DM controller;
    ``fail(route)`` plans the faults of the next posts in his DM channel (their hits must
    all be met). His next question's controller reaches him all the same, notifies him once,
    and he answers with it. Returns the statuses of the posts in his DM from his first
    answer on (0: the connection dropped)."""
    bo = fake.member("bo")
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        live = await _single_game_with_ai(fake, bot, bo, turn_time=300)
        seat = live.seat_of(bo.id)
        _, kind, msg = await _asked(fake, bot, bo, live)
        dm = bo.dm_channel()
        assert dm is not None
        route = f"/channels/{dm.id}/messages"
        faults = fail(route)
        since = time.monotonic()
        await _answer(fake, bo, msg, kind)

        token, kind, msg = await _asked(fake, bot, bo, live)
        assert bo.id in msg.notified, "the controller notifies him"
        assert all(f.times == 0 for f in faults), "every planned fault was met"
        await bot.presenter.drain()  # his question's posts are all answered and recorded
        posts = [r for r in fake.requests if r.at >= since and r.method == "POST"]
        await _answer(fake, bo, msg, kind)
        assert bot.service.views.question_token(live) != token or seat not in live.waiting, (
            "answered"
        )
        asking = [m for m in fake.messages.values() if _offers(m, live.id, token, first=True)]
        assert len(asking) == 1, "one controller for the question"
        return [r.status for r in posts if r.path == route]


async def test_a_controller_whose_dm_got_a_503_is_posted_again(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """One 503 on the question's DM: posted again at once (before, the player had no
    controls and the clock played for them)."""
    statuses = await _next_controller_failing(
        fake, tmp_path, lambda route: [fake.faults.server_error("POST", route, status=503)]
    )
    assert statuses == [503, 200]


async def test_a_controller_that_failed_past_its_tries_goes_at_the_next_update(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The connection drops, then 503s, past every try: the seat's controller is noted as
    not sent, and goes at its next update, which comes by itself while he is asked."""

    def fail(route: str) -> list[Any]:
        return [
            fake.faults.drop("POST", route),
            fake.faults.server_error("POST", route, times=TRIES - 1, status=503),
        ]

    statuses = await _next_controller_failing(fake, tmp_path, fail)
    assert statuses == [0] + [503] * (TRIES - 1) + [200]
