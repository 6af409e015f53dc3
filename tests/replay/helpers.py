"""Shared helpers of the replay and review tests: finished games as real-game records."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from data import ProfileUpdate, Store
from engine.actions import Action, Verb
from engine.ai.hint import EXPERT, decide
from engine.ai.view import view_of_game
from engine.cards import BIG_JOKER, RANK_LETTERS, SMALL_JOKER, TWO
from engine.game import Game, Options, Phase
from engine.hands import classify
from engine.replay_steps import Replay


def record_of(game: Game) -> dict[str, Any]:
    """A finished real game (built with ``Game.from_deal``) as a ``gouji-record/1`` record."""
    return {
        "format": "gouji-record/1",
        "options": game.options.to_json(),
        "hands": [" ".join(str(c) for c in hand) for hand in game.dealt],
        "seed": game.seed,
        "actions": [str(a) for a in game.actions],
    }


def expert_game(seed: int, override: Callable[[Game, int], Action | None] | None = None) -> Game:
    """Deal ``seed`` and play it out with the expert policy for every seat; ``override``
    (game, seat) may return another action to plant instead."""
    game = Game.from_deal(seed, Options())
    while game.phase != Phase.FINISHED:
        seat = game.to_act[0]
        action = override(game, seat) if override else None
        game.apply(action or decide(view_of_game(game, seat), EXPERT))
    return game


@cache
def expert_record(seed: int) -> dict[str, Any]:
    """The record of :func:`expert_game` (cached: do not change it)."""
    return record_of(expert_game(seed))


def waste_wildcards(seat: int, planted: list[int]) -> Callable[[Game, int], Action | None]:
    """An override planting one bad play: at ``seat``'s first lead with more than 24 cards
    and at least four 2s and jokers, lead the lowest set with every 2 and joker attached —
    the seat's strong cards broken up for a low lead. Appends the action's index to
    ``planted``."""

    def override(game: Game, s: int) -> Action | None:
        counts = game.counts[s]
        if s != seat or planted or game.phase != Phase.PLAY or game.standing is not None:
            return None
        wild = (TWO, SMALL_JOKER, BIG_JOKER)
        if sum(counts) <= 24 or sum(counts[r] for r in wild) < 4:
            return None
        low = min(r for r in range(TWO) if counts[r])
        play = classify("".join(RANK_LETTERS[r] * counts[r] for r in (low, *wild)))
        action = Action(s, Verb.PLAY, play)
        if action not in game.legal_actions(s):
            return None
        planted.append(len(game.actions))
        return action

    return override


def planted_game(seed: int) -> tuple[Game, int, int]:
    """(an expert game of deal ``seed`` with :func:`waste_wildcards` planted at the first
    seat it fits, that seat, the planted action's index)."""
    for seat in range(6):
        planted: list[int] = []
        game = expert_game(seed, waste_wildcards(seat, planted))
        if planted:
            return game, seat, planted[0]
    raise ValueError(f"deal {seed} has no place for the planted play")


async def store_finished_game(
    store: Store, guild: int, channel: int, record: dict, users: dict[int, int], finish: bool = True
) -> int:
    """A game of ``record`` played in ``channel`` by ``users`` (seat → user id), stored as
    the bot stores one; finished (with its players' results) unless ``finish`` is False
    (then only its first 20 actions). Its id. The table is ended afterwards: a channel holds
    one active table, and the next game stored there is another table's."""
    table = await store.create_table(guild, channel, users[min(users)], {})
    series = await store.start_series(table.id, record.get("options", {}))
    game = await store.start_game(series.id, record["seed"], record["hands"])
    actions = record["actions"] if finish else record["actions"][:20]
    await store.append_actions(game.id, actions)
    if finish:
        places = Replay.from_record(record).final.places
        updates = [ProfileUpdate(u, 0, places[seat]) for seat, u in users.items()]
        await store.record_game_result(guild, game.id, updates, {"places": list(places)})
    await store.set_table_status(table.id, "ended")
    return game.id


async def edited(rec: Any, timeout: float = 30.0) -> Any:
    """The message a replay press (an interaction of the fake Discord) edits, once the new
    picture is in: a press is answered at once with a deferred update (type 6), then its
    message edited."""
    first = await rec.response(timeout)
    assert first.type == 6, f"a replay press answered with type {first.type}, not 6"
    await rec.fake.wait_for(
        lambda: any(r.kind == "edit_original" for r in rec.responses), timeout, "the edit"
    )
    return rec.fake.messages[rec.original_message_id]


def shown_step(msg: Any) -> int:
    """The step a replay message shows ("… step N / M", "第 N / M 步")."""
    found = re.search(r"(\d+) / \d+", msg.content)
    assert found, msg.content
    return int(found[1])
