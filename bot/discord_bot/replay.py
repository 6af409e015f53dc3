"""录像 (replay) and 复盘 (review) on Discord: the work of ``/gouji replay watch [game]`` and
``/gouji replay review [game]`` (the commands themselves are the cog's) and their persistent
components.

Only finished deals (``games.status = 'finished'``) are ever loaded, so a replay never shows
the hands of a game still played. Custom ids name the deal and the step
(``rp:GAME:STEP:first|prev|next|last``, ``rps:GAME:STEP``, ``rv:GAME:STEP:N``), so every
button works for anyone who sees the message, after a restart too. A press is answered at
once (a deferred update, type 6) and its message edited when the drawing workers have drawn
the new picture; when presses on one message come quickly, the newest wins (:class:`Presses`).
A review (``GOUJI_REVIEW_BUDGET`` rollouts, some seconds of CPU) runs in a worker process of
its own, so that the tables' pictures never wait behind one; it is answered at once too.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import discord
from discord import app_commands

from bot.discord_bot.answers import Answer, AnsweredItem, answering
from bot.discord_bot.context import Gouji, gouji_of
from bot.pictures.drawing import Drawer
from bot.pictures.replay import replay_facts, replay_step_png, review_seat
from bot.service.errors import UserError
from bot.text.cards import action_words, play_words
from bot.text.catalog import text
from data import FinishedGame
from engine.ai.review import Mistake
from engine.replay_steps import KeyMoment

log = logging.getLogger("gouji.bot")

#: Options of the jump menu (Discord's limit).
MAX_JUMPS = 25
#: Mistakes listed by a review.
MAX_MISTAKES = 5
_KEEP = 32  # loaded games kept in memory


#: A game id or a step as a command or a control carries it: ASCII digits (``\d`` would take
#: any script's, ``str.isdigit`` superscripts too), at most 18 of them — within a database's
#: 64-bit integers.
NUMBER = "[0-9]{1,18}"
_NUMBER = re.compile(NUMBER)


def game_id_of(text: str) -> int:
    """The game id a person typed (``"  42 "``), or ``UserError('replay_unknown')``: not ASCII
    digits (``²``, ``٤٢``), 0, or past any id (20 digits, 4,300 digits)."""
    typed = text.strip()
    if not _NUMBER.fullmatch(typed) or int(typed) == 0:
        raise UserError("replay_unknown")
    return int(typed)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A finished deal ready to replay: its record (JSON text), steps, key moments and which
    seat each person played."""

    info: FinishedGame
    record: str
    steps: int
    moments: tuple[KeyMoment, ...]
    seats: dict[int, int]  # user id → seat


@dataclass
class _Pressed:
    """The presses on one message being answered."""

    newest: int = 0
    waiting: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one edit at a time


@dataclass(frozen=True, slots=True)
class Press:
    """One press being answered: it may edit its message while it is the newest."""

    message: _Pressed
    id: int

    @property
    def newest(self) -> bool:
        """Whether no later press on the same message came."""
        return self.message.newest == self.id

    async def edit(self, edit: Callable[[], Awaitable[object]]) -> bool:
        """Run ``edit`` if this press is still the newest (edits of one message never
        overlap, so an older picture cannot land after a newer one); whether it ran."""
        async with self.message.lock:
            if not self.newest:
                return False
            await edit()
            return True


class Presses:
    """The presses on each replay message still being answered. Interaction ids grow with
    time, so the newest press is the one with the largest id, in whatever order they come."""

    def __init__(self) -> None:
        self._messages: dict[int, _Pressed] = {}

    @property
    def waiting(self) -> int:
        """Presses being answered, on every message."""
        return sum(m.waiting for m in self._messages.values())

    @contextlib.asynccontextmanager
    async def press(self, message_id: int, press_id: int) -> AsyncIterator[Press]:
        """Answer press ``press_id`` on ``message_id`` within the block."""
        pressed = self._messages.setdefault(message_id, _Pressed())
        pressed.newest = max(pressed.newest, press_id)
        pressed.waiting += 1
        try:
            yield Press(pressed, press_id)
        finally:
            pressed.waiting -= 1
            if not pressed.waiting:
                del self._messages[message_id]


class ReplayDesk:
    """Loads finished deals (kept, a few) and builds the replay and review answers."""

    def __init__(self, gouji: Gouji, review_budget: int) -> None:
        self.gouji = gouji
        self.review_budget = review_budget
        self.presses = Presses()
        # one process for reviews (threads when the bot draws in threads: tests)
        self.reviewer = Drawer(1 if gouji.draw.processes else 0)
        self._loaded: OrderedDict[int, Loaded] = OrderedDict()

    async def find(self, game_id: int, guild_id: int | None = None) -> FinishedGame:
        """The finished deal ``game_id`` (of server ``guild_id`` if given), quickly (a
        command refuses before its first answer); the service's UserError when there is
        none or it is not over (only finished deals are ever replayed)."""
        loaded = self._loaded.get(game_id)
        if loaded is None:
            return await self.gouji.service.archive.find_finished(game_id, guild_id)
        if guild_id is not None and loaded.info.guild_id != guild_id:
            raise UserError("replay_unknown")
        return loaded.info

    async def load(self, game_id: int, guild_id: int | None = None) -> Loaded:
        """The finished deal ``game_id`` ready to replay (the service's, then its replay
        built by a drawing worker, which may take a while when they are busy)."""
        loaded = self._loaded.get(game_id)
        if loaded is None:
            deal = await self.gouji.service.archive.finished_deal(game_id, guild_id)
            record = json.dumps(deal.record)
            facts = await self.gouji.draw(replay_facts, record, deal.info.number)
            steps, moments, _ = facts
            loaded = Loaded(deal.info, record, steps, moments, deal.seats)
            self._loaded[game_id] = loaded
            if len(self._loaded) > _KEEP:
                self._loaded.popitem(last=False)
        else:
            await self.find(game_id, guild_id)
        self._loaded.move_to_end(game_id)
        return loaded

    def close(self) -> None:
        """Stop the review process (a review being computed is dropped)."""
        self.reviewer.close()

    async def chosen(self, interaction: discord.Interaction, game: str | None) -> FinishedGame:
        """The deal a command names (its id from the autocomplete), else the channel's last
        finished one (:meth:`find`: from the store only)."""
        if interaction.guild is None:
            raise UserError("guild_only")
        if game:
            return await self.find(game_id_of(game), interaction.guild.id)
        return await self.gouji.service.archive.last_finished(
            interaction.guild.id, interaction.channel_id
        )

    async def names(self, loaded: Loaded, lang: str) -> list[str]:
        """The seats' names: the people's display names, the other seats AI."""
        by_seat = {seat: user for user, seat in loaded.seats.items()}
        return [
            await self.gouji.people.fetch_name(by_seat[s])
            if s in by_seat
            else text(lang, "replay_ai" if loaded.seats else "replay_seat", seat=s)
            for s in range(6)
        ]

    async def message(
        self, loaded: Loaded, step: int, lang: str, bottom_seat: int = 0, *, public: bool = False
    ) -> Answer:
        """The replay at ``step``: its title, picture and components (``public``: for the
        channel, else only for the caller)."""
        step = max(0, min(step, loaded.steps))
        names = await self.names(loaded, lang)
        png = await self.gouji.draw(
            replay_step_png, loaded.record, loaded.info.number, step, names, lang, bottom_seat
        )
        content = text(
            lang,
            "replay_title",
            number=loaded.info.number,
            table=loaded.info.table_id,
            step=step,
            steps=loaded.steps,
        )
        view = replay_view(loaded, step, names, lang)
        picture = discord.File(io.BytesIO(png), filename="replay.png")
        return Answer(content, picture, ephemeral=not public, view=view)


# ----------------------------------------------------------------- components
def replay_view(loaded: Loaded, step: int, names: list[str], lang: str) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ and the jump menu of the replay at ``step``."""
    view = discord.ui.View(timeout=None)
    game = loaded.info.game_id
    targets = {"first": 0, "prev": step - 1, "next": step + 1, "last": loaded.steps}
    for tag, emoji in (("first", "⏮"), ("prev", "◀"), ("next", "▶"), ("last", "⏭")):
        target = max(0, min(targets[tag], loaded.steps))
        view.add_item(ReplayButton(game, target, tag, emoji, disabled=target == step))
    options = [
        discord.SelectOption(label=label[:100], value=f"{at}.{i}", default=False)
        for i, (label, at) in enumerate(jumps(loaded.moments, names, lang))
    ]
    if options:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"rps:{game}:{step}", placeholder=text(lang, "replay_jump"), options=options
        )
        view.add_item(ReplaySelect(game, select))
    return view


def jumps(moments: tuple[KeyMoment, ...], names: list[str], lang: str) -> list[tuple[str, int]]:
    """The jump menu: (label, step) of the key moments, in order, at most 25 — every 开点,
    burn, 走科 and the melee, then as many round starts as fit, evenly spread."""
    useful = [m for m in moments if m.kind != "burn_end"]
    rounds = [m for m in useful if m.kind == "round"]
    others = [m for m in useful if m.kind != "round"][:MAX_JUMPS]
    room = MAX_JUMPS - len(others)
    if len(rounds) > room:
        rounds = [rounds[i * len(rounds) // room] for i in range(room)] if room else []
    chosen = sorted(others + rounds, key=lambda m: (m.step, m.kind != "round"))

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None else ""

    return [
        (
            text(
                lang,
                f"replay_{m.kind}",
                number=m.number,
                seat=who(m.seat),
                other=who(m.other),
                place=m.place,
                step=m.step,
            ),
            m.step,
        )
        for m in chosen
    ]


def _desk(interaction: discord.Interaction) -> ReplayDesk:
    desk = cast(Any, interaction.client).replays
    assert isinstance(desk, ReplayDesk)
    return desk


async def _show(interaction: discord.Interaction, game: int, step: int) -> None:
    """Answer a press at once (a deferred update), then edit its message to the replay at
    ``step`` when the picture is drawn, unless a newer press on that message came."""
    message = interaction.message
    ephemeral = message is not None and message.flags.ephemeral
    people = gouji_of(interaction).people
    lang = people.remember(interaction)
    if not ephemeral and interaction.guild is not None:
        lang = people.guild_lang(interaction.guild.id)
    desk = _desk(interaction)
    where = message.id if message is not None else interaction.id
    async with desk.presses.press(where, interaction.id) as press:
        await interaction.response.defer()
        if not press.newest:
            return
        async with answering(interaction):  # a refusal in the presser's own language
            loaded = await desk.load(game)
            shown = await desk.message(loaded, step, lang)
            await press.edit(
                lambda: interaction.edit_original_response(
                    content=shown.content, attachments=_files(shown), view=shown.view
                )
            )


def _files(shown: Answer) -> list[discord.File]:
    """An edit's attachments: the answer's file, or none."""
    return [] if shown.file is None else [shown.file]


class ReplayButton(
    AnsweredItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"rp:(?P<game>{NUMBER}):(?P<step>{NUMBER}):(?P<tag>first|prev|next|last)",
):
    """⏮ ◀ ▶ ⏭: show the replay of ``game`` at ``step``."""

    def __init__(
        self, game: int, step: int, tag: str, emoji: str = "▶", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=emoji,
                custom_id=f"rp:{game}:{step}:{tag}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.game, self.step = game, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _show(interaction, self.game, self.step)


class ReplaySelect(
    AnsweredItem,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"rps:(?P<game>{NUMBER}):(?P<step>{NUMBER})",
):
    """The jump menu: each option's value is ``STEP.INDEX``."""

    def __init__(self, game: int, select: discord.ui.Select[discord.ui.View]) -> None:
        super().__init__(select)
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplaySelect:
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"{match.string}: not a select menu")
        return cls(int(match["game"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values: list[str] = data.get("values") or ["0"]
        step = str(values[0]).split(".")[0]
        await _show(interaction, self.game, int(step) if _NUMBER.fullmatch(step) else 0)


class ReviewButton(
    AnsweredItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"rv:(?P<game>{NUMBER}):(?P<step>{NUMBER}):(?P<n>{NUMBER})",
):
    """A review item's button: the replay at the decision, as a new ephemeral message
    (answered at once with "thinking", then filled in)."""

    def __init__(self, game: int, step: int, n: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or f"#{n}",
                custom_id=f"rv:{game}:{step}:{n}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.game, self.step = game, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["game"]), int(match["step"]), int(match["n"]), label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            await interaction.response.defer(ephemeral=True, thinking=True)
            desk = _desk(interaction)
            loaded = await desk.load(self.game)
            seat = loaded.seats.get(interaction.user.id, 0)
            shown = await desk.message(loaded, self.step, answer.lang, seat)
            await shown.send(interaction)


# ----------------------------------------------------------------- review
def review_item(lang: str, n: int, mistake: Mistake, names: list[str]) -> str:
    """One line of a review: the step, what was faced, done, suggested and the cost."""
    if mistake.standing is None or mistake.standing_seat is None:
        facing = text(lang, "review_leading")
    else:
        seat = names[mistake.standing_seat]
        facing = text(lang, "review_facing", seat=seat, cards=play_words(mistake.standing, lang))
    return text(
        lang,
        "review_item",
        n=n,
        step=mistake.step,
        facing=facing,
        did=action_words(lang, mistake.action),
        suggested=action_words(lang, mistake.suggested),
        cost=mistake.cost,
        margin=mistake.margin,
        worlds=mistake.worlds,
    )


async def run_review(desk: ReplayDesk, interaction: discord.Interaction, game: str | None) -> None:
    """/gouji replay review: answered at once ("thinking", only the caller sees it), then a refusal
    or "reviewing…", edited into the review when it is ready."""
    async with answering(interaction) as answer:
        await interaction.response.defer(ephemeral=True, thinking=True)
        loaded = await desk.load((await desk.chosen(interaction, game)).game_id)
        seat = loaded.seats.get(interaction.user.id)
        if seat is None:
            raise UserError("review_not_player")
        lang = answer.lang
        await interaction.edit_original_response(content=text(lang, "review_working"))
        answer.in_place = True  # a failure from here replaces "reviewing…"
        result, pictures = await desk.reviewer(
            review_seat, loaded.record, loaded.info.number, seat, desk.review_budget, lang
        )
        names = await desk.names(loaded, lang)
        mistakes = result.mistakes[:MAX_MISTAKES]
        view = discord.ui.View(timeout=None)
        files = []
        if not mistakes:
            content = text(lang, "review_none", decisions=result.decisions)
        else:
            lines = [
                text(
                    lang,
                    "review_title",
                    number=loaded.info.number,
                    table=loaded.info.table_id,
                    seat=seat,
                    decisions=result.decisions,
                    count=len(mistakes),
                )
            ]
            for n, (mistake, png) in enumerate(zip(mistakes, pictures, strict=False), 1):
                lines.append(review_item(lang, n, mistake, names))
                files.append(discord.File(io.BytesIO(png), filename=f"decision{n}.png"))
                view.add_item(
                    ReviewButton(
                        loaded.info.game_id, mistake.step, n, text(lang, "review_open", n=n)
                    )
                )
            content = "\n".join(lines)
        await interaction.edit_original_response(
            content=content[:2000], attachments=files, view=view
        )


# ----------------------------------------------------------------- commands
async def run_replay(desk: ReplayDesk, interaction: discord.Interaction, game: str | None) -> None:
    """/gouji replay watch: a refusal only the caller sees, or (after "thinking") the deal's first
    step for the channel, in the server's language."""
    people = desk.gouji.people
    async with answering(interaction):
        info = await desk.chosen(interaction, game)  # refused (only the caller sees it)
        if interaction.guild is not None and not people.knows_guild(interaction.guild.id):
            await people.load_guild_lang(desk.gouji.service.archive, interaction.guild.id)
        channel_lang = people.guild_lang(info.guild_id)
        await interaction.response.defer(thinking=True)  # before the drawing workers
        loaded = await desk.load(info.game_id)
        shown = await desk.message(loaded, 0, channel_lang, public=True)
        await shown.send(interaction)


async def finished_choices(
    desk: ReplayDesk, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The autocomplete of /gouji replay watch and review: the server's last finished deals."""
    if interaction.guild is None:
        return []
    lang = desk.gouji.people.remember(interaction)
    found = await desk.gouji.service.archive.finished_games(interaction.guild.id, limit=25)
    choices = []
    for g in found:
        when = time.strftime("%m-%d %H:%M", time.gmtime(g.finished_at))
        name = text(lang, "replay_choice", table=g.table_id, number=g.number, when=when)
        if current.lower() in name.lower() or current.strip() == str(g.game_id):
            choices.append(app_commands.Choice(name=name[:100], value=str(g.game_id)))
    return choices
