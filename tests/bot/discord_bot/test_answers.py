"""The one answer path (bot.discord_bot.answers): the project's user errors are refusals in the
person's language, sent once (a follow-up once the interaction is answered) and not logged;
anything else is logged with its traceback, its table and channel, and answered with the
apology once — from a command, what escapes it (tree.on_error), a modal and a component."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord_bot.answers import (
    AnsweredItem,
    AnsweredModal,
    answering,
    on_command_error,
)
from bot.discord_bot.cog import GoujiCog
from bot.discord_bot.replay import ReplayButton, ReplayDesk
from bot.service.errors import UserError
from bot.service.presenter import Who
from bot.text.catalog import text
from data import Store
from engine.actions import IllegalActionError
from engine.cards import CardError

from ..service.helpers import CHANNEL, seated_table
from .test_failures import FakeResponse, _gouji, _interaction

LOCALES = {"zh": "zh-CN", "en": "en-US"}


class Answered(FakeResponse):
    """What was answered, and how: the first answer, follow-ups, edits of the answer."""

    def __init__(self) -> None:
        super().__init__()
        self.how: list[str] = []

    async def send_message(self, content: str, **kwargs: Any) -> None:
        self.how.append("response")
        await super().send_message(content, **kwargs)

    async def send(self, content: str, **kwargs: Any) -> None:
        self.how.append("followup")
        await super().send(content, **kwargs)


def _asked(gouji: Any, lang: str = "zh", **more: Any) -> Any:
    interaction = _interaction(gouji)
    answered = Answered()
    interaction.response = interaction.followup = answered
    interaction.locale = LOCALES[lang]
    interaction.type = discord.InteractionType.component
    interaction.data = {"custom_id": "g:1:1.turn.0:pass"}
    interaction.command = None

    async def edit_original_response(**kwargs: Any) -> None:
        answered.how.append("edit")
        answered.sent.append(kwargs["content"])

    interaction.edit_original_response = edit_original_response
    for name, value in more.items():
        setattr(interaction, name, value)
    return interaction


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_a_user_error_is_a_refusal_in_the_persons_language(
    store: Store, caplog: pytest.LogCaptureFixture, lang: str
) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, lang)
    async with answering(interaction):
        raise UserError("stale_prompt")
    how = text(lang, "how_stale_prompt")  # on Discord: how to go on, with its commands
    assert interaction.response.sent == [
        text(lang, "refusal.how", said=text(lang, "stale_prompt"), how=how)
    ]
    assert "/gouji" in how and not _errors(caplog)


@pytest.mark.parametrize(
    ("lang", "said"),
    [("zh", "一对 K 管不上 一对 A。"), ("en", "A pair of Ks does not beat a pair of As.")],
)
async def test_an_illegal_action_is_a_refusal(
    store: Store, caplog: pytest.LogCaptureFixture, lang: str, said: str
) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, lang)
    async with answering(interaction):
        raise IllegalActionError("does_not_beat", cards="KK", standing="AA")
    assert interaction.response.sent == [said]
    assert not _errors(caplog)


async def test_cards_that_do_not_parse_are_a_refusal(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, "en")
    async with answering(interaction):
        raise CardError("unknown card 'X' at position 1", "XYZ")
    (said,) = interaction.response.sent
    assert said == text("en", "bad_cards", typed="XYZ")  # as the service refuses them
    assert not _errors(caplog)


async def test_a_refusal_after_the_first_answer_is_a_follow_up(store: Store) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, "en")
    async with answering(interaction):
        await interaction.response.defer()
        raise UserError("stale_prompt")
    assert interaction.response.how == ["followup"]
    assert interaction.response.sent == [
        f"{text('en', 'stale_prompt')} {text('en', 'how_stale_prompt')}"
    ]


async def test_a_bug_is_logged_with_its_table_and_channel_and_answered_once(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    gouji = _gouji(store)
    live = await seated_table(gouji.service)
    interaction = _asked(gouji, "en")
    bug = ValueError("a bug")
    async with answering(interaction) as answer:
        answer.table = live
        raise bug
    assert interaction.response.sent == [text("en", "internal")]
    (logged,) = _errors(caplog)
    assert logged.exc_info is not None and logged.exc_info[1] is bug
    assert logged.__dict__["table"] == live.id and logged.__dict__["channel"] == CHANNEL
    assert "g:1:1.turn.0:pass" in logged.getMessage()
    await gouji.service.close()


async def test_undo_runs_when_the_block_fails_and_only_then(store: Store) -> None:
    gouji = _gouji(store)
    undone: list[str] = []
    async with answering(_asked(gouji)) as answer:
        answer.on_failure(lambda: undone.append("ok"))
    assert undone == []
    async with answering(_asked(gouji)) as answer:
        answer.on_failure(lambda: undone.append("refused"))
        raise UserError("stale_prompt")
    async with answering(_asked(gouji)) as answer:
        answer.on_failure(lambda: undone.append("bug"))
        raise KeyError("a bug")
    assert undone == ["refused", "bug"]


async def test_in_place_a_failure_replaces_the_working_answer(store: Store) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, "zh")
    async with answering(interaction) as answer:
        await interaction.response.defer()
        answer.in_place = True
        raise RuntimeError("the reviewer died")
    assert interaction.response.how == ["edit"]
    assert interaction.response.sent == [text("zh", "internal")]


async def test_an_autocomplete_failure_is_logged_and_not_answered(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, type=discord.InteractionType.autocomplete)
    async with answering(interaction):
        raise ValueError("a bug")
    assert interaction.response.sent == [] and len(_errors(caplog)) == 1


async def test_what_escapes_a_command_is_answered_once_by_the_trees_hook(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    gouji = _gouji(store)
    interaction = _asked(
        gouji, "en", command=SimpleNamespace(name="help", qualified_name="gouji help")
    )
    bug = ValueError("a bug")
    command = GoujiCog(gouji).help
    await on_command_error(interaction, app_commands.CommandInvokeError(command, bug))
    assert interaction.response.sent == [text("en", "internal")]
    (logged,) = _errors(caplog)
    assert logged.exc_info is not None and logged.exc_info[1] is bug
    assert "/gouji help" in logged.getMessage()


async def test_a_value_discord_would_have_refused_is_a_refusal(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, "zh")
    seat = SimpleNamespace(_error_display_name="Range[int, 0, 5]")
    forged = app_commands.TransformerError(99, discord.AppCommandOptionType.integer, seat)  # type: ignore[arg-type]
    await on_command_error(interaction, forged)
    assert interaction.response.sent == [text("zh", "bad_option", what="99")]
    assert not _errors(caplog)


async def test_a_modals_failure_is_answered(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, "en")
    modal = AnsweredModal(title="t")
    await modal.on_error(
        interaction, IllegalActionError("does_not_beat", cards="KK", standing="AA")
    )
    await modal.on_error(interaction, ValueError("a bug"))
    assert interaction.response.sent == [
        "A pair of Ks does not beat a pair of As.",
        text("en", "internal"),
    ]
    assert len(_errors(caplog)) == 1


class Broken(
    AnsweredItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"broken",
):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="x", custom_id="broken"))

    async def callback(self, interaction: discord.Interaction) -> None:
        raise ValueError("a bug in a component")


async def test_a_components_failure_is_answered_not_only_logged(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    gouji = _gouji(store)
    interaction = _asked(gouji, "zh")
    await Broken().callback(interaction)
    assert interaction.response.sent == [text("zh", "internal")]
    assert len(_errors(caplog)) == 1


class Desk(ReplayDesk):
    """A replay desk whose deals replay an illegal action (a record edited by hand)."""

    async def find(self, game_id: int, guild_id: int | None = None) -> Any:
        return SimpleNamespace(game_id=game_id, guild_id=guild_id)

    async def load(self, game_id: int, guild_id: int | None = None) -> Any:
        raise IllegalActionError("does_not_beat", cards="KK", standing="AA")


def _desk(gouji: Any) -> Desk:
    desk = Desk(gouji, review_budget=1)
    gouji.people.client.replays = desk
    return desk


@pytest.mark.parametrize(
    ("lang", "said"),
    [("zh", "一对 K 管不上 一对 A。"), ("en", "A pair of Ks does not beat a pair of As.")],
)
async def test_the_replay_controls_refuse_an_illegal_action(
    store: Store, caplog: pytest.LogCaptureFixture, lang: str, said: str
) -> None:
    gouji = _gouji(store)
    _desk(gouji)
    interaction = _asked(gouji, lang, id=7)
    await ReplayButton(5, 3, "next").callback(interaction)
    assert interaction.response.sent == [said]
    assert not _errors(caplog)


@pytest.mark.parametrize("name", ["replay_watch", "replay_review"])
async def test_the_replay_commands_refuse_an_illegal_action(
    store: Store, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    gouji = _gouji(store)
    cog = GoujiCog(gouji, _desk(gouji))
    command = getattr(GoujiCog, name)
    assert isinstance(command, app_commands.Command)
    interaction = _asked(gouji, "en")
    callback: Any = command.callback  # the cog's method: it takes the cog first
    await callback(cog, interaction, "5")
    assert interaction.response.sent == ["A pair of Ks does not beat a pair of As."]
    assert not _errors(caplog)


async def test_a_refusal_after_a_restart_names_people_not_ids(store: Store) -> None:
    """A restarted bot has seen nobody yet: a refusal naming a seat looks its player up
    (once) instead of saying #id."""
    gouji = _gouji(store)
    await seated_table(gouji.service)
    fetched: list[int] = []

    async def fetch_user(user_id: int) -> Any:
        fetched.append(user_id)
        return SimpleNamespace(id=user_id, display_name=f"player {user_id}")

    gouji.people.client.fetch_user = fetch_user  # type: ignore[method-assign]
    seat_one = gouji.service.tables.table_in(CHANNEL).seats[1].user_id
    assert seat_one is not None
    for _ in range(2):
        interaction = _asked(gouji, "en")
        async with answering(interaction):
            raise UserError("seat_taken", seat=1, who=Who(1))
        (said,) = interaction.response.sent
        assert f"player {seat_one}" in said and f"#{seat_one}" not in said
    assert fetched.count(seat_one) == 1
