"""DM prompts: persistent buttons and select menus (``discord.ui.DynamicItem``).

Custom ids carry the table, the question and the verb (``g:12:3.turn.57:pass``,
``gs:12:3.burn.40:burn``), so the items work for any message, after a restart too, and never
time out. The question token (:attr:`bot.service.questions.Question.token`) is derived from the
game state, so a button of a question already answered is refused instead of acting on a
later one. Pressing one is the same as the slash command: the seat is the presser's, and the
service checks the turn again.
"""

from __future__ import annotations

import contextlib
import re
from enum import StrEnum
from typing import Any, Self, cast

import discord

from bot.discord_bot.answers import AnsweredItem, AnsweredModal, answering
from bot.discord_bot.context import gouji_of
from bot.discord_bot.launch import launch_button
from bot.discord_bot.people import People
from bot.discord_bot.picker import OPTIONS, Group, group_page, plain_menu, rank_page, ranks
from bot.discord_bot.replies import run_dm_action
from bot.discord_bot.table_button import table_button
from bot.service.errors import UserError
from bot.service.questions import Prompt, Question, yes_or_no
from bot.service.views import PrivateView, PublicView, TableInfo
from bot.text.cards import cards_count, play_label, play_words, rank_name, read_cards
from bot.text.catalog import lang_of, text
from bot.text.params import Who, list_text
from bot.text.questions import question_text
from engine.actions import Verb
from engine.cards import RANK_LETTERS, CardError, counts_of, parse_cards
from engine.options import Phase
from engine.scoring import opposite_of, team_of
from engine.state import QUESTIONS


class Control(StrEnum):
    """The controller's buttons that are not a verb (the last part of their custom id; the
    others are the question's answers, :class:`engine.actions.Verb`)."""

    HINT = "hint"  # 提示: show the hint
    PLAY_HINT = "playhint"  # play the hint
    OTHER = "other"  # type the cards (a modal)
    BACK = "back"  # from a picker page to the controller's own controls


_STYLE: dict[str, discord.ButtonStyle] = {
    Verb.DECLARE: discord.ButtonStyle.primary,
    Verb.REVOLT: discord.ButtonStyle.danger,
    Verb.KEEPHEAD: discord.ButtonStyle.danger,
    Control.PLAY_HINT: discord.ButtonStyle.success,
    Control.HINT: discord.ButtonStyle.primary,
}


class ActionButton(
    AnsweredItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"g:(?P<table>\d+):(?P<token>[0-9a-z.]+):(?P<verb>[a-z]+)",
):
    """A button that makes the presser's seat do ``verb`` at ``table`` for question
    ``token`` (a :class:`Verb` of the question, or a :class:`Control`)."""

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
        if self.verb == Control.BACK:
            await _show_page(interaction, self.table_id, self.token, Verb.PLAY, None)
            return
        if self.verb == Control.OTHER:
            verb = Verb.BURN if Prompt.BURN in self.token.split(".") else Verb.PLAY
            lang = lang_of(interaction.locale)
            await interaction.response.send_modal(CardsModal(self.table_id, self.token, verb, lang))
            return
        await run_dm_action(interaction, self.table_id, self.token, self.verb, None)


class QuestionSelect(
    AnsweredItem,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"(?!)",
):
    """A select menu of a question: its custom id (matched by the subclass's template)
    names the table, the question's ``token`` and the ``verb`` it answers with (and what
    else the subclass reads from it)."""

    def __init__(self, select: discord.ui.Select[discord.ui.View]) -> None:
        super().__init__(select)  # checks the custom id against the template
        match = self.template.match(self.custom_id)
        if match is None:  # DynamicItem has refused such an id already
            raise ValueError(f"{self.custom_id}: not a {type(self).__name__}")
        self.match = match
        self.table_id, self.token = int(self.match["table"]), self.match["token"]
        self.verb = Verb(self.match["verb"])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"{match.string}: not a select menu")
        return cls(item)


class ActionSelect(
    QuestionSelect,
    template=r"gs:(?P<table>\d+):(?P<token>[0-9a-z.]+):(?P<verb>return|burn|play)(?::\d+)?",
):
    """A select menu: the cards to return (还贡), the play to burn with, or the play (a
    picker page's menus are numbered: ``gs:12:3.turn.57:play:1``)."""

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
    part: int | None = None,
) -> ActionSelect:
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=f"gs:{table_id}:{token}:{verb}" + (f":{part}" if part is not None else ""),
        placeholder=placeholder,
        options=options,
        min_values=n,
        max_values=n,
    )
    return ActionSelect(select)


def _button_label(lang: str, verb: str) -> str:
    """``btn_VERB`` from the catalog; a verb the catalog does not know shows as itself."""
    key = "btn_play_hint" if verb == Control.PLAY_HINT else f"btn_{verb}"
    try:
        return text(lang, key)
    except KeyError:
        return verb


def relation(seat: int, other: int) -> str:
    """How ``other`` stands to ``seat``: you, teammate, opposite (对家) or opponent."""
    if other == seat:
        return "rel_you"
    if other == opposite_of(seat):
        return "rel_opposite"
    return "rel_teammate" if team_of(other) == team_of(seat) else "rel_opponent"


def controller(
    people: People,
    view: PrivateView,
    lang: str,
    where: str,
    note: str = "",
    *,
    presses: bool = True,
    launch: bool = False,
) -> tuple[str, discord.ui.View | None]:
    """The seat's hand controller: (content, view) — its status (whose turn, the standing
    hand and who played it, cards left per seat, the clock) and the controls of the question
    the seat is asked now (none while it waits). The hand picture goes with it.
    ``presses=False``: the controls would not reach this process (a DM to a player of a
    table on a shard other than 0), so the question points to ``/gouji hand`` instead.
    ``launch``: with the "Open the table" button (the Activity is configured)."""
    public, seat = view.public, view.seat
    info = public.info
    lines = [text(lang, "ctl_title", count=cards_count(len(view.hand.split()), lang), where=where)]
    waiting = public.to_act if public.playing else ()
    controls: discord.ui.View | None = None
    if view.question is not None:
        controls, question = _controls(people, info, view.question, lang, view.hand)
        lines.append(question)
        if not presses:
            controls = None
            lines.append(text(lang, "ctl_use_hand", channel=f"<#{info.channel_id}>"))
        if view.question.deadline is not None:
            lines.append(text(lang, "ctl_clock", when=f"<t:{int(view.question.deadline)}:R>"))
    elif _sits_out(public, seat):  # 革命: this game is played without them, as 四科
        lines.append(text(lang, "revolted_out"))
    elif waiting:
        who = [people.fmt(info, lang, Who(s)) for s in waiting]
        lines.append(text(lang, "ctl_wait", who=list_text(who, lang)))
    elif public.phase in (Phase.FINISHED, Phase.VOID):
        lines.append(text(lang, "ctl_game_over"))
    if public.in_game and public.phase not in QUESTIONS:  # asked before play: none played
        if public.standing is not None and public.standing_seat is not None:
            lines.append(
                text(
                    lang,
                    "ctl_standing",
                    who=people.fmt(info, lang, Who(public.standing_seat)),
                    rel=text(lang, relation(seat, public.standing_seat)),
                    cards=play_words(public.standing, lang),
                )
            )
        counts = " · ".join(
            f"{people.name_of(info.seats[s], lang)} {n}" for s, n in enumerate(public.card_counts())
        )
        lines.append(text(lang, "ctl_left", counts=counts))
    if note:
        lines.append(note)
    if controls is not None:  # asked: the table drawn from the seat, answered to them alone
        controls = table_button(controls, info.id, lang)
    if launch and presses:
        controls = launch_button(controls, lang)
    return "\n".join(lines), controls


def web_link(view: discord.ui.View | None, url: str, lang: str) -> discord.ui.View:
    """``view`` with a link button to the browser table at ``url`` (a personal link: only
    in a reply that only its owner sees). A view whose five rows are full stays as it is."""
    view = view if view is not None else discord.ui.View(timeout=None)
    button = discord.ui.Button[discord.ui.View](
        style=discord.ButtonStyle.link, label=text(lang, "web_link_button"), url=url
    )
    with contextlib.suppress(ValueError):  # no room left: the controls come first
        view.add_item(button)
    return view


def _sits_out(public: PublicView, seat: int) -> bool:
    """The seat revolted (革命) in the game being played: it sits it out, placed 四科."""
    table = public.table
    if table is None or public.phase in (None, Phase.FINISHED, Phase.VOID):
        return False
    return table.seats[seat].revolted


def _controls(
    people: People, info: TableInfo, asked: Question, lang: str, hand: str = ""
) -> tuple[discord.ui.View, str]:
    """The controls of the question the seat is asked, and its wording."""
    view = discord.ui.View(timeout=None)
    tid, token, kind = info.id, asked.token, asked.kind

    def button(verb: str) -> None:
        view.add_item(ActionButton(tid, token, verb, _button_label(lang, verb)))

    if kind == Prompt.RETURN:
        n = asked.return_count
        options = []
        for rank, count in enumerate(asked.returnable):
            for k in range(min(count, n)):
                name = rank_name(rank, lang)
                options.append(
                    discord.SelectOption(
                        label=name if k == 0 else f"{name} ({k + 1})",
                        value=f"{RANK_LETTERS[rank]}#{k}",
                    )
                )
        options = options[:25]
        select = _select(
            tid, token, Verb.RETURN, text(lang, "select_return"), options, min(n, len(options))
        )
        view.add_item(select)
        return view, question_text(asked, lang, people.namer(info, lang))
    if yes_or_no(kind):  # 宣点, 革命, 要头: its verbs as buttons
        for verb in asked.answers:
            button(verb)
        return view, question_text(asked, lang, people.namer(info, lang))
    plays = asked.plays
    verb = Verb.BURN if kind == Prompt.BURN else Verb.PLAY
    if plays:
        shown = plain_menu(plays)
        options = [
            discord.SelectOption(label=play_label(p, lang)[:100], value=p.canonical) for p in shown
        ]
        cut = len(shown) < len(plays)  # the menu says so, and the rank menu shows them all
        placeholder = (
            text(lang, f"select_{verb}_cut", shown=len(shown), total=len(plays))
            if cut
            else text(lang, f"select_{verb}")
        )
        view.add_item(_select(tid, token, verb, placeholder, options))
        if cut:
            view.add_item(_rank_select(tid, asked, verb, lang, hand))
    if kind == Prompt.BURN:
        button(Verb.NOBURN)
        if plays:
            button(Control.OTHER)
        return view, question_text(asked, lang, people.namer(info, lang))
    for verb in asked.answers:  # pass, yield
        button(verb)
    button(Control.HINT)
    button(Control.PLAY_HINT)
    if plays:
        button(Control.OTHER)
    return view, question_text(asked, lang, people.namer(info, lang))


class CardsModal(AnsweredModal):
    """ "Other play…": type the cards, in the short notation (``8888822``, 10, 小王) or in
    words (``五个8两个2``, ``five 8s two 2s``: :func:`bot.text.cards.read_cards`)."""

    def __init__(self, table_id: int, token: str, verb: str, lang: str) -> None:
        super().__init__(
            title=text(lang, f"modal_{verb}"), custom_id=f"gm:{table_id}:{token}:{verb}"
        )
        self.table_id, self.token, self.verb = table_id, token, verb
        self.cards: discord.ui.TextInput[CardsModal] = discord.ui.TextInput(
            label=text(lang, "modal_cards"),
            placeholder=text(lang, "modal_cards_example"),
            custom_id="cards",
            max_length=100,
        )
        self.add_item(self.cards)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        cards = read_cards(self.cards.value)  # words too: 五个8两个2, five 8s two 2s
        await run_dm_action(interaction, self.table_id, self.token, self.verb, cards)


# ------------------------------------------------------------------ the card picker
# The rank menu of a controller whose plain menu is cut (pick 1), a rank's page (pick 2: the
# play, or a group of plays), a group's page (pick 3): bot.discord_bot.picker says which.


def _rank_select(tid: int, asked: Question, verb: str, lang: str, hand: str) -> RankSelect:
    """The rank menu: "8 ×5", "2 ×2", "小王", one option per rank that leads a play."""
    try:
        held = counts_of(parse_cards(hand))
    except CardError:
        held = [0] * 15
    options = []
    for rank in ranks(asked.plays):
        name = rank_name(rank, lang)
        label = f"{name} ×{held[rank]}" if held[rank] > 1 else name
        options.append(discord.SelectOption(label=label, value=str(rank)))
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=f"gr:{tid}:{asked.token}:{verb}",
        placeholder=text(lang, "select_rank"),
        options=options[:OPTIONS],
    )
    return RankSelect(select)


def _group_label(group: Group, lang: str) -> str:
    if group.ranged:
        first, last = group.plays[0], group.plays[-1]
        return f"{play_label(first, lang)} … {play_label(last, lang)}"
    return text(lang, "pick_group", cards=play_label(group.sample, lang))


def picker_page(
    tid: int, asked: Question, verb: str, lang: str, rank: int, key: str | None
) -> discord.ui.View | None:
    """The page of ``rank`` (``key``: of one of its groups): its menus and a button back
    to the controller; None when that page is empty (the question changed)."""
    page = rank_page(asked.plays, rank) if key is None else group_page(asked.plays, rank, key)
    if not page:
        return None
    view = discord.ui.View(timeout=None)
    total = sum(len(menu) for menu in page)
    first = 1
    for part, menu in enumerate(page):
        where = dict(rank=rank_name(rank, lang), first=first, last=first + len(menu) - 1)
        placeholder = text(lang, "pick_page", total=total, **where)
        first += len(menu)
        if isinstance(menu[0], Group):
            groups = [e for e in menu if isinstance(e, Group)]
            select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
                custom_id=f"gg:{tid}:{asked.token}:{verb}:{rank}:{part}",
                placeholder=text(lang, "pick_groups", rank=rank_name(rank, lang)),
                options=[
                    discord.SelectOption(label=_group_label(g, lang)[:100], value=g.key)
                    for g in groups
                ],
            )
            view.add_item(GroupSelect(select))
            continue
        options = [
            discord.SelectOption(label=play_label(p, lang)[:100], value=p.canonical)
            for p in menu
            if not isinstance(p, Group)
        ]
        view.add_item(_select(tid, asked.token, verb, placeholder, options, part=part))
    view.add_item(ActionButton(tid, asked.token, Control.BACK, _button_label(lang, Control.BACK)))
    return view


async def _show_page(
    interaction: discord.Interaction,
    table_id: int,
    token: str,
    verb: str,
    rank: int | None,
    key: str | None = None,
) -> None:
    """Show a picker page on the message the pick was made on (``rank`` None: the
    controller's own controls again); refused once question ``token`` is over."""
    gouji = gouji_of(interaction)
    async with answering(interaction) as answer:
        lang = answer.lang
        live = answer.table = gouji.service.tables.get(table_id)
        seat = gouji.service.tables.seat_for(live, interaction.user.id)
        mine = await gouji.service.views.private_view(live, seat)
        asked = mine.question
        if asked is None or asked.token != token:
            raise UserError("stale_prompt")
        if rank is None:
            where = gouji.people.where(mine.public.info, lang)
            view = controller(gouji.people, mine, lang, where)[1]
        else:
            view = picker_page(table_id, asked, verb, lang, rank, key)
        if view is None:
            raise UserError("stale_prompt")
        await interaction.response.edit_message(view=view)


def _picked(interaction: discord.Interaction) -> str:
    data = cast(dict[str, Any], interaction.data or {})
    values: list[str] = data.get("values") or [""]
    return values[0]


class RankSelect(
    QuestionSelect, template=r"gr:(?P<table>\d+):(?P<token>[0-9a-z.]+):(?P<verb>burn|play)"
):
    """The rank menu: picking a rank shows its page."""

    async def callback(self, interaction: discord.Interaction) -> None:
        picked = _picked(interaction)
        rank = int(picked) if picked.isdigit() and int(picked) < 15 else 15
        await _show_page(interaction, self.table_id, self.token, self.verb, rank)


class GroupSelect(
    QuestionSelect,
    template=r"gg:(?P<table>\d+):(?P<token>[0-9a-z.]+):(?P<verb>burn|play):(?P<rank>\d+):\d+",
):
    """A menu of groups on a rank's page (the rank is in the custom id): picking one shows
    its plays."""

    @property
    def rank(self) -> int:
        return int(self.match["rank"])

    async def callback(self, interaction: discord.Interaction) -> None:
        key = _picked(interaction)[:10]
        await _show_page(interaction, self.table_id, self.token, self.verb, self.rank, key)


#: The picker's components, for ``Client.add_dynamic_items``.
PICKER_ITEMS = (RankSelect, GroupSelect)
