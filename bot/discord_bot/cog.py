"""The /gouji commands: one cog, one handler per subcommand.

Each handler checks where and who (a server channel, the caller's seat), asks the table
service, and answers: refusals as short ephemeral replies in the caller's language, table
changes as the service's events (the table message, announcements, DMs). Every command that
writes answers first — it defers ("thinking…") before any database work, so that a slow
database never loses Discord's 3-second window; the refusals that need no database are
found before (``precheck``), so that they stay ephemeral when the answer is public. Option
values are checked again here and in the service (a forged interaction skips Discord's own
checks), and every answer is cut to Discord's 2,000 characters.
"""

from __future__ import annotations

import inspect
import io
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_bot.answers import Answer, answering, reply
from bot.discord_bot.components import controller, web_link
from bot.discord_bot.context import Gouji
from bot.discord_bot.launch import launch_button
from bot.discord_bot.replay import ReplayDesk, finished_choices, run_replay, run_review
from bot.discord_bot.replies import done_text, hand_file, send_hint
from bot.discord_bot.seasons import (
    season_config,
    season_leaderboard_file,
    season_profile_file,
    tournament_lines,
)
from bot.discord_bot.settings import apply_config
from bot.pictures import png as pictures
from bot.pictures.views import named_series
from bot.service.errors import OUTAGES, UserError
from bot.service.live import BURN_TIME, TURN_TIME, LiveTable, TableOptions, echo
from bot.service.views import TableInfo
from bot.text.cards import action_text, play_label, read_cards
from bot.text.catalog import LANGS, LANGUAGE_NAMES, text
from bot.text.commands import AI_STRENGTH
from bot.text.options import house_rules, option_text, rules_of, value_text
from bot.text.params import list_text
from engine.actions import Verb
from engine.ai import DIFFICULTIES
from engine.options import CHOICES, Options
from engine.state import QUESTION_ANSWERS, QUESTIONS

log = logging.getLogger("gouji.bot")

#: The difficulties (engine.ai.DIFFICULTIES), named for players; the values are the kinds.
AI_KINDS = [app_commands.Choice(name=_(d.name), value=d.kind) for d in DIFFICULTIES]
SOURCE = "en"  # the language of the commands' own texts; the others are translations
LANG_CHOICES = [app_commands.Choice(name=LANGUAGE_NAMES[lang], value=lang) for lang in LANGS]
#: /gouji top: by points (the default) or by skill rating
TOP_BY = [
    app_commands.Choice(name=_("points"), value="points"),
    app_commands.Choice(name=_("rating"), value="rating"),
]
SEAT = app_commands.Range[int, 0, 5]
CARDS = app_commands.Range[str, 1, 100]  # in words a big play is long: "twelve As + …"
TURN_SECONDS = app_commands.Range[int, TURN_TIME[0], TURN_TIME[1]]
BURN_SECONDS = app_commands.Range[int, BURN_TIME[0], BURN_TIME[1]]
#: /gouji answer: the answers that take no cards — each question's yes and no
#: (engine.state.QUESTION_ANSWERS), then no burn
ANSWER_VERBS: tuple[str, ...] = (
    *(verb.value for verb in QUESTION_ANSWERS),
    Verb.NOBURN.value,
)
PRESETS = [app_commands.Choice(name=_("standard (标准)"), value="standard")]
#: the choices of the house rules that are not on/off (their words: bot.text.options)
HOUSE_RULE_CHOICES = {
    name: [app_commands.Choice(name=_(value_text("en", name, v)), value=v) for v in values]
    for name, values in CHOICES.items()
}
#: The options /gouji new and config both take, each once: the table's own settings
#: (bot.service.live.TableOptions) and every house rule (engine.options.Options) — name →
#: (annotation, as discord.py reads it in this module, and description).
TABLE_SETTINGS: dict[str, tuple[str, app_commands.locale_str]] = dict(
    series=("bool | None", _("Five-game tribute series (off: a single game)")),
    turn_time=("TURN_SECONDS | None", _("Seconds per turn")),
    burn_time=("BURN_SECONDS | None", _("Seconds to decide on a burn")),
    auto_pass=("bool | None", _("Pass at once when you cannot beat (要不起)")),
    counter=("bool | None", _("Show the card counter (记牌器)")),
    mention=(
        "bool | None",
        _("Mention the player in the channel at each turn (else: the DM only)"),
    ),
    preset=("str | None", _("House rules preset (standard: the defaults)")),
)
#: the descriptions Discord has always shown for the first house rules; a rule without one
#: is described by its name in bot.text.options (zh and en)
HOUSE_RULE_DESCRIPTIONS = dict(
    bie_san=_("Bie-san variant (憋三)"),
    no_single_return=_("No single return (不还单张)"),
    tribute_cards=_("Tribute cards (贡牌)"),
    gou_si_ji=_("Gou si ji (够死级): 要头 after a revolution"),
    burn_check=_("Burn check (烧牌条件)"),
    open_rule=_("Opening the point (开点)"),
)


def _table_options() -> dict[str, tuple[str, app_commands.locale_str]]:
    """Every option of :func:`table_options`, in the order Discord lists them: 憋三 (the
    first house rule), the table's settings, then the other house rules."""
    rules = {
        name: (
            "bool | None" if name not in CHOICES else "str | None",
            HOUSE_RULE_DESCRIPTIONS.get(name) or rule_words(name),
        )
        for name in Options().to_json()
    }
    first, *others = rules
    return {first: rules[first], **TABLE_SETTINGS, **{name: rules[name] for name in others}}


def table_options(handler: Callable[..., Awaitable[None]]) -> Any:
    """Give a command (``handler(self, interaction, ..., **chosen)``) every table option as an
    optional parameter — what discord.py reads to declare the options to Discord — described,
    with the house rules' choices; what the person gave comes in ``chosen``. Put it below the
    ``@gouji.command`` line (which reads the signature it gives: hence ``Any``)."""
    signature = inspect.signature(handler)
    kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=note)
        for name, (note, _described) in _table_options().items()
    ]
    handler.__signature__ = signature.replace(parameters=[*kept, *added])  # type: ignore[attr-defined]
    described = {name: described for name, (_note, described) in _table_options().items()}
    chosen = app_commands.choices(preset=PRESETS, **HOUSE_RULE_CHOICES)
    named = app_commands.rename(  # a rule described by its words is named by them in Chinese
        **{
            name: rule_words(name, source=name)
            for name in Options().to_json()
            if name not in HOUSE_RULE_DESCRIPTIONS
        }
    )
    return named(chosen(app_commands.describe(**described)(handler)))


def house_rule_overrides(preset: str | None = None, **given: Any) -> dict[str, Any]:
    """The options given to /gouji new or config; the standard preset sets every house
    rule to its default first (what was given as well wins). Refused (``UserError``) unless
    each value is one a person may choose (:meth:`TableOptions.check_choices`)."""
    if preset not in (None, *(p.value for p in PRESETS)):
        raise UserError("bad_option", what=f"preset {echo(preset)}")
    chosen = {k: v for k, v in given.items() if v is not None}
    if preset == "standard":
        chosen = {**Options().to_json(), **chosen}
    TableOptions.check_choices(chosen)
    return chosen


def in_every_language(say: Callable[[str], str]) -> app_commands.locale_str:
    """A command's words as ``say(lang)`` gives them: the source language's for Discord, each
    other language's carried for its clients (:class:`GoujiTranslator`)."""
    return _(say(SOURCE), **{lang: say(lang) for lang in LANGS if lang != SOURCE})


def rule_words(name: str, *, source: str | None = None) -> app_commands.locale_str:
    """A house rule's words (bot.text.options) in every language (``source``: the source
    language's own instead, e.g. the parameter's name)."""

    def say(lang: str) -> str:
        return source if source is not None and lang == SOURCE else option_text(lang, name, True)

    return in_every_language(say)


def worded(key: str) -> app_commands.locale_str:
    """A command's name or description from the catalog (``bot.text``), in every language."""
    return in_every_language(lambda lang: text(lang, key))


#: the language of the game's own terms, which the source language's choice names carry
TERMS = "zh"


def answer_words(verb: str) -> app_commands.locale_str:
    """An answer's name in /gouji answer's list: the verb as its button names it in each
    language, the source language's followed by the game's term (``declare (宣点)``)."""

    def say(lang: str) -> str:
        said, term = action_text(lang, verb, how="verb"), action_text(TERMS, verb, how="verb")
        return f"{said} ({term})" if lang == SOURCE != TERMS else said

    return in_every_language(say)


ANSWER_CHOICES = [app_commands.Choice(name=answer_words(v), value=v) for v in ANSWER_VERBS]


def answer_about() -> app_commands.locale_str:
    """/gouji answer's description: the questions, each by its yes in the game's terms, and
    no burn (``Answer the question you are asked: 宣点, 革命, 要头, 不烧``)."""
    yes = (*(asked.yes for asked in QUESTIONS.values()), Verb.NOBURN)
    terms = [action_text(TERMS, verb, how="verb") for verb in yes]
    return in_every_language(
        lambda lang: text(lang, "answer_about", answers=list_text(terms, lang))
    )


class GoujiCog(commands.Cog):
    """/gouji …"""

    gouji = app_commands.Group(
        name="gouji", description=_("Play Gouji (够级), the six-player team card game")
    )
    ai = app_commands.Group(name="ai", description=_("AI players"), parent=gouji)
    replay = app_commands.Group(
        name="replay",
        description=_("Finished games: watch one again (录像), review it (复盘), its record file"),
        parent=gouji,
    )

    def __init__(self, deps: Gouji, replays: ReplayDesk | None = None) -> None:
        self.deps = deps  # not "gouji": that is the command group
        self.replays = replays  # 录像, 复盘 (None: /gouji replay watch and review answer an error)
        self.service = deps.service
        self.people = deps.people

    # ----------------------------------------------------------------- plumbing
    @staticmethod
    def _guild(interaction: discord.Interaction) -> discord.Guild:
        """The server of a command (they are refused in DMs)."""
        if interaction.guild is None:
            raise UserError("guild_only")
        return interaction.guild

    @staticmethod
    def _channel_id(interaction: discord.Interaction) -> int:
        if interaction.channel_id is None:
            raise UserError("guild_only")
        return interaction.channel_id

    def _here(self, interaction: discord.Interaction) -> LiveTable:
        """The table of the interaction's channel, or the service's ``UserError``."""
        return self.service.tables.table_in(interaction.channel_id)

    def _live_or_none(self, interaction: discord.Interaction) -> LiveTable | None:
        return self.service.tables.table_at(interaction.channel_id)

    def _info_or_none(self, interaction: discord.Interaction) -> TableInfo | None:
        live = self._live_or_none(interaction)
        return self.service.tables.info(live) if live is not None else None

    async def _guarded(
        self,
        interaction: discord.Interaction,
        work: Callable[[str], Awaitable[Answer]],
        *,
        public: bool | Callable[[], bool] = False,
        precheck: Callable[[], None] | None = None,
    ) -> None:
        """Answer first, then work: ``precheck()`` (the refusals that need no database:
        ephemeral), then the deferral ("thinking…", public or not as ``public`` says), then
        ``work(lang)`` → its :class:`Answer`; refusals become replies."""
        async with answering(interaction) as answer:
            guild = self._guild(interaction)
            if precheck is not None:
                precheck()
            shown = public() if callable(public) else public
            await interaction.response.defer(ephemeral=not shown, thinking=True)
            if not self.people.knows_guild(guild.id):
                try:
                    await self.people.load_guild_lang(self.service.archive, guild.id)
                except OUTAGES:  # the channel texts fall back to the default language
                    log.warning("server %s: its language could not be read", guild.id)
            said = await work(answer.lang)
            await said.send(interaction)

    def _channel_text(self, interaction: discord.Interaction, key: str, **params: Any) -> str:
        table = self._info_or_none(interaction)
        lang = self.people.guild_lang(interaction.guild.id) if interaction.guild else "en"
        return self.people.render(table, lang, key, params)

    # ----------------------------------------------------------------- tables
    @gouji.command(name="new", description=_("Open a table in this channel"))
    @table_options
    async def new(self, interaction: discord.Interaction, **chosen: Any) -> None:
        overrides: dict[str, Any] = {}

        def precheck() -> None:
            self.service.check_open(self._channel_id(interaction))
            overrides.update(house_rule_overrides(**chosen))

        async def work(lang: str) -> Answer:
            live = await self.service.open_table(
                self._guild(interaction).id,
                self._channel_id(interaction),
                interaction.user.id,
                overrides,
            )
            glang = self.people.guild_lang(self._guild(interaction).id)
            o = self.service.tables.info(live).options
            mode = [
                text(glang, "mode_series" if o.series else "mode_single"),
                text(glang, "mode_turn", seconds=o.turn_time),
            ]
            rules = house_rules(glang, o.rules.changed())
            if rules:
                mode.append(text(glang, "house_rules", rules=rules))
            return Answer(
                self._channel_text(
                    interaction,
                    "table_opened",
                    user=interaction.user.display_name,
                    mode=", ".join(mode),
                ),
                ephemeral=False,
            )

        await self._guarded(interaction, work, public=True, precheck=precheck)

    @gouji.command(
        name="join", description=_("Sit down at the table (a seat, or the next free one)")
    )
    @app_commands.describe(seat=_("Seat 0-5 (teams: 0 2 4 and 1 3 5)"))
    async def join(self, interaction: discord.Interaction, seat: SEAT | None = None) -> None:
        async def work(lang: str) -> Answer:
            live, got, later = await self.service.join(
                self._here(interaction), interaction.user.id, seat
            )
            key = "join_after_game" if later else "joined"
            return Answer(
                self._channel_text(interaction, key, user=interaction.user.display_name, seat=got),
                ephemeral=False,
            )

        def precheck() -> None:
            self.service.check_join(self._here(interaction), interaction.user.id, seat)

        await self._guarded(interaction, work, public=True, precheck=precheck)

    @gouji.command(
        name="leave", description=_("Leave the table (during a game: −10, the AI plays on)")
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        async def work(lang: str) -> Answer:
            live, seat, in_game = await self.service.leave(
                self._here(interaction), interaction.user.id
            )
            if in_game:
                return Answer(text(lang, "done"))
            return Answer(
                self._channel_text(
                    interaction, "left_lobby", user=interaction.user.display_name, seat=seat
                ),
                ephemeral=False,
            )

        def precheck() -> None:
            live = self._here(interaction)
            self.service.tables.seat_for(live, interaction.user.id)

        def public() -> bool:  # in the lobby the channel is told; during a game, only you
            live = self._live_or_none(interaction)
            return live is not None and not self.service.tables.playing(live)

        await self._guarded(interaction, work, public=public, precheck=precheck)

    @ai.command(name="add", description=_("Fill a seat (or every empty seat) with an AI player"))
    @app_commands.describe(seat=_("Seat 0-5 (teams: 0 2 4 and 1 3 5)"), kind=_(AI_STRENGTH))
    @app_commands.choices(kind=AI_KINDS)
    async def ai_add(
        self, interaction: discord.Interaction, seat: SEAT | None = None, kind: str = "hint"
    ) -> None:
        async def work(lang: str) -> Answer:
            live, seats = await self.service.add_ai(
                self._here(interaction),
                interaction.user.id,
                seat,
                kind,
            )
            return Answer(
                self._channel_text(interaction, "ai_added", seats=", ".join(map(str, seats))),
                ephemeral=False,
            )

        def precheck() -> None:
            self.service.check_add_ai(
                self._here(interaction),
                interaction.user.id,
                seat,
                kind,
            )

        await self._guarded(interaction, work, public=True, precheck=precheck)

    @ai.command(name="remove", description=_("Take an AI player off a seat (or off every seat)"))
    @app_commands.describe(seat=_("Seat 0-5 (teams: 0 2 4 and 1 3 5)"))
    async def ai_remove(self, interaction: discord.Interaction, seat: SEAT | None = None) -> None:
        async def work(lang: str) -> Answer:
            live, seats = await self.service.remove_ai(
                self._here(interaction), interaction.user.id, seat
            )
            return Answer(
                self._channel_text(interaction, "ai_removed", seats=", ".join(map(str, seats))),
                ephemeral=False,
            )

        def precheck() -> None:
            self.service.check_remove_ai(self._here(interaction), interaction.user.id, seat)

        await self._guarded(interaction, work, public=True, precheck=precheck)

    @gouji.command(
        name="start", description=_("Start the series (the table's creator, six seated)")
    )
    async def start(self, interaction: discord.Interaction) -> None:
        await self._start(interaction, again=False)

    @gouji.command(name="again", description=_("A new series with the same seats"))
    async def again(self, interaction: discord.Interaction) -> None:
        await self._start(interaction, again=True)

    async def _start(self, interaction: discord.Interaction, again: bool) -> None:
        async def work(lang: str) -> Answer:
            live = await self.service.start(
                self._here(interaction),
                interaction.user.id,
                again=again,
            )
            shown = await self.service.views.public_view(live)
            key = ("started_again" if again else "started") + (
                "" if shown.games_total > 1 else "_single"
            )
            number, total = shown.number, shown.games_total
            said = self._channel_text(interaction, key, number=number, total=total)
            return Answer(said, ephemeral=False)

        def precheck() -> None:
            self.service.check_start(
                self._here(interaction),
                interaction.user.id,
                again=again,
            )

        # dealing takes a moment on a busy bot: answer "thinking…" first
        await self._guarded(interaction, work, public=True, precheck=precheck)

    @gouji.command(name="end", description=_("End the table (its creator or Manage Channels)"))
    async def end(self, interaction: discord.Interaction) -> None:
        may = bool(interaction.permissions and interaction.permissions.manage_channels)

        async def work(lang: str) -> Answer:
            await self.service.end(self._here(interaction), interaction.user.id, may)
            return Answer(text(lang, "done"))

        def precheck() -> None:
            self.service.check_end(self._here(interaction), interaction.user.id, may)

        await self._guarded(interaction, work, precheck=precheck)

    @gouji.command(name="back", description=_("Take your seat back from the AI (托管)"))
    async def back(self, interaction: discord.Interaction) -> None:
        async def work(lang: str) -> Answer:
            live, seat = await self.service.back(self._here(interaction), interaction.user.id)
            return Answer(
                self._channel_text(
                    interaction, "back", user=interaction.user.display_name, seat=seat
                ),
                ephemeral=False,
            )

        def precheck() -> None:
            self.service.check_back(self._here(interaction), interaction.user.id)

        await self._guarded(interaction, work, public=True, precheck=precheck)

    @gouji.command(name="config", description=_("Server settings (Manage Server)"))
    @app_commands.describe(
        language=_("Language of the channel messages"),
        channel=_("A channel where tables may open (or may no longer)"),
        allow=_("Allow tables in that channel (false: stop)"),
        new_season=_("Start a new season now (the board starts at zero; the last one is kept)"),
        monthly_seasons=_("A new season each month, by itself"),
    )
    @app_commands.choices(language=LANG_CHOICES)
    @table_options
    async def config(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        channel: discord.TextChannel | None = None,
        allow: bool = True,
        new_season: bool = False,
        monthly_seasons: bool | None = None,
        **chosen: Any,
    ) -> None:
        defaults: dict[str, Any] = {}

        def precheck() -> None:
            if not (interaction.permissions and interaction.permissions.manage_guild):
                raise UserError("config_denied")
            if language is not None and language not in LANGS:
                raise UserError("bad_option", what=f"language {echo(language)}")
            defaults.update(house_rule_overrides(**chosen))

        async def work(lang: str) -> Answer:
            content = await apply_config(
                self.service,
                self.people,
                self._guild(interaction).id,
                lang,
                language,
                channel.id if channel else None,
                allow,
                defaults,
            )
            seasons = await season_config(
                self.deps, self._guild(interaction).id, lang, new_season, monthly_seasons
            )
            return Answer("\n".join(filter(None, (seasons, content))))

        await self._guarded(interaction, work, precheck=precheck)

    @gouji.command(name="help", description=_("How to play with the bot"))
    async def help(self, interaction: discord.Interaction) -> None:
        lang = self.people.remember(interaction)
        opens = "\n\n" + text(lang, "activity_help") if self.deps.activity else ""
        await reply(interaction, text(lang, "help") + opens)

    @gouji.command(name="rules", description=_("A short summary of the rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        lang = self.people.remember(interaction)
        url = getattr(getattr(interaction.client, "config", None), "rules_url", None)
        link = text(lang, "rules_link", url=url) if url else ""
        content = text(lang, "rules", link=link)
        table = self._info_or_none(interaction)
        if table is not None:  # this table's own house rules
            lines = rules_of(lang, table.options.rules)
            content += "\n\n" + text(lang, "rules_table", lines=lines)
        await reply(interaction, content)

    # ----------------------------------------------------------------- playing
    async def _act(
        self, interaction: discord.Interaction, verb: str, cards: str | None = None
    ) -> None:
        async def work(lang: str) -> Answer:
            live = self._here(interaction)
            action = await self.service.act(live, interaction.user.id, verb, cards)
            return Answer(done_text(lang, action))

        await self._guarded(interaction, work)

    async def _autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal plays, labelled in words ("三张 7 + 两张 2（五张）"), the short
        notation as the value, filtered by what is typed (notation or words: "一对6");
        from memory (the plays are worked out once per question)."""
        live = self._live_or_none(interaction)
        if live is None:
            return []
        lang = self.people.remember(interaction)
        try:  # no lock: the engine is never left half-changed between two awaits
            plays = self.service.choices(live, interaction.user.id, read_cards(current))
        except Exception:
            log.exception("autocomplete at table %s failed", live.id)
            return []
        return [
            app_commands.Choice(name=play_label(p, lang)[:100], value=p.canonical) for p in plays
        ]

    @gouji.command(name="play", description=_("Play cards (the list shows what you may play now)"))
    @app_commands.describe(cards=_("Cards, e.g. KK or 22777"))
    async def play(self, interaction: discord.Interaction, cards: CARDS) -> None:
        await self._act(interaction, "play", read_cards(cards))

    @play.autocomplete("cards")
    async def play_cards(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current)

    @gouji.command(name="pass", description=_("Pass (过牌)"))
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "pass")

    @gouji.command(name="yield", description=_("Yield (让牌) to your opposite's hand"))
    async def yield_(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "yield")

    @gouji.command(name="burn", description=_("Burn (烧牌) the gouji hand just played"))
    @app_commands.describe(cards=_("Cards, e.g. KK or 22777"))
    async def burn(self, interaction: discord.Interaction, cards: CARDS) -> None:
        await self._act(interaction, "burn", read_cards(cards))

    @burn.autocomplete("cards")
    async def burn_cards(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current)

    # the questions before and around play, typed (the controller has them as buttons)
    @gouji.command(name="answer", description=answer_about())
    @app_commands.describe(choice=_("Your answer"))
    @app_commands.choices(choice=ANSWER_CHOICES)
    async def answer(self, interaction: discord.Interaction, choice: str) -> None:
        if choice not in ANSWER_VERBS:  # a forged value: Discord checks only its own clients
            lang = self.people.remember(interaction)
            answers = list_text([action_text(lang, v, how="verb") for v in ANSWER_VERBS], lang)
            await reply(interaction, text(lang, "bad_answer", answers=answers))
            return
        await self._act(interaction, choice)

    @gouji.command(name="return", description=_("Return tribute (还贡): the cards to give back"))
    @app_commands.describe(cards=_("Cards, e.g. 34 or 3 4"))
    async def return_(self, interaction: discord.Interaction, cards: CARDS) -> None:
        await self._act(interaction, "return", read_cards(cards))

    @gouji.command(name="hint", description=_("What would you play? (提示)"))
    async def hint(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            live = answer.table = self._live_or_none(interaction)
            if live is None:
                raise UserError("no_table")
            await send_hint(interaction, self.deps, live, answer.lang)

    @gouji.command(name="hand", description=_("Show your hand (only you see it)"))
    async def hand(self, interaction: discord.Interaction) -> None:
        shown: list[tuple[LiveTable, int, str]] = []  # the controller answered (its hand)

        async def work(lang: str) -> Answer:
            live = self._here(interaction)
            seat = self.service.tables.seat_for(live, interaction.user.id)
            if not self.service.tables.playing(live):
                raise self.service.idle_refusal(live)
            mine = await self.service.views.private_view(live, seat)  # as in the DMs: without DMs
            if not mine.hand:  # gone out (or revolted): the others play on
                raise UserError("hand_played_out")
            where = self.people.where(mine.public.info, lang)
            content, view = controller(self.people, mine, lang, where)
            if self.deps.web is not None:  # the same seat at the browser table
                url = self.deps.web.personal(live.id, interaction.user.id, lang)
                view = web_link(view, url, lang)
            if self.deps.activity:  # the same seat in the table inside Discord
                view = launch_button(view, lang)
            shown.append((live, seat, mine.hand))
            return Answer(content, await hand_file(self.deps.draw, mine.hand, lang), view=view)

        await self._guarded(interaction, work)
        for live, seat, cards in shown:  # it follows them, its picture kept while it holds
            self.deps.controls.follow(live, seat, interaction, cards)

    # ----------------------------------------------------------------- scores
    @gouji.command(name="score", description=_("Score, title, rating, games and places"))
    @app_commands.describe(
        user=_("Whose profile (default: yours)"),
        season=_("Which season (default: the current one; 0: all time)"),
    )
    async def score(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        season: app_commands.Range[int, 0, 10000] | None = None,
    ) -> None:
        async def work(lang: str) -> Answer:
            who = user or interaction.user
            guild = self._guild(interaction)  # a public picture: in the server's language
            glang = self.people.guild_lang(guild.id)
            card = await season_profile_file(self.deps, guild, who, glang, season)
            events = await tournament_lines(self.deps, guild.id, who.id, glang)
            return Answer(events, card, ephemeral=False)

        await self._guarded(interaction, work, public=True)

    @gouji.command(name="top", description=_("The server leaderboard"))
    @app_commands.describe(
        by=_("Rank by points (积分) or by skill rating (技术分)"),
        season=_("Which season (default: the current one; 0: all time)"),
    )
    @app_commands.choices(by=TOP_BY)
    async def top(
        self,
        interaction: discord.Interaction,
        by: app_commands.Choice[str] | None = None,
        season: app_commands.Range[int, 0, 10000] | None = None,
    ) -> None:
        async def work(lang: str) -> Answer:
            order = by.value if by is not None else "points"
            guild = self._guild(interaction)  # a public picture: in the server's language
            glang = self.people.guild_lang(guild.id)
            board = await season_leaderboard_file(self.deps, guild, glang, order, season)
            return Answer("", board, ephemeral=False)

        await self._guarded(interaction, work, public=True)

    @gouji.command(name="series", description=_("The scoreboard of the current series"))
    async def series(self, interaction: discord.Interaction) -> None:
        def precheck() -> None:
            if not self.service.tables.series_started(self._here(interaction)):
                raise UserError("no_series")

        async def work(lang: str) -> Answer:
            table = await self.service.views.public_view(self._here(interaction))
            if table.scoreboard is None:
                raise UserError("no_series")
            lang = self.people.channel_lang(table.info)  # a public picture: the server's language
            view = named_series(table.scoreboard, self.people.names(table.info, lang))
            png = await self.deps.draw(pictures.series_view_png, view, lang)
            return Answer("", discord.File(io.BytesIO(png), filename="series.png"), ephemeral=False)

        await self._guarded(interaction, work, public=True, precheck=precheck)

    # ----------------------------------------------------------------- 录像, 复盘, 记录
    def _desk(self) -> ReplayDesk:
        if self.replays is None:
            raise RuntimeError("this bot has no replay desk")
        return self.replays

    @replay.command(name="watch", description=_("Watch a finished game again, step by step (录像)"))
    @app_commands.describe(game=_("A finished game (default: the last one of this channel)"))
    async def replay_watch(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await run_replay(self._desk(), interaction, game)

    @replay.command(
        name="review",
        description=_("Your costliest decisions in a finished game (复盘, only you see it)"),
    )
    @app_commands.describe(game=_("A finished game (default: the last one of this channel)"))
    async def replay_review(
        self, interaction: discord.Interaction, game: str | None = None
    ) -> None:
        await run_review(self._desk(), interaction, game)

    @replay_watch.autocomplete("game")
    @replay_review.autocomplete("game")
    async def finished_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await finished_choices(self._desk(), interaction, current)

    @replay.command(
        name="record", description=_("The record file of the last finished game or series")
    )
    async def replay_record(self, interaction: discord.Interaction) -> None:
        def precheck() -> None:
            if not self.service.archive.has_record(self._here(interaction)):
                raise UserError("no_record")

        async def work(lang: str) -> Answer:
            live = self._here(interaction)
            found = await self.service.archive.last_record(live)
            data = json.dumps(found.record, ensure_ascii=False, indent=1).encode()
            content = self._channel_text(interaction, "record_file", name=found.name)
            return Answer(  # a public line: in the server's language, like the others
                content, discord.File(io.BytesIO(data), filename=found.name), ephemeral=False
            )

        await self._guarded(interaction, work, public=True, precheck=precheck)
