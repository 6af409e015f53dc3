"""The read side of the table service, with its privacy rules: server settings, standings
and the leaderboards, finished deals (录像, 复盘) and record files.

Two rules guard the hands, for every front end:

- **Only finished deals** are loaded for a replay or a review (:meth:`Archive.finished_deal`):
  a deal still played, or void, is refused, and the record handed out stops at that deal,
  so it never holds the hands of a later one.
- **Never a game in progress** in a record file (:meth:`Archive.last_record`): the last
  finished series, else the table's last finished game.

Part of :class:`~bot.service.tables.TableService` (its ``archive``)::

    await service.archive.profile(guild_id, user_id)
    await service.archive.finished_deal(game_id, guild_id)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.errors import UserError
from bot.service.live import LiveTable, TableOptions
from bot.service.standing import Standing, standing_of
from bot.text.langs import LANGS
from data import FinishedGame, NotFoundError, PlayerRating, Profile, Store
from data.export import series_game_entry
from engine.record import SERIES_FORMAT
from engine.tournament import standings


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's settings: the channel ``language``, the options new tables start with
    (``defaults``, every option; ``overrides``: only those the server set) and the channels
    tables may open in (none: any)."""

    guild_id: int
    language: str
    defaults: TableOptions
    overrides: dict[str, Any]
    channels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    """A finished deal ready to replay: where it was played, its series' record up to and
    including it (``gouji-series/1``; replay game ``info.number``) and the seat each person
    it counted for played (user id → seat; AI seats are not people)."""

    info: FinishedGame
    record: dict[str, Any]
    seats: dict[int, int]


@dataclass(frozen=True, slots=True)
class RecordFile:
    """A record to hand out: its file ``name`` and the record (JSON values)."""

    name: str
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """Where a player finished in an event that is over: its name, their rank of how many,
    their points."""

    event_id: int
    name: str
    rank: int
    count: int
    points: int


class Archive:
    """What front ends read beyond the live tables (see the module doc)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----------------------------------------------------------------- server settings
    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The server's settings (the defaults when it never set any)."""
        stored = await self.store.get_settings(guild_id)
        return ServerSettings(
            guild_id=guild_id,
            language=stored.language,
            defaults=TableOptions.from_json(stored.table_defaults),
            overrides=dict(stored.table_defaults),
            channels=stored.channels,
        )

    async def configure(
        self,
        guild_id: int,
        *,
        language: str | None = None,
        channel_id: int | None = None,
        allow: bool = True,
        defaults: dict[str, Any] | None = None,
    ) -> ServerSettings:
        """Change what is given — the channel language, whether tables may open in
        ``channel_id``, the table defaults (merged into those set before) — and return the
        settings as they are now. Bad values raise ``UserError('bad_option')`` before
        anything is saved. (Who may do this is the front end's to check: Manage Server.)"""
        merged = None
        if language is not None and language not in LANGS:
            raise UserError("bad_option", what=f"language {'/'.join(LANGS)}")
        if defaults:
            current = (await self.store.get_settings(guild_id)).table_defaults
            merged = {**current, **defaults}
            TableOptions.from_json(merged)  # refuses bad values
        if language is not None:
            await self.store.set_language(guild_id, language)
        if channel_id is not None:
            await self.store.set_channel_allowed(guild_id, channel_id, allow)
        if merged is not None:
            await self.store.set_table_defaults(guild_id, merged)
        return await self.server_settings(guild_id)

    # ----------------------------------------------------------------- profiles
    async def profile(self, guild_id: int, user_id: int) -> Standing:
        """The player's standing on the server: points, title, places, their place on its
        leaderboard and their skill rating."""
        return await standing_of(self.store, guild_id, user_id)

    async def rating_board(self, guild_id: int, limit: int = 10) -> list[PlayerRating]:
        """The server's best skill ratings (people and AI levels), best first."""
        return await self.store.rating_board(guild_id, limit=limit)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[Profile]:
        """The server's top players, best first."""
        return await self.store.leaderboard(guild_id, limit=limit)

    # ----------------------------------------------------------------- finished deals
    async def finished_games(
        self, guild_id: int, channel_id: int | None = None, limit: int = 25
    ) -> list[FinishedGame]:
        """The server's (or one channel's) finished deals, the latest first."""
        return await self.store.finished_games(guild_id, channel_id, limit=limit)

    async def last_finished(self, guild_id: int, channel_id: int | None) -> FinishedGame:
        """The channel's last finished deal, or ``UserError('replay_none')``."""
        last = await self.store.finished_games(guild_id, channel_id, limit=1)
        if not last:
            raise UserError("replay_none")
        return last[0]

    async def find_finished(self, game_id: int, guild_id: int | None = None) -> FinishedGame:
        """The finished deal ``game_id`` (of server ``guild_id`` if given), quickly (the
        store only): ``UserError('replay_unknown')`` when there is none (or it is another
        server's), ``'replay_unfinished'`` while it is being played (or was void)."""
        info = await self.store.finished_game(game_id)
        if info is None:
            try:
                await self.store.get_game(game_id)
            except NotFoundError:
                raise UserError("replay_unknown") from None
            raise UserError("replay_unfinished")
        if guild_id is not None and info.guild_id != guild_id:
            raise UserError("replay_unknown")
        return info

    async def finished_deal(self, game_id: int, guild_id: int | None = None) -> FinishedDeal:
        """The finished deal ``game_id`` ready to replay (refused as :meth:`find_finished`
        refuses). Its record holds the deals of its series up to it, none after."""
        info = await self.find_finished(game_id, guild_id)
        series, logs = await self.store.series_logs(info.series_id)
        kept = [log for log in logs if log.game.number <= info.number]
        record = {
            "format": SERIES_FORMAT,
            "options": series.options,
            "games": [series_game_entry(log) for log in kept],
        }
        result = next(log.game.result for log in kept if log.game.id == game_id) or {}
        places = list(result.get("places") or [])
        players = await self.store.game_players(game_id)
        seats = {
            user: places.index(place)
            for user, place in players.items()
            if place is not None and place in places
        }
        return FinishedDeal(info, record, seats)

    # ----------------------------------------------------------------- tournaments
    async def tournament_results(
        self, guild_id: int, user_id: int, limit: int = 3
    ) -> list[PlayerResult]:
        """The player's results in the server's latest events that are over (their profile)."""
        out = []
        for ev in await self.store.guild_tournaments(guild_id):
            if ev.active:
                continue
            state = await self.store.load_tournament(ev.id)
            if user_id not in state.players:
                continue
            lines = standings(ev.config, state.players, state.rounds, state.left)
            mine = next(s for s in lines if s.player == user_id)
            out.append(PlayerResult(ev.id, ev.config.name, mine.rank, len(lines), mine.points))
            if len(out) == limit:
                break
        return out

    # ----------------------------------------------------------------- record files
    async def series_record(self, live: LiveTable) -> dict[str, Any]:
        """The current series as a ``gouji-series/1`` record, with its length and tribute."""
        record = await self.store.export_series_record(live.series_row)
        record["games_total"] = live.options.games
        record["tribute"] = live.options.series
        return record

    def has_record(self, live: LiveTable) -> bool:
        """Whether the table has finished a game (of its current or last series)."""
        return live.series is not None and any(d.finished for d in live.series.deals)

    async def last_record(self, live: LiveTable) -> RecordFile:
        """The record of the table's last finished series, else of its last finished game,
        or ``UserError('no_record')``. Never a game in progress: records hold every hand."""
        if live.series is None or live.series_id is None:
            raise UserError("no_record")
        if live.series.finished:
            record = await self.series_record(live)
            return RecordFile(f"gouji-table{live.id}-series.json", record)
        _, logs = await self.store.series_logs(live.series_id)
        finished = [log for log in logs if log.game.status == "finished"]
        if not finished:
            raise UserError("no_record")
        last = finished[-1]
        deal = next(d for d in live.series.deals if d.finished and d.number == last.game.number)
        if deal.game is None:
            raise UserError("no_record")
        hands = [" ".join(str(c) for c in cards) for cards in deal.game.dealt]
        record = await self.store.export_game_record(last.game.id, hands=hands)
        return RecordFile(f"gouji-table{live.id}-game{last.game.number}.json", record)
