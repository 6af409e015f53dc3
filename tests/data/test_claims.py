"""Tables claimed by the shard process that serves them: two processes never both hold a
table, a restart takes its own tables back, a process that lost a table cannot write to it."""

from __future__ import annotations

import asyncio

import pytest

from data import ClaimLostError, InvalidInputError, ProfileUpdate, Store
from data.claims import Shards, incarnation_of, incarnation_owner, shard_of

from .conftest import dealt_hands, new_game


def guild_on(shard: int, number: int = 0) -> int:
    """A server id on ``shard`` of 2 shards; ``number`` tells the servers of a shard apart."""
    return ((2 * number + shard) << 22) + 12345


class Clock:
    """A clock the test moves."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_server_is_on_the_shard_discord_gives_it() -> None:
    assert shard_of(guild_on(0), 2) == 0 and shard_of(guild_on(1, 5), 2) == 1
    # Discord's own example: guild 41771983423143937 with 2 shards
    assert shard_of(41771983423143937, 2) == (41771983423143937 >> 22) % 2
    shards = Shards.parse("8", "0-2,5")
    assert shards.ids == (0, 1, 2, 5) and str(shards) == "shards 0,1,2,5 of 8"
    assert Shards.parse(4).ids == (0, 1, 2, 3)
    assert shards.holds(5 << 22) and not shards.holds(3 << 22)


@pytest.mark.parametrize(
    ("count", "spec", "reason"),
    [
        ("0", None, "count must be 1 or more"),
        ("two", None, "must be a number"),
        (2, "0-2", "numbers from 0 to 1"),
        (4, "1,1", "name one shard twice"),
        (4, "a-b", "should look like 0-3"),
    ],
)
def test_bad_shard_settings_are_refused(count, spec, reason) -> None:
    with pytest.raises(InvalidInputError, match=reason):
        Shards.parse(count, spec)


async def tables_on_both_shards(store: Store) -> dict[int, list[int]]:
    """Three active tables per shard of 2, and one ended table per shard."""
    ids: dict[int, list[int]] = {0: [], 1: []}
    for shard in (0, 1):
        for number in range(3):
            table = await store.create_table(guild_on(shard, number), 100 + number, 1, {})
            ids[shard].append(table.id)
        ended = await store.create_table(guild_on(shard, 9), 200, 1, {})
        await store.set_table_status(ended.id, "ended")
    return ids


async def test_a_process_claims_the_active_tables_of_its_shards_only(store: Store) -> None:
    store._clock = Clock(1000.0)
    ids = await tables_on_both_shards(store)
    zero, one = Shards(2, (0,)), Shards(2, (1,))
    report = await store.claim_tables("shard 0", shards=zero, lease=30)
    assert (report.claimed, report.held) == (tuple(ids[0]), ())
    report = await store.claim_tables("shard 1", shards=one, lease=30)
    assert report.claimed == tuple(ids[1])
    table = await store.get_table(ids[1][0])
    assert (table.owner, table.owner_until) == ("shard 1", 1030.0)
    loaded = await store.load_active_tables(shards=zero)
    assert [a.table.id for a in loaded.tables] == ids[0]
    mine = await store.load_active_tables(owner="shard 1")
    assert [a.table.id for a in mine.tables] == ids[1]


async def test_a_live_claim_keeps_others_out_until_it_lapses(store: Store) -> None:
    clock = Clock()
    store._clock = clock
    ids = await tables_on_both_shards(store)
    shards = Shards(2, (0,))
    assert (await store.claim_tables("a", shards=shards, lease=60)).claimed == tuple(ids[0])
    clock.now += 59
    report = await store.claim_tables("b", shards=shards, lease=60)
    assert report.claimed == () and report.held == tuple((i, "a") for i in ids[0])
    assert not await store.claim_table(ids[0][0], "b")
    # a restarted "a" takes its own tables back at once
    assert (await store.claim_tables("a", shards=shards, lease=60)).claimed == tuple(ids[0])
    assert await store.renew_claims("a", lease=60) == ids[0]
    clock.now += 61  # "a" stopped renewing
    assert (await store.claim_tables("b", shards=shards)).claimed == tuple(ids[0])
    assert await store.renew_claims("a") == []  # "a" learns it lost them


async def test_two_processes_claiming_at_once_never_share_a_table(db_url: str) -> None:
    clock = Clock()
    async with await Store.open(db_url) as setup:
        ids = await tables_on_both_shards(setup)
    stores = [await Store.open(db_url, clock=clock) for _ in range(4)]
    try:
        for _ in range(5):
            reports = await asyncio.gather(
                *(s.claim_tables(f"p{n}", lease=10) for n, s in enumerate(stores))
            )
            claimed = [t for r in reports for t in r.claimed]
            assert sorted(claimed) == sorted(ids[0] + ids[1])  # each by exactly one
            clock.now += 11  # every claim lapses: the next round starts free
    finally:
        for s in stores:
            await s.close()


async def test_a_store_acting_for_an_owner_claims_what_it_creates(store: Store) -> None:
    store.act_as("shard 0")
    table = await store.create_table(guild_on(0), 1, 1, {})
    assert table.owner == "shard 0"
    series = await store.start_series(table.id)
    game = await store.start_game(series.id, 1, dealt_hands(1))
    assert await store.append_action(game.id, "0 nodeclare") == 0
    store.act_as(None)
    assert (await store.create_table(guild_on(0), 2, 1, {})).owner is None


async def test_a_process_that_lost_its_table_cannot_write_to_it(db_url: str) -> None:
    clock = Clock()
    async with (
        await Store.open(db_url, clock=clock) as old,
        await Store.open(db_url, clock=clock) as new,
    ):
        old.act_as("old", lease=10)
        table, _series, game = await new_game(old, guild_id=guild_on(0))
        await old.append_action(game.id, "0 nodeclare")
        clock.now += 11  # "old" stalled past its lease; "new" takes the table over
        assert await new.claim_table(table.id, "new")
        new.act_as("new")
        await new.append_action(game.id, "1 nodeclare")
        with pytest.raises(ClaimLostError, match=f"table {table.id} is claimed by new, not by old"):
            await old.append_action(game.id, "2 nodeclare")
        with pytest.raises(ClaimLostError):
            await old.append_actions(game.id, ["2 nodeclare"])
        with pytest.raises(ClaimLostError):
            await old.record_game_result(guild_on(0), game.id, [ProfileUpdate(7, 1, 1)], {})
        assert await new.get_actions(game.id) == ["0 nodeclare", "1 nodeclare"]
        assert (await new.get_profile(guild_on(0), 7)).games == 0


async def test_released_claims_are_free_for_others(store: Store) -> None:
    ids = await tables_on_both_shards(store)
    await store.claim_tables("a")
    assert await store.release_claims("a", [ids[0][0]]) == 1
    assert await store.release_claims("a", []) == 0
    assert (await store.claim_tables("b")).claimed == (ids[0][0],)
    assert await store.release_claims("a") == 5
    assert (await store.get_table(ids[1][0])).owner is None
    with pytest.raises(InvalidInputError, match="owner's name"):
        await store.claim_tables(" ")
    with pytest.raises(InvalidInputError, match="lease"):
        await store.claim_tables("a", lease=0)


async def test_claims_released_after_a_claim_was_cancelled_halfway_stay_released(
    db_url: str,
) -> None:
    """The bot shutting down cancels its claim-renewing task wherever it is, then releases
    its claims. A transaction cancelled at its BEGIN once left the connection inside it:
    the release ran in that transaction and was lost when the store closed, so the next
    process found its tables still held (and did not restore them)."""
    async with await Store.open(db_url) as setup:
        ids = await tables_on_both_shards(setup)
    for steps in range(12):  # cancel the claim after 0, 1, … turns of the loop: every await
        async with await Store.open(db_url) as store:
            await store.claim_tables("old", lease=60)
            claiming = asyncio.ensure_future(store.claim_tables("old", lease=60))  # renewing
            for _ in range(steps):
                await asyncio.sleep(0)
            claiming.cancel()
            assert await store.release_claims("old") == len(ids[0] + ids[1])
        async with await Store.open(db_url) as reopened:
            report = await reopened.claim_tables("new", lease=60)
            assert report.held == (), f"cancelled after {steps} steps"
            await reopened.release_claims("new")


async def test_an_append_refused_for_a_lost_claim_says_so_even_if_the_store_stops_acting(
    store: Store,
) -> None:
    """Shutting down, the store stops acting for its owner while appends are in flight:
    their refusal still names the lost claim (it once read the owner afresh and called the
    refusal a conflict: "expected action 0, but the log already holds 0")."""
    store.act_as("old")
    _table, _series, game = await new_game(store, guild_id=guild_on(0))
    await store.release_claims("old")  # the table is nobody's now: "old" may not write
    for steps in range(1, 8):  # after 1 step the append has begun, acting for "old"
        store.act_as("old")
        appending = asyncio.ensure_future(store.append_action(game.id, "0 nodeclare", 0))
        for _ in range(steps):
            await asyncio.sleep(0)
        store.act_as(None)
        with pytest.raises(ClaimLostError, match="claimed by nobody, not by old"):
            await appending


async def test_a_restarted_instance_takes_its_tables_at_once_and_fences_its_last_incarnation(
    db_url: str,
) -> None:
    clock = Clock()
    async with (
        await Store.open(db_url, clock=clock) as old,
        await Store.open(db_url, clock=clock) as new,
    ):
        instance = "all shards @ host-1"
        first = incarnation_owner(instance, await old.incarnate(instance))
        assert incarnation_of(first) == (instance, 1)
        old.act_as(first, lease=30)
        table, _series, game = await new_game(old, guild_id=guild_on(0))
        await old.append_action(game.id, "0 nodeclare")
        # SIGKILL, restart: the next incarnation of the instance, its claim still live
        second = incarnation_owner(instance, await new.incarnate(instance))
        assert incarnation_of(second) == (instance, 2)
        assert (await new.claim_tables(second, lease=30)).claimed == (table.id,)
        new.act_as(second, lease=30)
        await new.append_action(game.id, "1 nodeclare")
        with pytest.raises(ClaimLostError):  # the old incarnation is fenced
            await old.append_action(game.id, "2 nodeclare")
        report = await old.claim_tables(first, lease=30)  # and never takes it back
        assert report.claimed == () and report.held == ((table.id, second),)
        assert not await old.claim_table(table.id, first)
        # another instance still waits for the lease
        assert (await old.claim_tables("elsewhere @ host-2", lease=30)).claimed == ()
        assert await new.get_actions(game.id) == ["0 nodeclare", "1 nodeclare"]
        assert report.channels == ((table.id, table.channel_id),)


async def test_an_instance_needs_a_name(store: Store) -> None:
    for bad in ("", "  ", "x" * 201):
        with pytest.raises(InvalidInputError):
            await store.incarnate(bad)
    assert incarnation_of("shards 0 of 1 @ vm pid 5 #ab12cd") == (None, None)
