"""The Discord client: a ``commands.Bot`` whose ``setup_hook`` opens the store, restores
every open table from its log, adds the /gouji cog, registers the persistent DM buttons and
syncs the commands (to ``guild_id`` only when given: instant, for testing)."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, TypeVar

import discord
from discord.ext import commands

import render
from bot.discord_bot.answers import on_command_error
from bot.discord_bot.cog import GoujiCog
from bot.discord_bot.components import PICKER_ITEMS, ActionButton, ActionSelect
from bot.discord_bot.context import Beside, Gouji
from bot.discord_bot.launch import LaunchButton
from bot.discord_bot.pacing import Pace, pace_limit, pace_requests, sweep_buckets_seldom
from bot.discord_bot.people import People
from bot.discord_bot.presenter import DiscordPresenter
from bot.discord_bot.replay import (
    ReplayButton,
    ReplayDesk,
    ReplaySelect,
    ReviewButton,
)
from bot.discord_bot.table_button import TableButton
from bot.discord_bot.tournament import TournamentCommands, TournamentPosts
from bot.discord_bot.translator import GoujiTranslator
from bot.pictures.drawing import Drawer
from bot.service.config import BotConfig
from bot.service.seasons import Seasons
from bot.service.tables import TableService
from bot.service.tournaments import ListedChannels, TableStandings, TournamentService
from bot.text.catalog import lang_of
from data import Store
from data.claims import default_instance, serving

log = logging.getLogger("gouji.bot")

T = TypeVar("T")


class GoujiBot(commands.Bot):
    """The Gouji bot. Unprivileged intents only (no members, presences or message content)."""

    gouji: Gouji  # what the handlers use; set up by setup_hook

    def __init__(
        self,
        config: BotConfig,
        *,
        rng: random.Random | None = None,
        sweep_interval: float = 60.0,
        web: Beside | None = None,
        **kwargs: Any,
    ) -> None:
        intents = discord.Intents.default()
        intents.members = False
        intents.presences = False
        intents.message_content = False
        intents.dm_messages = False  # the bot reads no DM; its own DMs need no echo either
        kwargs.setdefault("command_prefix", commands.when_mentioned)
        super().__init__(intents=intents, help_command=None, **kwargs)
        self.config = config
        # the bot-token requests stay under Discord's global limit, which a shard process
        # shares with the others (its part: its shards' part)
        shards = config.shards
        share = len(shards.ids) / shards.count if shards is not None else 1.0
        self.pace = Pace(pace_limit(config.global_limit, share))
        pace_requests(self, self.pace)
        sweep_buckets_seldom(self)
        self.rng = rng
        self.sweep_interval = sweep_interval
        self._store: Store | None = None  # these three: set up by setup_hook
        self._service: TableService | None = None
        self.people = People(self)
        self.draw = Drawer(config.draw_processes)  # ``await bot.draw(pictures.fn, *args)``
        self.presenter = DiscordPresenter(
            self,
            self.people,
            self.draw,
            refresh_interval=config.refresh_interval,
            picture_wait=config.picture_wait,
            # Discord delivers presses in DMs to shard 0 only: a process without it sends
            # DM controllers without controls and points to /gouji hand in the channel.
            dm_presses=config.shards is None or 0 in config.shards.ids,
            launch=config.activity and web is not None,  # the Discord Activity's button
            busy=self.pace.busy,  # near Discord's limit, the table redraws wait
            request_limit=self.pace.limit,
        )
        self._sweeper: asyncio.Task[None] | None = None
        self._claims: asyncio.Task[None] | None = None
        self._replays: ReplayDesk | None = None  # 录像, 复盘
        self.events: TournamentService | None = None  # 比赛 (bot/service/tournaments.py)
        self.seasons: Seasons | None = None  # 赛季: the monthly ones (bot/service/seasons.py)
        self.web = web  # the browser table, when GOUJI_WEB_URL is set (gouji bot makes it)

    @property
    def store(self) -> Store:
        """The store, opened by ``setup_hook`` (a RuntimeError before, and after ``close``)."""
        return _started(self._store, "store")

    @property
    def service(self) -> TableService:
        """The table service, made by ``setup_hook`` (a RuntimeError before)."""
        return _started(self._service, "service")

    @property
    def replays(self) -> ReplayDesk:
        """The replay desk (录像, 复盘), made by ``setup_hook`` (a RuntimeError before)."""
        return _started(self._replays, "replays")

    async def setup_hook(self) -> None:
        self._store = await Store.open(self.config.database)
        self._service = TableService(
            self._store,
            self.presenter,
            ai_delay=self.config.ai_delay,
            warn_before=self.config.warn_before,
            idle_seconds=self.config.idle_seconds,
            rng=self.rng,
            shards=self.config.shards,
            lease=self.config.lease,
            instance=self.config.instance or default_instance(serving(self.config.shards)),
        )
        self.presenter.attach(self.service)
        guilds = {table.guild_id for table in self.service.tables.open_tables()}
        broken = await self.service.restore()
        for guild_id in guilds | {table.guild_id for table in self.service.tables.open_tables()}:
            await self.people.load_guild_lang(self.service.archive, guild_id)
        if broken:
            log.warning("tables marked broken at start-up: %s", broken)
        # the browser table beside the bot (GOUJI_WEB_URL), its links with /gouji hand: it
        # listens once the tables are restored, so that no page finds its table missing
        links = (
            await self.web.open(self.service, self.people, self._table_standings)
            if self.web
            else None
        )
        self.gouji = Gouji(
            self.service, self.people, self.draw, self.presenter, links, self.presenter.launch
        )
        await self.tree.set_translator(GoujiTranslator())
        self.tree.error(on_command_error)  # what escapes a command: answered on the one path
        self._replays = ReplayDesk(self.gouji, self.config.review_budget)  # 录像, 复盘
        await self.add_cog(GoujiCog(self.gouji, self._replays))
        self.events = TournamentService(
            self.service, ListedChannels(), TournamentPosts(self, self.people, self.draw)
        )
        group = self.tree.get_command("gouji")
        if isinstance(group, discord.app_commands.Group):  # /gouji tournament …
            group.add_command(TournamentCommands(self.events, self.people, self.draw))
        self.add_dynamic_items(ActionButton, ActionSelect, LaunchButton, TableButton, *PICKER_ITEMS)
        self.add_dynamic_items(ReplayButton, ReplaySelect, ReviewButton)
        if self.config.guild_id is not None:
            guild = discord.Object(self.config.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self._sweeper = asyncio.create_task(self._sweep_idle())
        self._claims = asyncio.create_task(self._renew_claims(self.service))
        self._warm = asyncio.create_task(asyncio.to_thread(render.warm_up))
        self.draw.start()
        self.events.run()  # this process's servers' events, resumed where they stood
        self.seasons = self.service.seasons
        self.seasons.run()

    async def _table_standings(self, table_id: int) -> TableStandings | None:
        """A round's table's tournament and standings, for the browser table's bar."""
        return await self.events.standings_for_table(table_id) if self.events else None

    async def _sweep_idle(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval)
            try:
                await self.gouji.service.end_idle()
            except Exception:
                log.exception("ending idle tables failed")

    async def _renew_claims(self, service: TableService) -> None:
        """Every third of the lease: renew the tables' claims, take over those of a process
        that stopped renewing (it died)."""
        while True:
            await asyncio.sleep(service.lease / 3)
            try:
                await service.tend_claims()
            except Exception:
                log.exception("renewing the table claims failed")

    async def close(self) -> None:
        background = [task for task in (self._sweeper, self._claims) if task is not None]
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)  # ended before the release
        if self.events is not None:
            await self.events.close()
        if self.seasons is not None:
            await self.seasons.close()
        if self.web is not None:  # no more actions from the browsers, their sockets closed
            await self.web.close()
        if self._service is not None:
            await self._service.close()  # its claims released: the next process takes them
        await self.presenter.close()
        self.draw.close()
        if self._replays is not None:
            self._replays.close()
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None

    async def on_message(self, message: discord.Message) -> None:
        """Count the messages that pile up below a table message (it is re-posted)."""
        if message.guild is not None and self._service is not None:
            self.presenter.channel_message(message.channel.id, message.id)
        await self.process_commands(message)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A new server: its channel language starts as its preferred locale."""
        lang = lang_of(guild.preferred_locale)
        await self.gouji.service.archive.configure(guild.id, language=lang)
        self.people.set_guild_lang(guild.id, lang)


class ShardedGoujiBot(GoujiBot, commands.AutoShardedBot):
    """The Gouji bot running a range of shards (``config.shards``) in one process."""

    def __init__(self, config: BotConfig, **kwargs: Any) -> None:
        if config.shards is not None:
            kwargs.setdefault("shard_count", config.shards.count)
            kwargs.setdefault("shard_ids", list(config.shards.ids))
        super().__init__(config, **kwargs)


def _started(part: T | None, name: str) -> T:
    """``part`` of the bot, made by ``setup_hook``: a clear error when it is not there yet."""
    if part is None:
        raise RuntimeError(f"the bot has no {name}: it is not set up (setup_hook) or is closed")
    return part


def make_bot(config: BotConfig, **kwargs: Any) -> GoujiBot:
    """The bot for this configuration: auto-sharded when it names shards."""
    if config.shards is not None:
        return ShardedGoujiBot(config, **kwargs)
    return GoujiBot(config, **kwargs)
