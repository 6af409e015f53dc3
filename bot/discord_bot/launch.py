"""The "Open the table" button: the table as a Discord Activity (issue #24).

Pressed on the table message, a DM controller or the answer of ``/gouji hand``, it answers
with LAUNCH_ACTIVITY (interaction response type 12): Discord opens the bot's Activity in
that channel, whose page signs the person in through the web server (:mod:`bot.web.activity`).
Shown only when the Activity is configured (``GOUJI_ACTIVITY``).
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any

import discord

from bot.discord_bot.answers import AnsweredItem
from bot.text.catalog import lang_of, text

log = logging.getLogger("gouji.bot")


class LaunchButton(
    AnsweredItem, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"ga:open"
):
    """ "Open the table": launches the bot's Activity (the table inside Discord, issue #24) in
    the channel it is pressed in — the LAUNCH_ACTIVITY answer; who signs in there is learned
    from Discord by the web server (:mod:`bot.web.activity`), not from this button."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=text(lang, "activity_button"),
                custom_id="ga:open",
                style=discord.ButtonStyle.success,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LaunchButton:
        return cls(lang_of(interaction.locale))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException:  # the application has no Activity on Discord's side
            log.warning("launching the Activity failed (enabled in the Developer Portal?)")
            if not interaction.response.is_done():
                lang = lang_of(interaction.locale)
                await interaction.response.send_message(
                    text(lang, "activity_failed"), ephemeral=True
                )


def launch_button(view: discord.ui.View | None, lang: str) -> discord.ui.View:
    """``view`` with the "Open the table" button (:class:`LaunchButton`) last; a view whose
    five rows are full stays as it is."""
    view = view if view is not None else discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # no room left: the controls come first
        view.add_item(LaunchButton(lang))
    return view
