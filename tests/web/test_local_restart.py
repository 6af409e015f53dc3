"""``gouji web`` killed and run again on the same database: the new run takes its old
table back at once (an incarnation of the same instance) and opens a new one, instead of
finding the channel held by the dead run's claim (a traceback: "table_exists")."""

from __future__ import annotations

import random
from pathlib import Path

from bot.web.local import LocalTable, user_of
from data import Store


async def test_a_local_table_killed_and_run_again_opens_anew(tmp_path: Path) -> None:
    path = str(tmp_path / "web.db")
    async with await Store.open(path) as store:
        dead = LocalTable(store, {0: "济南"}, ai_delay=0, rng=random.Random(3), start_now=True)
        await dead.open()
        first = dead.table_id
        await dead.site.stop()
        await dead.service.close(release=False)  # SIGKILL: its claim stays, unreleased
    async with await Store.open(path) as store:
        async with LocalTable(store, {0: "济南"}, ai_delay=0, start_now=True) as again:
            assert again.table_id != first
            assert (await store.get_table(first)).status == "ended"
            (live,) = again.service.tables.tables_of(user_of(0))  # its one own table
            assert live.id == again.table_id and live.playing
