"""Answers to interactions, shared by the slash commands and the DM buttons: the
confirmation of an action, the hint with its hand picture, and the handler of every DM button
and menu (refusals and failures: :mod:`bot.discord_bot.answers`)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.discord_bot.answers import answering, reply
from bot.discord_bot.context import Gouji, gouji_of
from bot.pictures import png as pictures
from bot.pictures.drawing import Drawer
from bot.service.live import LiveTable
from bot.text.cards import action_text
from bot.text.catalog import text


def done_text(lang: str, action: Any) -> str:
    """What the player just did, the play in words: 你出了 四张 K。"""
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
    async with answering(interaction) as answer:
        lang = answer.lang
        live = answer.table = gouji.service.tables.get(table_id)
        seat = gouji.service.tables.seat_for(live, interaction.user.id)
        await interaction.response.defer()  # "deferred update": the message is edited below
        gouji.controls.claim(live, seat)
        answer.on_failure(lambda: gouji.controls.release(live, seat))
        highlight = None
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
        await gouji.controls.answer_press(interaction, live, seat, lang, note, highlight)


async def send_hint(
    interaction: discord.Interaction, gouji: Gouji, live: LiveTable, lang: str
) -> None:
    """The hint for the caller's seat, with the hand picture showing its cards."""
    action = gouji.service.hint(live, interaction.user.id)
    seat = gouji.service.tables.seat_for(live, interaction.user.id)
    highlight = str(action.cards) if action.cards is not None and action.verb != "return" else None
    if interaction.response.is_done() is False:
        await interaction.response.defer(ephemeral=True, thinking=True)
    file = await hand_file(gouji.draw, gouji.service.views.hand_cards(live, seat), lang, highlight)
    await reply(interaction, _hint_text(lang, action), file=file)
