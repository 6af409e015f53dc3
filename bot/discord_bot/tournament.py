"""/gouji tournament …: a server's 比赛 on Discord (docs/tournaments.md).

The commands ask the tournament service (bot/service/tournaments.py) and answer in the
server's language; the service runs the rounds by itself. :class:`TournamentPosts` is its
listener here: one post in the event's channel when a round is seated (each person's table,
with mentions) and one with the final ranking (the top three marked) — each table's own
message comes from the table itself, as for any table.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_bot.answers import Answer, answering
from bot.discord_bot.people import People
from bot.pictures.drawing import Drawer
from bot.service.errors import UserError
from bot.service.tournaments import Board, TournamentService, config_of
from bot.text.catalog import lang_of, text
from data.tournaments import Tournament
from engine.tournament import LEFT, OUT, RoundPlan, Standing
from render.tournament import StandingRow, StandingsPicture, TableRow, standings_png

log = logging.getLogger("gouji.bot")

MESSAGE_LIMIT = 2000
MEDALS = ("🥇", "🥈", "🥉")
FORMATS = [
    app_commands.Choice(name=_("swiss"), value="swiss"),
    app_commands.Choice(name=_("knockout"), value="knockout"),
]
_CHANNEL = re.compile(r"<#(\d+)>")


def channel_ids(mentions: str) -> tuple[int, ...]:
    """The channels of ``#a #b …`` mentions, in order, or ``tournament_bad_channels``.

    >>> channel_ids("<#12> <#34>")
    (12, 34)
    """
    found = tuple(int(m) for m in _CHANNEL.findall(mentions))
    if not found or len(set(found)) != len(found):
        raise UserError("tournament_bad_channels")
    return found


def posts(lines: list[str]) -> list[str]:
    """The lines as few messages as Discord takes (each ≤ 2,000 characters)."""
    out: list[str] = []
    for line in lines:
        line = line[:MESSAGE_LIMIT]
        if out and len(out[-1]) + 1 + len(line) <= MESSAGE_LIMIT:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def standing_lines(lang: str, lines: tuple[Standing, ...], *, medals: bool = False) -> list[str]:
    """One line a player: rank (the top three marked), mention, points, rounds, out/left."""
    out = []
    for s in lines:
        mark = {OUT: "tournament_mark_out", LEFT: "tournament_mark_left"}.get(s.status)
        rank = MEDALS[s.rank - 1] if medals and s.rank <= 3 else str(s.rank)
        out.append(
            text(
                lang,
                "tournament_line",
                rank=rank,
                who=f"<@{s.player}>",
                points=s.points,
                rounds=s.rounds,
                mark=text(lang, mark) if mark else "",
            )
        )
    return out


def table_lines(lang: str, plan: RoundPlan, channels: dict[int, int]) -> list[str]:
    """Each table of a round: its channel and its people (``AI`` for an AI seat)."""
    out = []
    for table in plan.tables:
        channel = channels.get(table.number)
        out.append(
            text(
                lang,
                "tournament_table_line",
                table=table.number,
                channel=f"<#{channel}>" if channel else "—",
                players=" ".join(f"<@{p}>" if p is not None else "AI" for p in table.seats),
            )
        )
    if plan.byes:
        out.append(text(lang, "tournament_byes", players=" ".join(f"<@{p}>" for p in plan.byes)))
    return out


def board_lines(lang: str, board: Board) -> list[str]:
    """The standings answer: the head, each player's line, this round's tables."""
    ev = board.event
    head = text(
        lang,
        "tournament_head",
        name=ev.config.name,
        round=ev.round,
        rounds=ev.config.rounds,
        status=text(lang, f"tournament_status_{ev.status}"),
    )
    lines = [head, *standing_lines(lang, board.lines, medals=not ev.active)]
    if board.plan is not None and ev.active:
        lines += table_lines(lang, board.plan, board.channels)
    return lines


async def picture(people: People, draw: Drawer, board: Board, lang: str) -> discord.File:
    """The standings picture (render/tournament.py), worded in ``lang``."""
    ev = board.event
    names = {s.player: await people.fetch_name(s.player) for s in board.lines}
    marks = {OUT: "tournament_pic_out", LEFT: "tournament_pic_left"}
    rows = tuple(
        StandingRow(
            s.rank,
            names[s.player],
            s.points,
            text(lang, "tournament_pic_rounds", n=s.rounds),
            text(lang, marks[s.status]) if s.status in marks else "",
        )
        for s in board.lines
    )
    tables: tuple[TableRow, ...] = ()
    if board.plan is not None and ev.active:
        tables = tuple(
            TableRow(
                text(lang, "tournament_pic_table", n=t.number),
                tuple(names.get(p, f"#{p}") if p is not None else "AI" for p in t.seats),
                t.number in board.finished_tables,
            )
            for t in board.plan.tables
        )
    view = StandingsPicture(
        ev.config.name,
        text(
            lang,
            "tournament_pic_round",
            round=ev.round,
            rounds=ev.config.rounds,
            status=text(lang, f"tournament_status_{ev.status}"),
        ),
        text(lang, "tournament_pic_points"),
        rows,
        tables,
        text(lang, "tournament_pic_more", n=max(0, len(rows) - 40)),
    )
    png = await draw(standings_png, view)
    return discord.File(io.BytesIO(png), filename="standings.png")


class TournamentPosts:
    """The service's :class:`~bot.service.tournaments.EventListener` on Discord."""

    def __init__(self, client: discord.Client, people: People, draw: Drawer) -> None:
        self.client = client
        self.people = people
        self.draw = draw
        self.sent = 0  # messages posted (the figures: a round's cost)

    async def _post(self, channel_id: int, lines: list[str], board: Board, lang: str) -> None:
        """The lines, the standings picture with the first message."""
        channel = self.client.get_partial_messageable(channel_id)
        file: discord.File | None = await picture(self.people, self.draw, board, lang)
        for content in posts(lines):
            mentions = discord.AllowedMentions(users=True)
            if file is not None:
                await channel.send(content, file=file, allowed_mentions=mentions)
            else:
                await channel.send(content, allowed_mentions=mentions)
            file = None
            self.sent += 1

    async def round_seated(
        self, event: Tournament, plan: RoundPlan, channels: dict[int, int], board: Board
    ) -> None:
        lang = self.people.guild_lang(event.guild_id)
        head = text(
            lang,
            "tournament_round",
            name=event.config.name,
            round=plan.number,
            rounds=event.config.rounds,
            seconds=event.config.show_up,
        )
        await self._post(event.channel_id, [head, *table_lines(lang, plan, channels)], board, lang)

    async def event_over(self, event: Tournament, board: Board) -> None:
        lang = self.people.guild_lang(event.guild_id)
        head = text(lang, "tournament_final", name=event.config.name)
        lines = [head, *standing_lines(lang, board.lines, medals=True)]
        await self._post(event.channel_id, lines, board, lang)


class TournamentCommands(app_commands.Group):
    """/gouji tournament new | join | leave | start | standings | here | pause | resume |
    skip | end."""

    def __init__(self, events: TournamentService, people: People, draw: Drawer) -> None:
        super().__init__(
            name="tournament",
            description=_("Tournaments (比赛): rounds of tables, standings, a final ranking"),
        )
        self.events = events
        self.people = people
        self.draw = draw

    async def _answer(
        self,
        interaction: discord.Interaction,
        work: Callable[[discord.Guild, str], Awaitable[str | Answer]],
        *,
        public: bool = True,
    ) -> None:
        """Defer, run ``work(guild, the server's language)``, answer its text (or answer)."""
        async with answering(interaction):
            guild = interaction.guild
            if guild is None:
                raise UserError("guild_only")
            await interaction.response.defer(ephemeral=not public, thinking=True)
            if not self.people.knows_guild(guild.id):
                settings = await self.events.store.get_settings(guild.id)
                self.people.set_guild_lang(guild.id, lang_of(settings.language))
            said = await work(guild, self.people.guild_lang(guild.id))
            if isinstance(said, str):
                said = Answer(said, ephemeral=not public)
            await said.send(interaction)

    @app_commands.command(name="new", description=_("Organise a tournament on this server"))
    @app_commands.describe(
        name=_("The tournament's name"),
        format=_("Swiss (瑞士移位) or 打立出局 then 定局"),
        rounds=_("Rounds in all"),
        channels=_("The tables' channels, as mentions (#table-1 #table-2 …)"),
        games=_("Games a round: one, or a five-game series"),
        ai_fill=_("AI players may fill a table (else some sit out a round)"),
        gap=_("Seconds between rounds"),
        show_up=_("Seconds to sit down before an AI plays your seat"),
    )
    @app_commands.choices(format=FORMATS)
    async def new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 2, 20],
        channels: str,
        games: Literal[1, 5] = 1,
        ai_fill: bool = True,
        gap: app_commands.Range[int, 0, 3600] = 60,
        show_up: app_commands.Range[int, 10, 3600] = 120,
    ) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            config = config_of(
                name=name,
                format=format.value,
                rounds=rounds,
                games=games,
                ai_fill=ai_fill,
                gap=gap,
                show_up=show_up,
                channels=channel_ids(channels),
            )
            ev = await self.events.create(
                guild.id, interaction.channel_id or 0, interaction.user.id, config
            )
            return text(
                lang,
                "tournament_created",
                name=ev.config.name,
                format=text(lang, f"tournament_format_{ev.config.format.value}"),
                rounds=ev.config.rounds,
                games=ev.config.games,
                channels=" ".join(f"<#{c}>" for c in ev.config.channels),
            )

        await self._answer(interaction, work)

    @app_commands.command(name="join", description=_("Enter the tournament"))
    async def join(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            ev = await self.events.join(guild.id, interaction.user.id)
            count = len((await self.events.store.load_tournament(ev.id)).entrants)
            user = interaction.user.display_name
            return text(lang, "tournament_entered", user=user, name=ev.config.name, count=count)

        await self._answer(interaction, work)

    @app_commands.command(
        name="leave", description=_("Leave the tournament (once it runs, you are out)")
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            ev = await self.events.leave(guild.id, interaction.user.id)
            user = interaction.user.display_name
            return text(lang, "tournament_left", user=user, name=ev.config.name)

        await self._answer(interaction, work)

    @app_commands.command(name="start", description=_("Start the tournament (the organiser)"))
    async def start(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            ev = await self.events.start(guild.id, interaction.user.id)
            return text(lang, "tournament_begun", name=ev.config.name)

        await self._answer(interaction, work)

    @app_commands.command(name="standings", description=_("The standings and this round's tables"))
    async def standings(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> Answer:
            board = await self.events.board(guild.id)
            file = await picture(self.people, self.draw, board, lang)
            return Answer("\n".join(board_lines(lang, board)), file)

        await self._answer(interaction, work, public=False)

    @app_commands.command(name="here", description=_("Sit down at your table of this round"))
    async def here(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            channel = await self.events.show_up(guild.id, interaction.user.id)
            board = await self.events.board(guild.id)
            table = board.plan.table_of(interaction.user.id) if board.plan else None
            number = table.number if table is not None else 0
            return text(lang, "tournament_here", table=number, channel=f"<#{channel}>")

        await self._answer(interaction, work, public=False)

    @app_commands.command(name="pause", description=_("Pause between rounds (the organiser)"))
    async def pause(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            ev = await self.events.pause(guild.id, interaction.user.id)
            return text(lang, "tournament_paused", name=ev.config.name)

        await self._answer(interaction, work)

    @app_commands.command(name="resume", description=_("Go on after a pause (the organiser)"))
    async def resume(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            ev = await self.events.resume(guild.id, interaction.user.id)
            return text(lang, "tournament_resumed", name=ev.config.name)

        await self._answer(interaction, work)

    @app_commands.command(
        name="skip",
        description=_("Start this round's tables now, AI for those not there (the organiser)"),
    )
    async def skip(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            await self.events.skip(guild.id, interaction.user.id)
            return text(lang, "tournament_skipped")

        await self._answer(interaction, work)

    @app_commands.command(name="end", description=_("End the tournament early (the organiser)"))
    async def end(self, interaction: discord.Interaction) -> None:
        async def work(guild: discord.Guild, lang: str) -> str:
            ev = await self.events.end(guild.id, interaction.user.id)
            return text(lang, "tournament_ended", name=ev.config.name)

        await self._answer(interaction, work)
