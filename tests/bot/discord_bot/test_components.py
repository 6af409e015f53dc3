"""bot/discord_bot/components.py: the controller's custom ids read back, and how a seat
stands to another (the engine's teams and opposites)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord
import pytest

from bot.discord_bot.components import (
    ActionSelect,
    Control,
    GroupSelect,
    QuestionSelect,
    RankSelect,
    relation,
)
from engine.actions import Verb
from engine.scoring import opposite_of, team_of


def _read_back(cls: type[QuestionSelect], custom_id: str) -> QuestionSelect:
    """What discord.py builds from a pressed menu with ``custom_id`` (after a restart too)."""
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=custom_id, options=[discord.SelectOption(label="x")]
    )
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    return asyncio.run(cls.from_custom_id(cast(Any, None), select, match))


@pytest.mark.parametrize(
    ("cls", "custom_id", "verb"),
    [
        (ActionSelect, "gs:12:3.return.0:return", Verb.RETURN),
        (ActionSelect, "gs:12:3.turn.57:play:1", Verb.PLAY),
        (RankSelect, "gr:12:3.burn.40:burn", Verb.BURN),
        (GroupSelect, "gg:12:3.turn.57:play:9:2", Verb.PLAY),
    ],
)
def test_every_menu_reads_its_table_question_and_verb_back_from_its_custom_id(
    cls: type[QuestionSelect], custom_id: str, verb: Verb
) -> None:
    item = _read_back(cls, custom_id)
    assert type(item) is cls
    assert (item.table_id, item.token, item.verb) == (12, custom_id.split(":")[2], verb)
    assert item.verb is verb


def test_a_group_menu_reads_its_rank_from_its_custom_id() -> None:
    item = _read_back(GroupSelect, "gg:12:3.turn.57:burn:9:2")
    assert isinstance(item, GroupSelect) and item.rank == 9


@pytest.mark.parametrize(
    ("cls", "custom_id"),
    [(ActionSelect, "gs:12:3.turn.57:pass"), (RankSelect, "gr:12:3.turn.57:return")],
)
def test_a_menu_takes_only_the_verbs_that_take_cards(
    cls: type[QuestionSelect], custom_id: str
) -> None:
    assert cls.__discord_ui_compiled_template__.fullmatch(custom_id) is None


def test_the_controls_that_are_not_verbs_never_shadow_a_verb() -> None:
    assert not {c.value for c in Control} & {v.value for v in Verb}


def test_relation_follows_the_engines_teams_and_opposites() -> None:
    for seat in range(6):
        for other in range(6):
            if other == seat:
                want = "rel_you"
            elif other == opposite_of(seat):
                want = "rel_opposite"
            elif team_of(other) == team_of(seat):
                want = "rel_teammate"
            else:
                want = "rel_opponent"
            assert relation(seat, other) == want
    assert [relation(0, s) for s in range(6)] == [
        "rel_you",
        "rel_opponent",
        "rel_teammate",
        "rel_opposite",
        "rel_teammate",
        "rel_opponent",
    ]
