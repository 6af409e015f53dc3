"""The one answer path through Discord (bot.discord_bot.answers), from every kind of control:
a slash command, a button, a select menu, the cards modal and the replay command each come
back with a refusal in the person's language (zh, then en), ephemeral, and change nothing; a
bug in a handler is logged with its traceback and answered with the apology exactly once."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.service.errors import UserError
from bot.text.catalog import text
from bot.text.refusals import refusal_text
from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import acted, bot_factory, next_person

LOCALES = {"zh": "zh-CN", "en": "en-US"}


def _control(msg: Any, verb: str, select: bool = False) -> str | None:
    for comp in msg.selects() if select else msg.buttons():
        if comp.get("custom_id", "").endswith(f":{verb}"):
            return str(comp["custom_id"])
    return None


def _controller(user: Any, table_id: int, token: str) -> Any:
    """The newest DM of ``user`` with the controls of question ``token``."""
    for msg in reversed(user.dms()):
        ids = [c.get("custom_id", "") for c in msg.buttons() + msg.selects()]
        if any(i.startswith((f"g:{table_id}:{token}:", f"gs:{table_id}:{token}:")) for i in ids):
            return msg
    return None


async def _refused(rec: Any) -> str:
    """The one ephemeral answer to a refused (or failed) press: a follow-up of the deferral."""
    await acted(rec)
    msg = await rec.followup(0)
    assert msg.ephemeral and len(rec.followup_ids) == 1, "answered once, only to the presser"
    return str(msg.content)


async def _said(rec: Any) -> str:
    msg = await rec.original()
    assert msg.ephemeral, f"a refusal is ephemeral: {msg.content!r}"
    return str(msg.content)


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR and r.name == "gouji.bot"]


async def test_every_kind_of_control_refuses_in_the_persons_language_and_bugs_are_answered_once(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bo = fake.member("alice"), fake.member("bo")
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot: Any = runner.client  # a GoujiBot: its service and store are set up
        await (await alice.slash("gouji", "new", series=False, turn_time=300)).original()
        await (await bo.slash("gouji", "join")).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        live = bot.service.tables.table_in(fake.channel("gouji").id)

        for lang, locale in LOCALES.items():  # a slash command, and the replay command
            bo.locale = locale
            denied = await _said(await bo.slash("gouji", "start"))
            assert denied == text(lang, "only_creator", creator=alice.mention)
            unknown = await _said(await bo.slash("gouji", "replay", "watch", game="999"))
            assert unknown == text(lang, "replay_unknown")
        assert not live.playing

        def check_end(*args: Any) -> None:
            raise ValueError("a bug in the service")

        bot.service.check_end = check_end
        apology = await alice.slash("gouji", "end")
        assert await _said(apology) == text("en", "internal")
        assert len(apology.responses) == 1 and not apology.followup_ids, "answered once"
        (logged,) = _errors(caplog)
        assert logged.exc_info is not None and isinstance(logged.exc_info[1], ValueError)
        assert "/gouji end" in logged.getMessage() and logged.__dict__["table"] == live.id
        del bot.service.check_end
        caplog.clear()

        await (await alice.slash("gouji", "start")).original()
        while True:  # to a turn of the person's with the play menu and "other play…"
            seat = await next_person(fake, bot, live)
            assert seat is not None, "the game ended before a person's turn to play"
            user = (alice, bo)[seat]
            token = bot.service.views.question_token(live)
            await fake.wait_for(
                lambda u=user, t=token: _controller(u, live.id, t),
                10,
                "the controller",
            )
            msg = _controller(user, live.id, token)
            menu, other = _control(msg, "play", select=True), _control(msg, "other")
            if menu is not None and other is not None:
                break
            verb = next(v for v in ("nodeclare", "norevolt", "noburn", "pass") if _control(msg, v))
            await acted(await user.click(msg, _control(msg, verb)))

        actions = await bot.store.get_actions(live.game_id)
        hand = bot.service.views.hand_cards(live, seat)
        (options,) = [s["options"] for s in msg.selects() if s["custom_id"] == menu]
        stale = UserError("stale_prompt")

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise stale

        for lang, locale in LOCALES.items():
            user.locale = locale
            shown = await user.click(msg, other)  # the cards modal: cards that are no cards
            await fake.wait_for(lambda s=shown: s.modal is not None, 10, "the cards modal")
            typed = await _refused(await user.submit_modal(shown, {"cards": "XYZ"}))
            assert typed == text(lang, "bad_cards", typed="XYZ")
            bot.service.hint = refuse  # a button: the question is over
            hinted = await _refused(await user.click(msg, _control(msg, "hint")))
            over = refusal_text(stale, lang, how=True)  # the refusal, then Discord's way on
            assert hinted == over and over.startswith(text(lang, "stale_prompt"))
            del bot.service.hint
            bot.service.act = refuse  # a select menu: the question is over
            chosen = await _refused(await user.select(msg, menu, [options[0]["value"]]))
            assert chosen == over
            del bot.service.act
        assert not _errors(caplog), "refusals are not logged as errors"
        assert await bot.store.get_actions(live.game_id) == actions
        assert bot.service.views.hand_cards(live, seat) == hand

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug in the service")

        bot.service.act = broken
        failed = await _refused(await user.select(msg, menu, [options[0]["value"]]))
        assert failed == text("en", "internal")
        (logged,) = _errors(caplog)
        assert logged.exc_info is not None and isinstance(logged.exc_info[1], RuntimeError)
        assert logged.__dict__["table"] == live.id
        assert options[0]["value"] not in logged.getMessage(), "no cards in the log"
        del bot.service.act
        assert await bot.store.get_actions(live.game_id) == actions
