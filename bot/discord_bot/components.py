"""DM prompts: persistent buttons and select menus (``discord.ui.DynamicItem``).

Custom ids carry the table, the question and the verb (``g:12:3.turn.57:pass``,
``gs:12:3.burn.40:burn``), so the items work for any message, after a restart too, and never
time out. The question token (:meth:`~bot.service.flow.GameFlow.question_token`) is derived from the
game state, so a button of a question already answered is refused instead of acting on a
later one. Pressing one is the same as the slash command: the seat is the presser's, and the
service checks the turn again.
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord

from bot.discord_bot.people import People
from bot.discord_bot.replies import run_dm_action
from bot.service.live import LiveTable
from bot.service.presenter import BURN, DECLARE, HEAD, RETURN, REVOLT, Who
from bot.service.tables import TableService
from bot.text.catalog import text
from engine.actions import PASS, YIELD
from engine.cards import RANK_LETTERS

BUTTON_VERBS = (
    "declare",
    "nodeclare",
    "revolt",
    "norevolt",
    "keephead",
    "nokeephead",
    "noburn",
    "pass",
    "yield",
    "hint",
    "playhint",
)
_STYLE = {
    "declare": discord.ButtonStyle.primary,
    "revolt": discord.ButtonStyle.danger,
    "keephead": discord.ButtonStyle.danger,
    "playhint": discord.ButtonStyle.success,
    "hint": discord.ButtonStyle.primary,
}


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"g:(?P<table>\d+):(?P<token>[0-9a-z.]+):(?P<verb>[a-z]+)",
):
    """A button that makes the presser's seat do ``verb`` at ``table`` for question
    ``token``."""

    def __init__(self, table_id: int, token: str, verb: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                custom_id=f"g:{table_id}:{token}:{verb}",
                style=_STYLE.get(verb, discord.ButtonStyle.secondary),
            )
        )
        self.table_id, self.token, self.verb = table_id, token, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["table"]), match["token"], match["verb"], label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_dm_action(interaction, self.table_id, self.token, self.verb, None)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"gs:(?P<table>\d+):(?P<token>[0-9a-z.]+):(?P<verb>return|burn)",
):
    """A select menu: the cards to return (还贡) or the play to burn with."""

    def __init__(
        self, table_id: int, token: str, verb: str, select: discord.ui.Select[discord.ui.View]
    ) -> None:
        super().__init__(select)
        self.table_id, self.token, self.verb = table_id, token, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionSelect:
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"{match.string}: not a select menu")
        return cls(int(match["table"]), match["token"], match["verb"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values: list[str] = data.get("values") or []
        cards = "".join(v.split("#")[0] for v in values)
        await run_dm_action(interaction, self.table_id, self.token, self.verb, cards)


def _select(
    table_id: int,
    token: str,
    verb: str,
    placeholder: str,
    options: list[discord.SelectOption],
    n: int = 1,
) -> ActionSelect:
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=f"gs:{table_id}:{token}:{verb}",
        placeholder=placeholder,
        options=options,
        min_values=n,
        max_values=n,
    )
    return ActionSelect(table_id, token, verb, select)


def prompt_view(
    people: People,
    service: TableService,
    live: LiveTable,
    seat: int,
    kind: str,
    lang: str,
    where: str,
) -> tuple[discord.ui.View, str]:
    """The DM asking ``seat`` what it does now: (view, content). Call under the table lock."""
    view = discord.ui.View(timeout=None)
    tid = live.id
    token = service.question_token(live)

    def button(verb: str) -> None:
        view.add_item(
            ActionButton(
                tid, token, verb, text(lang, f"btn_{verb.replace('playhint', 'play_hint')}")
            )
        )

    if kind == DECLARE:
        button("declare")
        button("nodeclare")
        return view, text(lang, "dm_declare", where=where)
    if kind == REVOLT:
        button("revolt")
        button("norevolt")
        return view, text(lang, "dm_revolt", where=where)
    if kind == HEAD:
        button("keephead")
        button("nokeephead")
        return view, text(lang, "dm_head", seconds=live.options.turn_time, where=where)
    if kind == RETURN:
        series = live.running
        n, allowed = series.returnable(seat)
        due = live.current.pending_return
        if due is None:
            raise RuntimeError(f"table {live.id}: a return question without a return due")
        options = []
        for rank, count in enumerate(allowed):
            for k in range(min(count, n)):
                letter = RANK_LETTERS[rank]
                options.append(
                    discord.SelectOption(
                        label=letter if k == 0 else f"{letter} ({k + 1})", value=f"{letter}#{k}"
                    )
                )
        view.add_item(
            _select(
                tid,
                token,
                "return",
                text(lang, "select_return"),
                options[:25],
                min(n, len(options[:25])),
            )
        )
        who = people.fmt(live, lang, Who(due.taker))
        return view, text(lang, "dm_return", n=n, who=who, where=where)
    game = live.running_game
    standing = game.standing_seat
    by = people.fmt(live, lang, Who(standing)) if standing is not None else ""
    if kind == BURN:
        plays = game.burn_plays(seat)[:25]
        options = [discord.SelectOption(label=p.canonical, value=p.canonical) for p in plays]
        view.add_item(_select(tid, token, "burn", text(lang, "select_burn"), options))
        button("noburn")
        return view, text(
            lang,
            "dm_burn",
            who=by,
            cards=str(game.standing),
            seconds=live.options.burn_time,
            where=where,
        )
    verbs = {a.verb for a in game.legal_actions(seat)}
    if PASS in verbs:
        button("pass")
    if YIELD in verbs:
        button("yield")
    button("hint")
    button("playhint")
    content = text(lang, "dm_turn", where=where)
    if game.standing is not None:
        content += f" — {by}: **{game.standing}**"
    return view, content
