"""Answers to interactions, shared by the slash commands and the DM buttons: refusals in
the caller's language, the confirmation of an action, the hint with its hand picture, and the
handler of every DM button and menu."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord_bot.context import Gouji, gouji_of
from bot.discord_bot.people import People
from bot.pictures import png as pictures
from bot.pictures.drawing import Drawer
from bot.service.errors import REFUSALS, UserError
from bot.service.live import LiveTable
from bot.service.views import TableInfo
from bot.text.cards import action_text, readable_params
from bot.text.catalog import error_text, has, text

log = logging.getLogger("gouji.bot")


def refusal(people: People, exc: Exception, lang: str, table: TableInfo | None) -> str:
    """A refused request as a reply: the service's and the engine's errors, translated
    (seats named as at ``table``)."""
    if isinstance(exc, UserError):
        return people.render(table, lang, exc.key, readable_params(exc.params, lang))
    said = (
        error_text(exc, lang)
        if table is None
        else error_text(exc, lang, lambda seat: people.name_of(table.seats[seat], lang))
    )
    how = f"how_{getattr(exc, 'code', '')}"
    return f"{said} {text(lang, how)}" if has(how) else said


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer (or follow up a deferred answer), with a file and buttons if given."""
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


def done_text(lang: str, action: Any) -> str:
    return action_text(lang, action.verb, _raw(action), how="done")


def _hint_text(lang: str, action: Any) -> str:
    return text(lang, "hint", action=action_text(lang, action.verb, _raw(action)))


def _raw(action: Any) -> str | None:
    return str(action.cards) if action.cards is not None else None


async def hand_file(
    draw: Drawer, cards: str, lang: str, highlight: str | None = None
) -> discord.File:
    """The hand picture as a file to attach (``highlight``: the cards of a hint)."""
    png = await draw(pictures.hand_png, cards, lang, highlight)
    return discord.File(io.BytesIO(png), filename="hand.png")


async def run_dm_action(
    interaction: discord.Interaction, table_id: int, token: str, verb: str, cards: str | None
) -> None:
    """A control of question ``token`` on a hand controller was used (a button, a menu, the
    cards modal): act for the presser's seat at ``table_id`` (refused if that question is
    over), or show the hint. The press is acknowledged first as an update (so a busy moment
    never loses Discord's 3-second window) and answered by editing the controller it was
    made on; a refusal is an ephemeral follow-up."""
    gouji = gouji_of(interaction)
    lang = gouji.people.remember(interaction)
    live = None
    seat = None
    highlight = None
    try:
        live = gouji.service.get(table_id)
        seat = gouji.service.seat_for(live, interaction.user.id)
        await interaction.response.defer()  # "deferred update": the message is edited below
        gouji.controls.claim(live, seat)
        if verb == "hint":
            action = gouji.service.hint(live, interaction.user.id)
            if action.cards is not None and action.verb != "return":
                highlight = str(action.cards)
            note = "💡 " + _hint_text(lang, action)
        else:
            if verb == "playhint":
                action = await gouji.service.act_hint(live, interaction.user.id, token=token)
            else:
                action = await gouji.service.act(
                    live, interaction.user.id, verb, cards, token=token
                )
            note = "✅ " + done_text(lang, action)
    except REFUSALS as exc:
        if live is not None and seat is not None:
            gouji.controls.release(live, seat)
        table = gouji.service.info(live) if live is not None else None
        await reply(interaction, refusal(gouji.people, exc, lang, table))
        return
    except Exception:
        log.exception("DM action %s at table %s failed", verb, table_id)
        if live is not None and seat is not None:
            gouji.controls.release(live, seat)
        await reply(interaction, text(lang, "internal"))
        return
    await gouji.controls.answer_press(interaction, live, seat, lang, note, highlight)


async def send_hint(
    interaction: discord.Interaction, gouji: Gouji, live: LiveTable, lang: str
) -> None:
    """The hint for the caller's seat, with the hand picture showing its cards."""
    action = gouji.service.hint(live, interaction.user.id)
    seat = gouji.service.seat_for(live, interaction.user.id)
    highlight = str(action.cards) if action.cards is not None and action.verb != "return" else None
    if interaction.response.is_done() is False:
        await interaction.response.defer(ephemeral=True, thinking=True)
    file = await hand_file(gouji.draw, gouji.service.hand_cards(live, seat), lang, highlight)
    await reply(interaction, _hint_text(lang, action), file=file)
