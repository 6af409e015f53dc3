"""Everything the bot shows on Discord, in each language it speaks, fits Discord's own limits:
every command (with its localizations), the cards modal, and every controller a seat can be
asked with (宣点, 革命, 要头, 还贡, a burn, a lead, an answer; the menus cut to 25 and the
rank picker's pages and groups; the table, Activity and browser buttons) and the replay's
controls — built as the bot builds them, serialized by discord.py, and checked against
Discord's OpenAPI description (tests/fakediscord/openapi.py) and the fake's own checks of
what the spec does not say. Long numbers stand in for ids, so custom ids are as long as
they get. No network: nothing is sent."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord_bot.cog import GoujiCog
from bot.discord_bot.components import CardsModal, _controls, picker_page, web_link
from bot.discord_bot.launch import launch_button
from bot.discord_bot.people import People
from bot.discord_bot.picker import Group, group_page, rank_page, ranks
from bot.discord_bot.replay import Loaded, ReviewButton, replay_view
from bot.discord_bot.table_button import table_button
from bot.discord_bot.translator import GoujiTranslator
from bot.service.live import TableOptions
from bot.service.questions import Prompt, Question
from bot.service.views import SeatInfo, TableInfo
from bot.text.params import SeatNamer
from bot.web.wire import question_part
from data.models import FinishedGame
from engine.actions import Verb
from engine.cards import counts_of, deal
from engine.hands import classify
from engine.movegen import legal_plays
from engine.replay_steps import KeyMoment
from engine.state import QUESTIONS
from tests.fakediscord.commands import check_command
from tests.fakediscord.messages import check_message
from tests.fakediscord.openapi import SpecRefusal, default_validator

LANGS = ("en", "zh")
BIG = 10**18 - 1  # ids as long as the custom ids' templates take (18 digits)
TOKEN = f"{BIG}.5.turn.99999"  # a question token as long as a long table's get


def _fits(method: str, path: str, body: Any) -> None:
    """Fail with Discord's errors object if the spec refuses this request."""
    try:
        default_validator().check(method, path, {}, body)
    except SpecRefusal as refusal:
        pytest.fail(f"Discord would refuse {method} {path}: {refusal.errors}")


def _message_fits(view: discord.ui.View, content: str = "x") -> None:
    body = {"content": content, "components": view.to_components()}
    _fits("POST", f"/channels/{BIG}/messages", body)
    check_message(body, {}, creating=True)  # and what the spec does not say (unique ids, rows)


def _table() -> TableInfo:
    seats = tuple(
        SeatInfo(seat, BIG + seat if seat % 3 == 0 else None, "hard", seat % 3 != 0)
        for seat in range(6)
    )
    return TableInfo(BIG, BIG, BIG, BIG, None, TableOptions(), seats)


def _questions() -> list[Question]:
    """A question of every kind, with the plays of real deals (a lead from a whole hand: the
    most plays a menu and the picker ever get)."""
    hands = deal(7)
    lead = tuple(legal_plays(hands[0]))
    standing = classify("KK")
    answers = tuple(legal_plays(hands[1], standing))
    burning = tuple(legal_plays(hands[2], classify("AAAA")))
    asked = [
        Question(Prompt.TURN, TOKEN, 0, (Verb.PLAY,), lead),
        Question(
            Prompt.TURN,
            TOKEN,
            0,
            (Verb.PASS, Verb.YIELD, Verb.PLAY),
            answers,
            standing=standing,
            standing_seat=3,
            deadline=2e9,
            seconds=60,
        ),
        Question(Prompt.TURN, TOKEN, 0, (Verb.PASS,), (), standing=standing, standing_seat=3),
        Question(
            Prompt.BURN,
            TOKEN,
            0,
            (Verb.NOBURN, Verb.BURN),
            burning,
            standing=classify("AAAA"),
            standing_seat=2,
            seconds=15,
        ),
        Question(Prompt.BURN, TOKEN, 0, (Verb.NOBURN,), (), standing=classify("AAAA")),
    ]
    for n in (1, 2, 4):
        returnable = tuple(counts_of(hands[0]))
        asked.append(
            Question(Prompt.RETURN, TOKEN, 0, (Verb.RETURN,), (), n, returnable, return_to=3)
        )
    for phase, question in QUESTIONS.items():
        asked.append(Question(phase, TOKEN, 0, (question.yes, question.no)))
    return asked


async def test_every_command_fits_discords_spec_in_every_language() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    payload = await GoujiCog.gouji.get_translated_payload(tree, GoujiTranslator())
    assert payload["name_localizations"] and payload["description_localizations"]
    _fits("PUT", f"/applications/{BIG}/guilds/{BIG}/commands", [payload])
    check_command(payload)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("verb", [Verb.PLAY, Verb.BURN])
def test_the_cards_modal_fits_discords_spec(lang: str, verb: Verb) -> None:
    modal = CardsModal(BIG, TOKEN, verb, lang)
    _fits("POST", f"/interactions/{BIG}/t0ken/callback", {"type": 9, "data": modal.to_dict()})


@pytest.mark.parametrize("lang", LANGS)
def test_every_controller_and_picker_page_fits_discords_spec(lang: str) -> None:
    people = People(discord.Client(intents=discord.Intents.none()))
    info = _table()
    pages = 0
    hand = " ".join(map(str, deal(7)[0]))
    for asked in _questions():
        view, question = _controls(people, info, asked, lang, hand)
        assert question
        _message_fits(table_button(view, BIG, lang), question)
        view = launch_button(
            table_button(_controls(people, info, asked, lang, hand)[0], BIG, lang), lang
        )
        _message_fits(view)
        _message_fits(
            web_link(
                _controls(people, info, asked, lang, hand)[0],
                "https://gouji.example/" + "x" * 400,
                lang,
            )
        )
        verb = Verb.BURN if asked.kind == Prompt.BURN else Verb.PLAY
        for rank in ranks(asked.plays):
            keys = [None] + [
                e.key for m in rank_page(asked.plays, rank) for e in m if isinstance(e, Group)
            ]
            for key in keys:
                assert key is None or group_page(asked.plays, rank, key)
                page = picker_page(BIG, asked, verb, lang, rank, key)
                assert page is not None
                _message_fits(page)
                pages += 1
    assert pages > len(ranks(_questions()[0].plays)) > 5  # each rank of the lead, and groups


@pytest.mark.parametrize("lang", LANGS)
def test_the_replay_controls_fit_discords_spec(lang: str) -> None:
    kinds = [("round", 0, None), ("open", 1, None), ("burn", 2, 3), ("finish", 4, None)]
    moments = tuple(
        KeyMoment(kind, step, seat, number, other=other, place=6, result="success")
        for number in range(1, 12)
        for step, (kind, seat, other) in enumerate(kinds, start=number * 10)
    ) + (KeyMoment("melee", 999, None, 1),)
    info = FinishedGame(BIG, BIG, 5, BIG, BIG, BIG, 0.0)
    loaded = Loaded(info, "{}", 1000, moments, {})
    names = ["名" * 32] * 6  # Discord's longest display names
    for step in (0, 500, 1000):
        _message_fits(replay_view(loaded, step, names, lang))
    review = discord.ui.View(timeout=None)
    for n in range(1, 6):
        review.add_item(ReviewButton(BIG, 99999, n, f"#{n} · " + "名" * 32))
    _message_fits(review)


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_reads_the_same_on_discord_and_on_the_page(lang: str) -> None:
    """One wording of each question (bot.text.questions): the DM controller's text is the
    browser table's, the seats named alike."""
    people = People(discord.Client(intents=discord.Intents.none()))
    info = _table()
    namer = SeatNamer(people.names(info, lang), {})
    for asked in _questions():
        shown = question_part(asked, lang, namer)
        assert shown is not None
        assert _controls(people, info, asked, lang)[1] == shown["text"], asked.kind
