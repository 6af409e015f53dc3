"""The table picture as one seat sees it, and the "牌桌 / Table" button that shows it.

The channel's table message is drawn for everyone (spectators too). A seated player gets their
own view only when they ask for it: the button on their controller (DM or ``/gouji hand``,
while they are asked something) answers, only to them, with the table drawn from their seat — at the bottom, marked "you",
the opposite seat's 对家 marked, their team first in the legend, the clock. Asked for, it
costs one upload per press instead of one per turn for every seat.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any

import discord

from bot.discord_bot.answers import AnsweredItem, answering, reply
from bot.discord_bot.context import gouji_of
from bot.discord_bot.people import People
from bot.pictures import png as pictures
from bot.pictures.views import for_viewer, named
from bot.service.views import PublicView
from bot.text.catalog import lang_of, text
from render.models import TableView


def table_caption(view: PublicView, lang: str) -> str:
    """The table picture's caption: the game of the series and the house rules."""
    if view.number is None:
        return ""
    rules = view.info.options.rules.changed()
    return pictures.table_caption(lang, view.number, view.games_total, rules)


def table_picture(
    people: People, view: PublicView, lang: str, seat: int | None = None
) -> TableView:
    """The table picture of ``view`` in ``lang``, named and with its clock: for everyone
    (``seat`` None), or as ``seat`` sees it (:func:`bot.pictures.views.for_viewer`)."""
    names = people.names(view.info, lang)
    picture = named(view.table, names, table_caption(view, lang), view.deadline)
    return picture if seat is None else for_viewer(picture, seat)


class TableButton(
    AnsweredItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"gt:(?P<table>\d+)",
):
    """ "牌桌 / Table": the table at ``table`` drawn from the presser's seat, only to them."""

    def __init__(self, table_id: int, lang: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=text(lang, "btn_table"),
                custom_id=f"gt:{table_id}",
                style=discord.ButtonStyle.secondary,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(int(match["table"]), lang_of(interaction.locale))

    async def callback(self, interaction: discord.Interaction) -> None:
        gouji = gouji_of(interaction)
        async with answering(interaction) as answer:
            live = answer.table = gouji.service.tables.get(self.table_id)
            seat = gouji.service.tables.seat_for(live, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await gouji.people.learn_names(gouji.service.tables.info(live).users())
            view = await gouji.service.views.public_view(live)
            picture = table_picture(gouji.people, view, answer.lang, seat)
            png = await gouji.draw(pictures.view_png, picture, answer.lang)
            file = discord.File(io.BytesIO(png), filename="table.png")
            await reply(interaction, "", file=file)


def table_button(view: discord.ui.View | None, table_id: int, lang: str) -> discord.ui.View:
    """``view`` with the :class:`TableButton` of ``table_id``; a full view stays as it is."""
    view = view if view is not None else discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # no room left: the controls come first
        view.add_item(TableButton(table_id, lang))
    return view
