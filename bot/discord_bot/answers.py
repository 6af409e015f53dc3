"""The one answer path of every interaction: a refusal in the person's language, or a logged
traceback and a short apology.

Every handler (slash command, button, menu, modal, replay control) runs inside
:func:`answering`; discord.py's error hooks (:func:`on_command_error` for the command tree,
:class:`AnsweredModal`, :class:`AnsweredItem` for the persistent components) run whatever
escapes through it too, so each failure is answered exactly once::

    async with answering(interaction, lang) as answer:
        live = service.tables.get(table_id)
        answer.table = live  # seats named as at this table; its id in the log record
        await service.act(live, ...)

The project's user errors (:data:`REFUSED`: the service's :class:`UserError`, the engine's
:class:`IllegalActionError`, bad card notation) are refusals: nothing changed, the person is
told why (ephemeral; a follow-up once the interaction is answered). Anything else is a bug:
logged with its traceback, its table and channel (never a hand), and answered with the
catalog's ``internal`` apology.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot.discord_bot.people import People
from bot.service.errors import REFUSALS, UserError
from bot.service.live import LiveTable, echo
from bot.service.views import TableInfo
from bot.text.catalog import lang_of, text
from bot.text.refusals import refusal_text
from engine.cards import CardError
from engine.hands import HandError

log = logging.getLogger("gouji.bot")

#: The longest message Discord takes.
MESSAGE_LIMIT = 2000
#: Seconds a refusal waits for the names of its table's people not seen since a restart
#: (looked up once each; past that it names them by id, within Discord's 3 s to answer).
NAMES_WAIT = 1.0

#: What is answered as a refusal: the service's and the engine's, and cards that do not parse.
REFUSED: tuple[type[Exception], ...] = (*REFUSALS, CardError, HandError)


def refusal(people: People | None, exc: Exception, lang: str, table: TableInfo | None) -> str:
    """A refused request as a reply: the one wording of the refusal (seats named as at
    ``table``), then how to go on with the commands when the catalog says."""
    names = people.namer(table, lang) if people is not None else None
    return refusal_text(exc, lang, names, how=True)


@dataclass(frozen=True, slots=True)
class Answer:
    """What a handler answers with: its text, a file and controls if any, and whether only
    the caller sees it (a public answer shows in the channel)."""

    content: str
    file: discord.File | None = None
    ephemeral: bool = True
    view: discord.ui.View | None = None

    async def send(self, interaction: discord.Interaction) -> None:
        """Answer ``interaction`` with it (:func:`reply`), the text cut to what Discord takes."""
        await reply(
            interaction,
            fit(self.content),
            file=self.file,
            ephemeral=self.ephemeral,
            view=self.view,
        )


def fit(content: str) -> str:
    """An answer cut to what Discord takes."""
    return content if len(content) <= MESSAGE_LIMIT else content[: MESSAGE_LIMIT - 1] + "…"


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer (or follow up an answered interaction), with a file and buttons if given."""
    kwargs: dict[str, Any] = {
        "ephemeral": ephemeral,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(content, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


@dataclass
class Answering:
    """What a handler tells its :func:`answering` block as it goes."""

    lang: str
    table: LiveTable | None = None  # the table asked about: names its seats, logged
    undo: list[Callable[[], None]] = field(default_factory=list)  # run when the block fails
    in_place: bool = False  # a failure's answer replaces the answer so far ("working…")

    def on_failure(self, undo: Callable[[], None]) -> None:
        """Run ``undo`` if the block ends in a refusal or an error (not otherwise)."""
        self.undo.append(undo)


def what_of(interaction: discord.Interaction) -> str:
    """The interaction as a log names it: ``/gouji play`` or a component's custom id (these
    name the table, the question and the verb — never cards)."""
    command = getattr(interaction, "command", None)
    if command is not None:
        return "/" + str(getattr(command, "qualified_name", None) or command.name)
    data = getattr(interaction, "data", None) or {}
    return f"component {data.get('custom_id', '?')}"


def _people(interaction: discord.Interaction) -> People | None:
    gouji = getattr(interaction.client, "gouji", None)  # None before the bot is set up
    return gouji.people if gouji is not None else None


@contextlib.asynccontextmanager
async def answering(
    interaction: discord.Interaction, lang: str | None = None
) -> AsyncIterator[Answering]:
    """Run a handler's block and answer what fails in it (see the module's docstring); the
    block's exception ends there (a refusal or an apology is the answer)."""
    people = _people(interaction)
    if lang is None:
        lang = people.remember(interaction) if people else lang_of(interaction.locale)
    answer = Answering(lang)
    try:
        yield answer
    except REFUSED as exc:
        _undo(answer)
        info = _table(interaction, answer)
        if people is not None and info is not None:
            await _learn_names(people, info)
        said = refusal(people, exc, lang, info)
        await _send(interaction, answer, said[:MESSAGE_LIMIT])
    except Exception:
        _undo(answer)
        info = _table(interaction, answer)
        table_id = info.id if info is not None else None
        channel = getattr(interaction, "channel_id", None)
        log.exception(
            "%s failed (table %s, channel %s)",
            what_of(interaction),
            table_id,
            channel,
            extra={"table": table_id, "channel": channel},
        )
        await _send(interaction, answer, text(lang, "internal"))


async def _learn_names(people: People, info: TableInfo) -> None:
    """The names of the table's people not seen since a restart, for a refusal naming
    them: looked up at most :data:`NAMES_WAIT` seconds, best effort (else ``#id``)."""
    try:
        await asyncio.wait_for(people.learn_names(info.users()), NAMES_WAIT)
    except Exception:  # naming must never turn a refusal into an apology
        log.warning("looking up the names of table %s failed", info.id, exc_info=True)


def _undo(answer: Answering) -> None:
    for undo in reversed(answer.undo):
        undo()


def _table(interaction: discord.Interaction, answer: Answering) -> TableInfo | None:
    """The table a failure is about: the handler's, else the channel's (its seats name the
    refusal's seats; its id goes in the log)."""
    gouji = getattr(interaction.client, "gouji", None)
    if gouji is None:
        return None
    live = answer.table
    if live is None:
        live = gouji.service.tables.table_at(getattr(interaction, "channel_id", None))
    return gouji.service.tables.info(live) if live is not None else None


async def _send(interaction: discord.Interaction, answer: Answering, content: str) -> None:
    """The failure's answer; one that cannot be sent is logged (and not tried again)."""
    if getattr(interaction, "type", None) is discord.InteractionType.autocomplete:
        return  # an autocomplete answers with choices only (the caller gives none)
    try:
        if answer.in_place:
            await interaction.edit_original_response(content=content)
        else:
            await reply(interaction, content)
    except Exception:  # the token ran out, the client is closing: never a second answer
        log.warning(
            "%s: its refusal or apology could not be sent", what_of(interaction), exc_info=True
        )


async def on_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """``tree.on_error``: what escaped a slash command (or came before it: a value Discord's
    own checks would have refused, from a forged interaction) answered on the one path."""
    failed: Exception = error
    if isinstance(error, app_commands.CommandInvokeError):
        failed = error.original
    elif isinstance(error, app_commands.TransformerError):
        failed = UserError("bad_option", what=echo(error.value))
    async with answering(interaction):
        raise failed


class AnsweredModal(discord.ui.Modal):
    """A modal whose ``on_submit`` failures are answered on the one path."""

    async def on_error(  # type: ignore[override]  # a modal's hook has no item
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        async with answering(interaction):
            raise error


class AnsweredItem:
    """A persistent component (a ``DynamicItem``, listed before it in the bases) whose
    ``callback`` runs inside :func:`answering`: discord.py only logs what escapes a
    dynamic item's callback, and the person would get no answer."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        callback = cls.__dict__.get("callback")
        if callback is None:
            return

        @functools.wraps(callback)
        async def answered(self: Any, interaction: discord.Interaction) -> None:
            async with answering(interaction):
                await callback(self, interaction)

        cls.callback = answered  # type: ignore[attr-defined]
