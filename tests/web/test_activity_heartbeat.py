"""A person whose Activity closes without a goodbye (iOS sends none when Discord is swiped
away): the server's heartbeat notices the silent socket and lets it go, and that changes
nothing in the game — the seat stays theirs, no AI takes it over, the log gains nothing and
the turn's clock runs on as it was (only the clock decides what happens next)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.service.helpers import user_at
from tests.web.activity_helpers import served


async def test_a_socket_that_stops_answering_is_let_go_and_the_game_is_unchanged(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as s:
        alice, bo = s.fake.member("alice"), s.fake.member("bo")
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        service, site = s.bot.service, s.bot.web.site
        live = service.tables.table_in(s.fake.channel("gouji").id)
        await s.fake.wait_for(lambda: live.deadline is not None, 60, "the first question")
        await service.settle(live)  # the AI seats have played up to a person's question
        seat = live.seats.index(next(x for x in live.seats if x.user_id == bo.id))
        before = (await s.bot.store.get_actions(live.game_id), live.deadline)

        site.heartbeat = 0.2  # the server pings every 0.2 s from now on (20 s in service)
        s.fake.activities.join(s.instance_id, bo.id)
        token = await s.token_of("bo")
        status, body = await s.post(
            "/.proxy/api/session", {"access_token": token, "instance_id": s.instance_id}
        )
        assert status == 200 and body["seat"] == seat
        # the phone's app is gone: the socket is open, but nothing reads it or answers a ping
        ws = await s.http.ws_connect(
            f"{s.url}/.proxy/ws?t={body['ticket']}", autoping=False, heartbeat=None
        )

        def bo_connected() -> bool:
            return any(c.user_id == bo.id for c in site.hub.tables.get(live.id, ()))

        await s.fake.wait_for(bo_connected, 30, "bo's socket attached", poll=0.01)
        await s.fake.wait_for(lambda: not bo_connected(), 30, "the heartbeat", poll=0.02)

        assert user_at(live, seat) == bo.id and not live.seats[seat].standin
        assert (await s.bot.store.get_actions(live.game_id), live.deadline) == before
        assert not live.ended
        await ws.close()
