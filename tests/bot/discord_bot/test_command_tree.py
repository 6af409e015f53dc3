"""The /gouji tree as discord.py syncs it: Discord takes at most 25 children (subcommands and
groups) per level, and a 26th makes the whole sync fail, so /gouji keeps a slot free for the
next command; the commands about a finished game are one group, /gouji replay (录像、复盘、记录),
which /gouji help names."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord_bot.cog import GoujiCog
from bot.discord_bot.translator import GoujiTranslator
from bot.text.catalog import text
from tests.fakediscord.commands import (
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    InvalidCommandPayload,
    check_command,
)

#: Discord's limit of subcommands and groups at one level of a command
CHILDREN_LIMIT = 25


async def _synced() -> dict[str, Any]:
    """/gouji's payload as ``tree.sync`` sends it (translated: the Chinese names)."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return await GoujiCog.gouji.get_translated_payload(tree, GoujiTranslator())


def _children(level: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in level.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]


def _levels(level: dict[str, Any], path: str) -> list[tuple[str, int]]:
    """(path, number of children) for ``level`` and every group below it."""
    children = _children(level)
    found = [(path, len(children))]
    for child in children:
        if child["type"] == SUB_COMMAND_GROUP:
            found += _levels(child, f"{path} {child['name']}")
    return found


async def test_every_level_of_gouji_has_at_most_25_children_and_gouji_one_free() -> None:
    synced = await _synced()
    levels = _levels(synced, "/gouji")
    assert [path for path, count in levels if count > CHILDREN_LIMIT] == []
    assert dict(levels)["/gouji"] < CHILDREN_LIMIT  # a new subcommand still fits
    check_command(synced)  # and the fake Discord, which refuses what Discord would, takes it


async def test_the_fake_discord_refuses_a_26th_child_as_discord_does() -> None:
    synced = await _synced()
    spare = [
        {"type": SUB_COMMAND, "name": f"spare{n}", "description": "a spare subcommand"}
        for n in range(CHILDREN_LIMIT + 1 - len(_children(synced)))
    ]
    with pytest.raises(InvalidCommandPayload, match="more than 25 options"):
        check_command({**synced, "options": [*synced["options"], *spare]})


async def test_the_finished_game_commands_are_the_replay_group_in_both_languages() -> None:
    synced = await _synced()
    replay = next(c for c in _children(synced) if c["name"] == "replay")
    assert replay["type"] == SUB_COMMAND_GROUP
    assert replay["name_localizations"]["zh-CN"] == "回顾"
    assert replay["description_localizations"]["zh-CN"] == "打完的牌局：录像、复盘、记录"
    subcommands = {c["name"]: c for c in _children(replay)}
    assert {name: c["name_localizations"]["zh-CN"] for name, c in subcommands.items()} == {
        "watch": "录像",
        "review": "复盘",
        "record": "记录",
    }
    for name in ("watch", "review"):  # the game: the server's finished games, typed or not
        (game,) = subcommands[name]["options"]
        assert game["name"] == "game" and game["autocomplete"] and not game["required"]
    assert subcommands["record"]["options"] == []
    names = {c["name"] for c in _children(synced)}
    assert not names & {"review", "record"}  # gone from /gouji itself


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_names_the_replay_group_and_its_commands(lang: str) -> None:
    said = text(lang, "help")
    assert re.search(r"· replay\b.*\bwatch\b.*\breview\b.*\brecord\b.*· rules", said), said
    assert "· record" not in said  # no longer a command of /gouji itself


def _commands(level: dict[str, Any], path: str) -> list[str]:
    """The commands under ``level``, as ``help`` names them ("ai add", "replay watch")."""
    found = []
    for child in _children(level):
        name = f"{path} {child['name']}".strip()
        if child["type"] == SUB_COMMAND_GROUP:
            found += _commands(child, name)
        else:
            found.append(name)
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_help_names_every_command_of_gouji(lang: str) -> None:
    said = text(lang, "help")
    missing = []
    for command in _commands(await _synced(), ""):  # the names typed in either language
        if command == "help":
            continue  # it is what is read
        if not all(re.search(rf"\b{word}\b", said) for word in command.split()):
            missing.append(command)
    assert missing == [], said
