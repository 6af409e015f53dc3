"""Seasons through the service (bot/service/seasons.py): the current season by default, a
past one on request, 0 for all time; a server still in its first season shows its all-time
figures; monthly seasons start by themselves at a new calendar month."""

from __future__ import annotations

import datetime

import pytest

from bot.service.errors import UserError
from bot.service.seasons import Seasons
from bot.service.standing import standing_of
from data import Store
from tests.data.test_seasons import PEOPLE, play_some

from .helpers import FakeClock


def at(year: int, month: int, day: int) -> float:
    return datetime.datetime(year, month, day, 12, tzinfo=datetime.UTC).timestamp()


async def test_current_past_and_all_time(store: Store) -> None:
    seasons = Seasons(store)
    await play_some(store, 6, seed=1)
    shown, board = await seasons.leaderboard(1)
    assert shown is None and board == await store.leaderboard(1)  # season 1 = all time
    before = {p: await standing_of(store, 1, p) for p in PEOPLE}
    await seasons.start(1)
    shown, board = await seasons.leaderboard(1)
    assert shown is not None and shown.number == 2 and board == []  # at zero
    assert (await seasons.rating_board(1))[1] == []
    first, kept = await seasons.leaderboard(1, 1)
    assert first is not None and first.number == 1 and kept == await store.leaderboard(1)
    for person, standing in before.items():
        _, past = await seasons.profile(1, person, 1)
        assert (past.score, past.games, past.places, past.position) == (
            standing.score,
            standing.games,
            standing.places,
            standing.position,
        )
        if standing.rating is None:  # never played
            assert past.rating is None
        else:
            assert past.rating is not None
            assert past.rating.figure == pytest.approx(standing.rating.figure)
            assert past.rating.rank == standing.rating.rank
        _, now = await seasons.profile(1, person)
        assert (now.score, now.games, now.position, now.rating) == (0, 0, None, None)
        assert (await seasons.profile(1, person, 0))[1] == standing  # all time
    with pytest.raises(UserError) as refused:
        await seasons.leaderboard(1, 5)
    assert refused.value.key == "no_season"


async def test_monthly_seasons_start_at_a_new_month(db_path) -> None:
    clock = FakeClock(at(2026, 3, 10))
    async with await Store.open(db_path, clock=clock.now) as store:
        seasons = Seasons(store, clock)
        await play_some(store, 2, seed=2, guild=1)
        await play_some(store, 2, seed=3, guild=2)
        await seasons.set_monthly(1, True)
        await seasons.set_monthly(2, True)
        await seasons.set_monthly(2, False)
        assert await seasons.tick() == []  # the season began this month
        clock.t = at(2026, 3, 31)
        assert await seasons.tick() == []
        clock.t = at(2026, 4, 1)
        assert await seasons.tick() == [1]  # a new month: season 2; server 2 is not monthly
        clock.t = at(2026, 4, 30)
        assert await seasons.tick() == []  # once a month
        clock.t = at(2026, 5, 2)
        assert await seasons.tick() == [1]
        assert [s.number for s in await store.seasons(1)] == [1, 2, 3]
        assert (await store.current_season(2)).number == 1
