"""A tournament run by the service over real tables (bot/service/tournaments.py): people
show up at their seats and hand them to the AI (托管), so the games play out by themselves;
AI seats fill where the format allows. Checked: the seating rules round by round, the
standings equal to a recomputation from the game records, a no-show replaced by an AI seat
(scoring nothing), a leaver, and a restart mid-round that loses no game and counts none
twice."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from bot.service.errors import UserError
from bot.service.live import LiveTable
from bot.service.tables import TableService
from bot.service.tournaments import Board, TournamentService
from data import Store
from data.claims import Shards
from data.tournaments import Tournament
from engine.tournament import Config, Format, History, RoundPlan, Standing, standings
from tests.data.conftest import raw_sql

from .helpers import FakeClock, make_service

GUILD, HOME, ORGANISER = 7 << 22, 900, 1
PEOPLE = list(range(1001, 1019))  # 18


class Threads:
    """The venues: a new channel id for each table (Discord: a thread)."""

    def __init__(self) -> None:
        self.made: list[tuple[int, int, int]] = []

    async def table_channel(self, event: Tournament, round_number: int, table: int) -> int:
        self.made.append((event.id, round_number, table))
        return 5000 + len(self.made)


class Posts:
    """What the front end would post: each round's seating, the final ranking."""

    def __init__(self) -> None:
        self.rounds: list[tuple[RoundPlan, dict[int, int]]] = []
        self.final: list[Board] = []

    async def round_seated(
        self, event: Tournament, plan: RoundPlan, channels: dict[int, int], board: Board
    ) -> None:
        self.rounds.append((plan, channels))

    async def event_over(self, event: Tournament, board: Board) -> None:
        self.final.append(board)


def runner(store: Store) -> tuple[TableService, TournamentService, Threads, Posts, FakeClock]:
    clock = FakeClock()
    service, _ = make_service(store, clock=clock)
    threads, posts = Threads(), Posts()
    return service, TournamentService(service, threads, posts), threads, posts, clock


async def show_up_and_hand_over(
    service: TableService, events: TournamentService, people: list[int]
) -> list[LiveTable]:
    """Everyone in ``people`` seated this round sits down; the tables start; each person
    hands their seat to the AI. The tables, to settle."""
    board = await events.board(GUILD)
    assert board.plan is not None
    seated = [p for t in board.plan.tables for p in t.players if p in people]
    for p in seated:
        await events.show_up(GUILD, p)
    await events.step(board.event.id)
    lives: dict[int, LiveTable] = {}
    for p in seated:
        plan = board.plan.table_of(p)
        assert plan is not None
        live, _ = await service.hand_over(service.tables.table_in(board.channels[plan.number]), p)
        lives[live.id] = live
    return list(lives.values())


async def play_round(service: TableService, events: TournamentService, people: list[int]) -> None:
    for live in await show_up_and_hand_over(service, events, people):
        await service.settle(live)
    await events.step((await events.current(GUILD)).id)


async def recomputed(store: Store, event_id: int) -> tuple[dict[int, int], Counter[int]]:
    """Each person's points from the game records of the event's tables alone, and the
    games recorded at each table."""
    state = await store.load_tournament(event_id)
    tables = [t.table_id for t in state.tables if t.table_id is not None]
    points: dict[int, int] = defaultdict(int)
    games: Counter[int] = Counter()
    async with raw_sql(store.path) as conn:
        for table_id in tables:
            rows = await conn.fetch(
                "SELECT r.updates FROM game_results AS r JOIN games AS g ON g.id = r.game_id "
                "JOIN series AS s ON s.id = g.series_id WHERE s.table_id = ?",
                (table_id,),
            )
            for (text,) in rows:
                games[table_id] += 1
                for u in json.loads(text):
                    points[u["user_id"]] += u["score_delta"]
    return dict(points), games


def check_seating(config: Config, plans: list[RoundPlan], boards: list[list[Standing]]) -> None:
    """No partner twice; every person seated once a round; a table's people of similar
    standing (within one table of their bracket's)."""
    history = History()
    for plan, lines in zip(plans, boards, strict=True):
        active = [s.player for s in lines if s.active]
        seated = [p for t in plan.tables for p in t.players]
        assert sorted(seated) == sorted(active)
        for table in plan.tables:
            history.add(table.seats)
            for p in table.players:
                rank = active.index(p)
                assert abs(rank // 6 - (table.number - 1)) <= 1
    assert max(history.partners.values()) == 1


async def test_a_swiss_event_of_18_with_a_no_show_and_a_leaver(store: Store) -> None:
    service, events, threads, posts, clock = runner(store)
    config = Config(name="周赛", format=Format.SWISS, rounds=4, seed=54, gap=0, show_up=60)
    event = await events.create(GUILD, HOME, ORGANISER, config)
    for p in PEOPLE:
        await events.join(GUILD, p)
    await events.start(GUILD, ORGANISER)
    no_show, leaver = PEOPLE[4], PEOPLE[9]
    lines_before: list[list[Standing]] = []
    for number in range(1, 5):
        state = await store.load_tournament(event.id)
        lines_before.append(standings(config, state.players, state.rounds[:-1], state.left))
        people = [p for p in PEOPLE if not (number == 2 and p == no_show)]
        if number == 2:
            lives = await show_up_and_hand_over(service, events, people)
            assert all(
                not live.playing for live in lives if no_show in [s.user_id for s in live.seats]
            )
            clock.advance(61)  # the show-up deadline: an AI seat plays for the no-show
            await events.step(event.id)
            for live in lives:
                await service.settle(live)
            await events.step(event.id)
        elif number == 3:  # the leaver leaves mid-game: the AI plays on, they are out
            lives = await show_up_and_hand_over(service, events, people)
            await events.leave(GUILD, leaver)
            for live in lives:
                await service.settle(live)
            await events.step(event.id)
        else:
            await play_round(service, events, [p for p in people if number < 4 or p != leaver])
    state = await store.load_tournament(event.id)
    assert state.tournament.status == "finished"
    plans = [r.plan for r in state.rounds]
    assert [len(p.tables) for p in plans] == [3, 3, 3, 3]
    assert sum(t.seats.count(None) for t in plans[3].tables) == 1  # the leaver's place
    assert leaver not in {p for t in plans[3].tables for p in t.players}
    check_seating(config, plans, lines_before)
    final = standings(config, state.players, state.rounds, state.left)
    by = {s.player: s for s in final}
    points, games = await recomputed(store, event.id)
    assert set(games.values()) == {1} and len(games) == 12  # one game a table, once
    for p in PEOPLE:
        assert by[p].points == points.get(p, 0)
    absent = state.rounds[1].results[plans[1].table_of(no_show).number]  # type: ignore[union-attr]
    assert [r for r in absent if r.player == no_show][0].absent
    assert no_show not in points or points[no_show] == sum(
        r.points
        for rnd in state.rounds
        for res in rnd.results.values()
        for r in res
        if r.player == no_show
    )
    assert by[leaver].status == "left" and by[leaver].rank == 18
    assert [p for p, _ in posts.rounds] == plans  # one post a round
    assert all(len(c) == len(p.tables) for p, c in posts.rounds)
    assert len(threads.made) == 12
    assert len(posts.final) == 1 and posts.final[0].lines[0].rank == 1
    await service.close()


async def test_a_knockout_of_24_over_3_rounds(store: Store) -> None:
    service, events, threads, posts, clock = runner(store)
    config = Config(
        name="打立出局", format=Format.KNOCKOUT, rounds=3, seed=8, gap=0, start_points=20
    )
    event = await events.create(GUILD, HOME, ORGANISER, config)
    people = list(range(2001, 2025))
    for p in people:
        await events.join(GUILD, p)
    await events.start(GUILD, ORGANISER)
    for _ in range(3):
        await play_round(service, events, people)
    state = await store.load_tournament(event.id)
    assert state.tournament.status == "finished"
    assert len(state.rounds[0].plan.tables) == 4 and len(state.rounds[2].plan.tables) == 1
    final = standings(config, state.players, state.rounds)
    finalists = set(state.rounds[2].plan.tables[0].players)
    assert {s.player for s in final[:6]} == finalists
    assert posts.final[0].lines == tuple(final)
    await service.close()


async def test_a_restart_mid_round_resumes_without_losing_or_repeating_a_game(
    db_path,
) -> None:
    config = Config(name="x", format=Format.SWISS, rounds=2, seed=3, gap=0)
    people = list(range(3001, 3013))
    async with await Store.open(db_path) as store:
        service, events, _threads, _posts, _clock = runner(store)
        event = await events.create(GUILD, HOME, ORGANISER, config)
        for p in people:
            await events.join(GUILD, p)
        await events.start(GUILD, ORGANISER)
        lives = await show_up_and_hand_over(service, events, people)
        await service.settle(lives[0])  # one table played out, the other stopped mid-game
        await service.close()
    async with await Store.open(db_path) as store:
        service, events, _threads, posts, _clock = runner(store)
        await service.restore()
        await events.step(event.id)
        board = await events.board(GUILD)
        assert board.plan is not None and board.plan.number == 1
        assert board.finished_tables == {1}  # played before the restart: counted now
        for table in board.plan.tables[1:]:
            live, _ = await service.hand_over(
                service.tables.table_in(board.channels[table.number]), table.players[0]
            )
            await service.settle(live)
        await events.step(event.id)
        await play_round(service, events, people)
        state = await store.load_tournament(event.id)
        assert state.tournament.status == "finished"
        _points, games = await recomputed(store, event.id)
        assert set(games.values()) == {1} and len(games) == 4
        await service.close()


class DownPosts(Posts):
    """Posts that fail the first ``failures`` times (Discord down, or the process killed
    between a round's opening and its post)."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    async def round_seated(
        self, event: Tournament, plan: RoundPlan, channels: dict[int, int], board: Board
    ) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("Discord is down")
        await super().round_seated(event, plan, channels, board)


async def test_a_seating_not_posted_is_posted_at_the_next_look_and_after_a_restart(
    db_path,
) -> None:
    config = Config(name="x", format=Format.SWISS, rounds=1, seed=8, gap=0, show_up=60)
    async with await Store.open(db_path) as store:
        clock = FakeClock()
        service, _ = make_service(store, clock=clock)
        posts = DownPosts(failures=1)
        events = TournamentService(service, Threads(), posts)
        event = await events.create(GUILD, HOME, ORGANISER, config)
        for p in PEOPLE[:12]:
            await events.join(GUILD, p)
        await events.start(GUILD, ORGANISER)  # seated; the post failed (logged), not the start
        assert posts.rounds == [] and len((await events.board(GUILD)).channels) == 2
        await events.step(event.id)
        assert len(posts.rounds) == 1  # the next look posted it
        await events.step(event.id)
        assert len(posts.rounds) == 1  # once
        await service.close()
    async with await Store.open(db_path) as store:  # a new process: the players not seated yet
        service, _ = make_service(store, clock=clock)
        await service.restore()
        again = Posts()
        events = TournamentService(service, Threads(), again)
        await events.step(event.id)
        assert [plan.number for plan, _ in again.rounds] == [1]  # told again, at least once
        await show_up_and_hand_over(service, events, PEOPLE[:12])
        await events.step(event.id)
        assert len(again.rounds) == 1  # not once the tables play
        await service.close()


async def test_the_organiser_pauses_resumes_and_ends_early_and_the_gap_is_kept(
    store: Store,
) -> None:
    service, events, threads, posts, clock = runner(store)
    config = Config(name="x", format=Format.SWISS, rounds=3, seed=5, gap=30, ai_fill=False)
    event = await events.create(GUILD, HOME, ORGANISER, config)
    people = PEOPLE[:8]  # eight without AI seats: one table and two byes a round
    for p in people:
        await events.join(GUILD, p)
    with pytest.raises(UserError) as refused:
        await events.start(GUILD, people[0])
    assert refused.value.key == "tournament_organiser"
    await events.start(GUILD, ORGANISER)
    first = (await store.load_tournament(event.id)).rounds[0].plan
    assert len(first.tables) == 1 and len(first.byes) == 2
    await play_round(service, events, people)
    state = await store.load_tournament(event.id)
    assert len(state.rounds) == 1 and state.rounds[0].over  # the gap: not seated yet
    clock.advance(29)
    await events.step(event.id)
    assert len((await store.load_tournament(event.id)).rounds) == 1
    await events.pause(GUILD, ORGANISER)
    clock.advance(5)
    await events.step(event.id)
    assert len((await store.load_tournament(event.id)).rounds) == 1  # paused: no new round
    with pytest.raises(UserError):
        await events.pause(GUILD, ORGANISER)
    await events.resume(GUILD, ORGANISER)
    await events.step(event.id)
    state = await store.load_tournament(event.id)
    assert len(state.rounds) == 2
    second = state.rounds[1].plan
    assert not set(second.byes) & set(first.byes)  # nobody a second bye
    lives = await show_up_and_hand_over(service, events, people)
    ended = await events.end(GUILD, ORGANISER)  # mid-round: the table's game is dropped
    assert ended.status == "ended"
    for live in lives:
        await service.settle(live)
    state = await store.load_tournament(event.id)
    assert not state.rounds[1].results  # nothing of the unfinished round counts
    assert len(posts.final) == 1 and posts.final[0].event.status == "ended"
    final = standings(config, state.players, state.rounds)
    assert [s.rank for s in posts.final[0].lines] == list(range(1, 9))
    assert sum(s.rounds for s in final) == 6 and sum(s.byes for s in final) == 4
    with pytest.raises(UserError) as over:
        await events.join(GUILD, 999)
    assert over.value.key == "tournament_started"
    await service.close()


async def test_a_process_runs_only_its_shards_events(db_path) -> None:
    config = Config(name="x", format=Format.SWISS, rounds=1, seed=1, gap=0)
    async with await Store.open(db_path) as store:
        mine, theirs = 1 << 22, 2 << 22  # shard 1 and shard 0 of two
        clock = FakeClock()
        service, _ = make_service(store, clock=clock, shards=Shards(2, (1,)))
        events = TournamentService(service, Threads(), Posts(), poll=0.01)
        for guild in (mine, theirs):
            ev = await store.create_tournament(guild, HOME, ORGANISER, config)
            for p in PEOPLE[:6]:
                await store.join_tournament(ev.id, p)
            await store.set_tournament_status(ev.id, "running")
        await events._step_all()  # what the background loop does at each look
        seated = {e.guild_id: e.round for e in await store.running_tournaments()}
        assert seated == {mine: 1, theirs: 0}
        await service.close()
