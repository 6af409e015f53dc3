"""Tournaments (比赛) through the fake Discord and the real discord.py client: a Swiss event of
18 people over 4 rounds of single games, then a 打立出局 event of 24 over 3 rounds on the same
server. The organiser creates each with /gouji tournament new, the people enter, it starts;
each round the people seated sit down with /gouji tournament here (one does not, in the
Swiss event's first round: the organiser skips them and an AI plays the seat) and hand their
seats to the AI (托管: the test asks the service, as a person would press 托管), so the
games play by themselves. Checked round by round: the seating rules (no partner twice,
similar standing together; the knockout's survivors those at or above the line); each
table's results equal a recomputation from its game's record; one post a round naming each
person's table with the standings picture, the standings answer, the final ranking with the
top three marked; no 429 and no unknown request."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from engine.tournament import History, standings
from tests.data.conftest import raw_sql
from tests.e2e.fake_helpers import TIME_SCALE
from tests.fakediscord import BotRunner, FakeDiscord, SimUser
from tests.fakediscord.runner import running_fake

from .gouji_helpers import bot_factory

PLAYERS = [(f"p{i:02}", "zh-CN" if i % 2 else "en-US") for i in range(24)]
MEMBERS = [("org", "en-US"), *PLAYERS]
VENUES = ("t1", "t2", "t3", "t4")


async def until(check, what: str, tries: int = 4000) -> None:
    """Wait (yielding to the bot) until the async ``check()`` holds."""
    for _ in range(tries):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def say(user: SimUser, *path: str, **options) -> str:
    message = await (await user.slash("gouji", "tournament", *path, **options)).original()
    return message.content


async def play_round(fake: FakeDiscord, bot, number: int, absent=()) -> None:
    """Round ``number``: the people seated sit down (but ``absent``), the organiser skips
    the absent, everyone seated hands their seat to the AI once their table started."""
    event = await bot.events.current(fake.guild_id)
    await until(lambda: _seated(bot, event.id, number), f"round {number} seated at its tables")
    board = await bot.events.board(fake.guild_id)
    seated = [fake.member(p) for t in board.plan.tables for p in t.players]
    for person in seated:
        if person not in absent:
            answer = await say(person, "here")
            assert "<#" in answer, answer
    if absent:
        await say(fake.member("org"), "skip")
    for person in seated:
        if person in absent:
            continue
        table = board.plan.table_of(person.id)
        await until(lambda n=table.number: _playing(bot, event.id, number, n), "the table started")
        await bot.service.hand_over(
            bot.service.tables.table_in(board.channels[table.number]), person.id
        )


async def _seated(bot, event_id: int, number: int) -> bool:
    state = await bot.store.load_tournament(event_id)
    return state.tournament.round == number and all(
        t.table_id is not None for t in state.tables if t.round == number
    )


async def _playing(bot, event_id: int, number: int, table: int) -> bool:
    state = await bot.store.load_tournament(event_id)
    return any(
        t.round == number and t.number == table and t.status != "seated" for t in state.tables
    )


async def recorded(bot, event_id: int) -> dict[tuple[int, int], dict[int, int]]:
    """Each event table's players' points from its game records alone: (round, table) →
    {user: the sum of their games' score changes}."""
    state = await bot.store.load_tournament(event_id)
    out: dict[tuple[int, int], dict[int, int]] = {}
    async with raw_sql(bot.store.path) as conn:
        for t in state.tables:
            rows = await conn.fetch(
                "SELECT r.updates FROM game_results AS r JOIN games AS g ON g.id = r.game_id "
                "JOIN series AS s ON s.id = g.series_id WHERE s.table_id = ?",
                (t.table_id,),
            )
            sums: dict[int, int] = {}
            for (text,) in rows:
                for u in json.loads(text):
                    sums[u["user_id"]] = sums.get(u["user_id"], 0) + u["score_delta"]
            out[(t.round, t.number)] = sums
    return out


async def run_event(fake: FakeDiscord, bot, name: str, fmt: str, rounds: int, people, absent=()):
    """Create, enter, start and play an event through Discord; its state once finished and
    the event channel's messages it posted."""
    home = fake.channel("gouji")
    org = fake.member("org")
    tables = -(-len(people) // 6)
    venues = " ".join(f"<#{fake.channel(v).id}>" for v in VENUES[:tables])
    created = await say(
        org, "new", name=name, format=fmt, rounds=rounds, channels=venues, gap=0, show_up=600
    )
    assert name in created and venues.split()[0] in created
    for person in people:
        assert name in await say(person, "join")
    before = {m.id for m in fake.messages_in(home.id)}
    assert name in await say(org, "start")
    for number in range(1, rounds + 1):
        await play_round(fake, bot, number, absent if number == 1 else ())
    event = await bot.events.current(fake.guild_id)

    async def finished() -> bool:
        return (await bot.store.get_tournament(event.id)).status == "finished"

    await until(finished, f"{name} finished", 6000)
    await fake.wait_for(
        lambda: any(name in m.content and "🥇" in m.content for m in fake.messages_in(home.id)),
        10,
        "the final ranking posted",
    )
    posted = [
        m
        for m in fake.messages_in(home.id)
        if not m.ephemeral and m.interaction_id is None and m.id not in before
    ]
    return await bot.store.load_tournament(event.id), posted


def check_posts(state, posted, people) -> None:
    """One post a round naming each person seated and their table's channel, with the
    standings picture; the final ranking with the top three marked."""
    rounds = [m for m in posted if "/gouji tournament here" in m.content]
    assert len(rounds) == len(state.rounds)
    for m, rnd in zip(rounds, state.rounds, strict=True):
        assert m.attachments
        for table in rnd.plan.tables:
            assert all(f"<@{p}>" in m.content for p in table.players)
    finals = [m for m in posted if "🥇" in m.content]
    assert len(finals) == 1 and finals[0].attachments and "🥉" in finals[0].content
    final = standings(state.tournament.config, state.players, state.rounds, state.left)
    assert f"🥇. <@{final[0].player}>" in finals[0].content


async def test_a_swiss_event_of_18_then_a_knockout_of_24_through_discord(tmp_path: Path) -> None:
    async with running_fake(
        members=MEMBERS, channels=("gouji", *VENUES), time_scale=TIME_SCALE
    ) as fake:
        people = [fake.member(name) for name, _ in PLAYERS]
        async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
            bot = runner.client
            # --- Swiss (瑞士移位): 18 people, 4 rounds, a no-show in round 1
            swiss, no_show = people[:18], people[3]
            state, posted = await run_event(fake, bot, "周赛", "swiss", 4, swiss, (no_show,))
            config = state.tournament.config
            history = History()
            for k, rnd in enumerate(state.rounds):
                before = standings(config, state.players, state.rounds[:k], state.left)
                active = [s.player for s in before if s.active]
                assert sorted(p for t in rnd.plan.tables for p in t.players) == sorted(active)
                for table in rnd.plan.tables:
                    history.add(table.seats)
                    for p in table.players:  # similar standing: within a table of their bracket
                        assert abs(active.index(p) // 6 - (table.number - 1)) <= 1
            assert max(history.partners.values()) == 1  # nobody partnered twice
            games = await recorded(bot, state.tournament.id)
            for rnd in state.rounds:
                for number, results in rnd.results.items():
                    mine = games[(rnd.plan.number, number)]
                    assert {r.player: r.points for r in results if not r.absent} == mine
            absent = [r for res in state.rounds[0].results.values() for r in res if r.absent]
            assert [(r.player, r.points) for r in absent] == [(no_show.id, 0)]
            final = standings(config, state.players, state.rounds, state.left)
            for s in final:  # the profiles: every game of the event counted once
                profile = await bot.store.get_profile(fake.guild_id, s.player)
                assert profile.score == s.points and profile.games == s.rounds - (
                    1 if s.player == no_show.id else 0
                )
            check_posts(state, posted, swiss)
            answer = await (await people[0].slash("gouji", "tournament", "standings")).original()
            assert f"<@{final[0].player}>" in answer.content and answer.attachments
            # --- 打立出局 then 定局: 24 people, 3 rounds (two to qualify, one final)
            state, posted = await run_event(fake, bot, "打立出局", "knockout", 3, people)
            config = state.tournament.config
            assert [len(r.plan.tables) for r in state.rounds][0] == 4
            assert len(state.rounds[-1].plan.tables) == 1
            games = await recorded(bot, state.tournament.id)
            for rnd in state.rounds:
                for number, results in rnd.results.items():
                    mine = games[(rnd.plan.number, number)]
                    assert {r.player: r.points for r in results} == mine
            after_one = standings(config, state.players, state.rounds[:1])
            survivors = {s.player for s in after_one if s.active}
            assert survivors == {p for t in state.rounds[1].plan.tables for p in t.players}
            assert all(s.points >= config.start_points for s in after_one if s.active) or (
                len(survivors) == config.finalists
            )
            final = standings(config, state.players, state.rounds)
            finalists = set(state.rounds[-1].plan.tables[0].players)
            assert {s.player for s in final[:6]} == finalists
            check_posts(state, posted, people)
            # each player's profile lists their results, latest first
            card = await (await people[0].slash("gouji", "score")).original()
            lines = card.content.splitlines()
            assert card.attachments and "打立出局" in lines[0] and "周赛" in lines[1]
            assert not [r for r in fake.requests if r.status == 429]
            assert not fake.unknown_requests
