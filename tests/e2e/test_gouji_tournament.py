"""A tournament (比赛) through the fake Discord and the real discord.py client: the organiser
creates it with /gouji tournament new, twelve people enter, it starts; each round the people
sit down with /gouji tournament here (one does not, in round one: the organiser skips them
and an AI plays the seat) and hand their seats to the AI (托管: the test asks the service, as
a person would press 托管), so the games play by themselves. Checked: one post a round in the
event's channel naming each person's table, the standings answer, the final ranking with
the top three marked, the standings equal to a recomputation from the game records, no 429
and no unknown request."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.tournament import standings
from tests.e2e.fake_helpers import TIME_SCALE
from tests.fakediscord import BotRunner, FakeDiscord, SimUser
from tests.fakediscord.runner import running_fake

from .gouji_helpers import bot_factory

PLAYERS = [(f"p{i:02}", "zh-CN" if i % 2 else "en-US") for i in range(12)]
MEMBERS = [("org", "en-US"), *PLAYERS]


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


async def play_round(fake: FakeDiscord, bot, people: list[SimUser], number: int, absent=()):
    event = await bot.events.current(fake.guild_id)
    await until(lambda: _seated(bot, event.id, number), f"round {number} seated at its tables")
    for person in people:
        if person in absent:
            continue
        answer = await say(person, "here")
        assert "<#" in answer, answer
    if absent:
        await say(fake.member("org"), "skip")
    board = await bot.events.board(fake.guild_id)
    for person in people:
        table = board.plan.table_of(person.id)
        if person in absent or table is None:
            continue
        channel = board.channels[table.number]
        await until(lambda n=table.number: _playing(bot, event.id, number, n), "the table started")
        await bot.service.hand_over(channel, person.id)


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


async def test_a_swiss_tournament_of_twelve_through_discord(tmp_path: Path) -> None:
    async with running_fake(
        members=MEMBERS, channels=("gouji", "t1", "t2"), time_scale=TIME_SCALE
    ) as fake:
        org = fake.member("org")
        people = [fake.member(name) for name, _ in PLAYERS]
        t1, t2 = fake.channel("t1"), fake.channel("t2")
        home = fake.channel("gouji")
        async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
            bot = runner.client
            created = await say(
                org,
                "new",
                name="周赛",
                format="swiss",
                rounds=2,
                channels=f"<#{t1.id}> <#{t2.id}>",
                gap=0,
                show_up=600,
            )
            assert "周赛" in created and f"<#{t1.id}>" in created
            for person in people:
                assert "周赛" in await say(person, "join")
            before = {m.id for m in fake.messages_in(home.id)}
            assert "周赛" in await say(org, "start")
            no_show = people[3]
            await play_round(fake, bot, people, 1, absent=(no_show,))
            await play_round(fake, bot, people, 2)
            assert bot.events is not None
            event = await bot.events.current(fake.guild_id)
            await until(lambda: _status(bot, event.id, "finished"), "the tournament finished", 6000)
            await fake.wait_for(
                lambda: any("🥇" in m.content for m in fake.messages_in(home.id)),
                10,
                "the final ranking posted",
            )
            state = await bot.store.load_tournament(event.id)
            final = standings(state.tournament.config, state.players, state.rounds, state.left)
            # the standings: each person's profile on the server (the game records' own
            # scores: they played no other game) — every table counted once
            for person in people:
                profile = await bot.store.get_profile(fake.guild_id, person.id)
                assert next(s for s in final if s.player == person.id).points == profile.score
            assert (await bot.store.get_profile(fake.guild_id, no_show.id)).games == 1
            absent = [
                r for res in state.rounds[0].results.values() for r in res if r.player == no_show.id
            ]
            assert absent[0].absent and absent[0].points == 0
            # the posts: one a round, naming each person's table, then the final ranking
            posted = [
                m
                for m in fake.messages_in(home.id)
                if not m.ephemeral and m.interaction_id is None and m.id not in before
            ]
            rounds = [m for m in posted if "/gouji tournament here" in m.content]
            assert len(rounds) == 2
            assert all(m.attachments for m in rounds)  # the standings picture with the post
            for m in rounds:
                assert all(f"<@{p.id}>" in m.content for p in people)
                assert f"<#{t1.id}>" in m.content and f"<#{t2.id}>" in m.content
            finals = [m for m in posted if "🥇" in m.content]
            assert len(finals) == 1
            top = final[0].player
            assert f"🥇. <@{top}>" in finals[0].content and "🥉" in finals[0].content
            assert finals[0].attachments
            rec = await people[0].slash("gouji", "tournament", "standings")
            board = await rec.original()
            assert f"<@{top}>" in board.content and board.attachments and board.ephemeral
            assert not [r for r in fake.requests if r.status == 429]
            assert not fake.unknown_requests


async def _status(bot, event_id: int, status: str) -> bool:
    return (await bot.store.get_tournament(event_id)).status == status
