"""The table service's events, shown on Discord.

Every event becomes a job in its table's outbox (:mod:`bot.discord_bot.outbox`), run one after
another by a worker task, so the service never waits on Discord and messages keep their order.
The channel holds one table message and the kept announcements
(:mod:`bot.discord_bot.table_message`); each player has one hand controller per game
(:mod:`bot.discord_bot.controllers`). Pictures are drawn off the event loop
(:mod:`bot.pictures.drawing`).
"""

from __future__ import annotations

from bot.discord_bot.controllers import Controllers
from bot.discord_bot.table_message import TableMessage
from bot.service.live import LiveTable
from bot.text.catalog import text


class DiscordPresenter(TableMessage, Controllers):
    """:class:`~bot.service.presenter.Presenter` on Discord: ``client`` sends, ``people``
    names, ``draw`` draws; :meth:`attach` gives it the service whose events it shows."""

    def table_changed(self, live: LiveTable) -> None:
        """The table message is redrawn; a player who just sat down has their DM channel
        opened."""
        super().table_changed(live)
        self.open_dms(live)

    def closed(self, live: LiveTable, key: str) -> None:
        """The table ended: its message is redrawn at once (no turn, no clock), then the
        channel is told and the controllers are retired."""
        self.redraw_at_once(live)
        super().closed(live, key)

    def warn(self, live: LiveTable, seats: list[int], seconds: int) -> None:
        """The clock runs out soon. An edit makes no sound, so the warning notifies: a DM
        player's controller is sent again with it (the old one deleted, so one controller
        stays); a player without DMs is mentioned again."""
        box = self._box(live)
        info = self.service.tables.info(live)
        for seat in seats:
            user = info.seats[seat].user_id
            if user is None:
                continue
            lang = self.people.user_lang(user, info.guild_id)
            state = box.seat(seat)
            state.note, state.notified = text(lang, "ctl_warning", seconds=seconds), None
            self._controller(live, seat, resend=True)
        self.ping(live, seats, "warning_mention")

    def moved(self, live: LiveTable) -> None:
        """Another process serves the table now: it speaks for it on Discord."""
        return None


__all__ = ["DiscordPresenter"]
