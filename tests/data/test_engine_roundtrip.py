"""The engine and the store round trip: a series played by the engine, written into a store
the way the bot writes it (one log per deal, returns included; results, void deals, totals)
and exported back, replays to the same result as the engine's own record — whole, cut
anywhere, and game by game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from data import Store
from engine.actions import Action, Verb
from engine.cards import Card, deal
from engine.game import Options, Phase
from engine.record import SERIES_FORMAT, replay, series_from_record, state_json
from engine.series import Series
from tests.game.randomplay import play_random_series

from .game_child import USERS, game_result, hands_text, profile_updates, rig_void, snapshot

GUILD = 9


def random_series_with_void(seed: int, void_deal: int = 2) -> tuple[Series, dict]:
    """Like ``play_random_series``, but deal ``void_deal`` is dealt so that two seats hold
    no 2, joker, ace or king, and both revolt: the deal is void, and the game is dealt again
    (tribute paid again from the new hands)."""
    rng = random.Random(seed)
    series = Series(Options())
    record: dict = {"format": SERIES_FORMAT, "options": {"bie_san": False}, "games": []}
    while not series.finished:
        index = len(series.deals)
        hands: list[list[Card]] = deal(seed * 1000 + index)
        if index == void_deal:
            hands = rig_void(hands, {owed.receiver for owed in series.owed_next()})
        entry: dict[str, Any] = {
            "hands": hands_text(hands),
            "seed": seed * 1000 + index,
            "returns": [],
            "actions": [],
        }
        record["games"].append(entry)
        current = series.start_game(hands, entry["seed"])
        while current.pending_return is not None:
            giver = current.pending_return.giver
            n, allowed = series.returnable(giver)
            pool = [rank for rank, count in enumerate(allowed) for _ in range(count)]
            cards = "".join(str(Card(rank)) for rank in sorted(rng.sample(pool, n)))
            series.apply(Action(giver, Verb.RETURN, cards))
            entry["returns"].append(f"{giver} return {cards}")
        game = current.game
        assert game is not None
        while game.phase not in (Phase.FINISHED, Phase.VOID):
            seat = rng.choice(game.to_act)
            legal = game.legal_actions(seat)
            revolts = [a for a in legal if a.verb == Verb.REVOLT and game.phase == Phase.REVOLT]
            action = revolts[0] if index == void_deal and revolts else rng.choice(legal)
            series.apply(action)
            entry["actions"].append(str(action))
    return series, record


async def store_series(
    store: Store, series: Series, record: dict, channel: int
) -> tuple[int, list[int]]:
    """Write a played series as the bot does; returns the store's series id and the
    store's game ids, deal by deal."""
    table = await store.create_table(GUILD, channel, USERS[0], record["options"])
    for seat, user in enumerate(USERS):
        await store.set_seat(table.id, seat, user_id=user)
    await store.set_table_status(table.id, "playing")
    stored = await store.start_series(table.id, record["options"])
    game_ids = []
    for entry, dealt in zip(record["games"], series.deals, strict=True):
        game = await store.start_game(stored.id, entry["seed"], entry["hands"])
        game_ids.append(game.id)
        await store.append_actions(game.id, entry["returns"] + entry["actions"], expected_index=0)
        if dealt.void:
            await store.void_game(game.id)
        else:
            await store.record_game_result(
                GUILD, game.id, profile_updates(dealt), game_result(dealt)
            )
    await store.finish_series(stored.id, series.totals())
    return stored.id, game_ids


def without_empty_returns(record: dict) -> dict:
    """The record as the store exports it: no ``returns`` field where there were none."""
    games = [{k: v for k, v in g.items() if k != "returns" or v} for g in record["games"]]
    return {**record, "games": games}


def played_series(kind: str, seed: int) -> tuple[Series, dict]:
    if kind == "void":
        return random_series_with_void(seed)
    return play_random_series(seed)


CASES = [("random", 0), ("random", 1), ("random", 7), ("void", 3), ("void", 4)]


@pytest.mark.parametrize(("kind", "seed"), CASES)
async def test_a_stored_series_exports_to_a_record_that_replays_the_same(store, kind, seed):
    series, record = played_series(kind, seed)
    if kind == "void":
        assert [d.void for d in series.deals].count(True) == 1 and len(series.deals) == 6
    series_id, game_ids = await store_series(store, series, record, channel=seed)
    exported = await store.export_series_record(series_id)
    assert exported == without_empty_returns(record)
    out = replay(exported)
    assert out == replay(record)
    assert out["totals"] == series.totals() == (await store.get_series(series_id)).totals
    assert snapshot(series_from_record(exported)) == snapshot(series)
    for game_id, dealt in zip(game_ids, series.deals, strict=True):
        stored = await store.get_game(game_id)
        assert stored.status == ("void" if dealt.void else "finished")
    for seat, user in enumerate(USERS):
        assert (await store.get_profile(GUILD, user)).score == series.player_scores()[seat]


@pytest.mark.parametrize(("kind", "seed"), CASES)
async def test_every_finished_game_exports_to_a_game_record_that_replays_finished(
    store, kind, seed
):
    series, record = played_series(kind, seed)
    _, game_ids = await store_series(store, series, record, channel=seed)
    for number, (game_id, dealt) in enumerate(zip(game_ids, series.deals, strict=True)):
        if dealt.void:
            continue
        assert dealt.game is not None
        # game 1 starts as dealt; later games from the hands after tribute and returns
        hands = None if number == 0 else hands_text(dealt.game.dealt)
        out = replay(await store.export_game_record(game_id, hands=hands))
        assert out["ok"] and out["finished"]
        assert out == state_json(dealt.game)


def cut(record: dict, game: int, keep: int) -> dict:
    """The record of a series stopped after ``keep`` log entries (returns first, then
    actions) of game entry ``game``."""
    games = [dict(g) for g in record["games"][: game + 1]]
    log = games[-1].get("returns", []) + games[-1]["actions"]
    kept = log[:keep]
    games[-1]["returns"] = [a for a in kept if a.split()[1] == Verb.RETURN]
    games[-1]["actions"] = [a for a in kept if a.split()[1] != Verb.RETURN]
    return {**record, "games": games}


def engine_prefix(record: dict, game: int, keep: int) -> Series:
    """The series the engine reaches by itself, applying the same prefix move by move."""
    series = Series(Options())
    for number, entry in enumerate(record["games"][: game + 1]):
        series.start_game(entry["hands"], entry["seed"])
        log = entry.get("returns", []) + entry["actions"]
        for text in log if number < game else log[:keep]:
            series.apply(Action.parse(text))
    return series


def engine_walk(record: dict) -> Iterator[tuple[int, int, Series]]:
    """Every stop of ``record`` in order, as ``(game, keep, series)``: the series the engine
    reaches by itself after ``keep`` log entries of game entry ``game`` — what
    :func:`engine_prefix` gives, for all of them in one pass. The series is the walk's own
    and moves on: take what is needed (``snapshot``, a copy) before the next step."""
    series = Series(Options())
    for number, entry in enumerate(record["games"]):
        series.start_game(entry["hands"], entry["seed"])
        yield number, 0, series
        for keep, text in enumerate(entry.get("returns", []) + entry["actions"], 1):
            series.apply(Action.parse(text))
            yield number, keep, series


def logged(record: dict, game: int) -> int:
    """How many log entries (returns and actions) game entry ``game`` has."""
    entry = record["games"][game]
    return len(entry.get("returns", [])) + len(entry["actions"])


@pytest.mark.parametrize(("kind", "seed"), [("random", 5), ("void", 6)])
async def test_a_series_stopped_anywhere_restores_to_the_same_state(store, kind, seed):
    """The bot's restore (stored log → export → ``series_from_record``) of a series cut at
    seeded random points — before any return, between returns, mid-game — is the state
    the engine reached itself."""
    series, record = played_series(kind, seed)
    rng = random.Random(seed)
    points = [(g, k) for g in range(len(record["games"])) for k in (0, 1)]
    points += [(g, rng.randint(2, 60)) for g in range(len(record["games"]))]
    points = [(g, min(keep, logged(record, g))) for g, keep in points]
    expected = {(g, k): snapshot(s) for g, k, s in engine_walk(record) if (g, k) in points}
    for channel, (game, keep) in enumerate(points):
        partial = cut(record, game, keep)
        series_id, game_ids = await _store_partial(store, partial, series, channel)
        report = await store.load_active_tables()
        (active,) = [a for a in report.tables if a.series and a.series.id == series_id]
        assert [log.game.id for log in active.games] == game_ids
        restored = series_from_record(await store.export_series_record(series_id))
        assert snapshot(restored) == expected[game, keep], (game, keep)
        # ended, so that the next load reads its own table only (not all the earlier ones)
        await store.set_table_status(active.table.id, "ended")


async def _store_partial(
    store: Store, partial: dict, played: Series, channel: int
) -> tuple[int, list[int]]:
    """Write a cut series as the bot would have when it stopped: earlier deals settled
    (finished or void, as the same deals of ``played`` say), the last one still being
    played."""
    table = await store.create_table(GUILD, 1000 + channel, USERS[0], partial["options"])
    await store.set_table_status(table.id, "playing")
    stored = await store.start_series(table.id, partial["options"])
    game_ids = []
    deals = played.deals[: len(partial["games"])]
    for number, (entry, dealt) in enumerate(zip(partial["games"], deals, strict=True)):
        game = await store.start_game(stored.id, entry["seed"], entry["hands"])
        game_ids.append(game.id)
        log = entry.get("returns", []) + entry["actions"]
        if log:
            await store.append_actions(game.id, log, expected_index=0)
        if number == len(partial["games"]) - 1:
            break
        if dealt.void:
            await store.void_game(game.id)
        else:
            await store.record_game_result(GUILD, game.id, [], game_result(dealt))
    return stored.id, game_ids
