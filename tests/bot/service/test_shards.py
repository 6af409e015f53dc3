"""A shard process (``TableService(shards=…)``) serves only its shards' tables: it claims the
tables it opens, restores only the ones of its shards it could claim, and drops a table whose
claim another process took (the store refuses its appends to it: data/claims.py)."""

from __future__ import annotations

import time

from data import Store
from data.claims import Shards

from .helpers import HUMANS, make_service

ZERO, ONE = 4 << 22, 5 << 22  # servers on shards 0 and 1 of 2


async def test_each_shard_process_claims_and_restores_only_its_tables(db_path) -> None:
    async with await Store.open(db_path) as a, await Store.open(db_path) as b:
        first, _ = make_service(a, shards=Shards(2, (0,)))
        second, _ = make_service(b, shards=Shards(2, (1,)))
        mine = await first.open_table(ZERO, 10, HUMANS[0], {})
        theirs = await second.open_table(ONE, 11, HUMANS[1], {})
        assert ((await a.get_table(mine.id)).owner or "").startswith("shards 0 of 2 @ ")
        assert ((await a.get_table(theirs.id)).owner or "").startswith("shards 1 of 2 @ ")
        await first.close()  # a clean stop: its claims are released
        again, _ = make_service(a, shards=Shards(2, (0,)))
        assert await again.restore() == []
        assert list(again.tables.by_id) == [mine.id]  # its shard's table at once, not the other
        assert await again.renew_claims() == []
        await again.close()
        await second.close()


async def test_after_a_crash_the_tables_wait_for_the_lease_then_the_next_process_takes_them(
    db_path,
) -> None:
    clock = [1000.0]
    async with await Store.open(db_path, clock=lambda: clock[0]) as store:
        crashed, _ = make_service(store, shards=Shards(2, (0,)), lease=10)
        live = await crashed.open_table(ZERO, 10, HUMANS[0], {})
        await crashed.close(release=False)  # a crash: the claims stay
        after, _ = make_service(store, shards=Shards(2, (0,)), lease=10)
        assert await after.restore() == [] and after.tables.by_id == {}  # not before they lapse
        clock[0] += 11
        assert await after.tend_claims() == [live.id]
        assert after.tables.table_in(10).id == live.id
        await after.close()


async def test_a_lost_claim_drops_the_table(db_path) -> None:
    async with await Store.open(db_path) as a:
        service, _ = make_service(a, shards=Shards(2, (0,)), lease=5)
        live = await service.open_table(ZERO, 10, HUMANS[0], {})
        later = await Store.open(db_path, clock=lambda: time.time() + 60)
        async with later:  # another process, once the lease has lapsed
            assert await later.claim_table(live.id, "shards 0 of 2 (new host)")
        assert await service.renew_claims() == [live.id]
        assert live.id not in service.tables and live.ended
        assert (await a.get_table(live.id)).owner == "shards 0 of 2 (new host)"
        await service.close()
