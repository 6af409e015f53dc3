"""Durability at the game level: six hint AIs play a five-game tribute series into a real
database (SQLite and PostgreSQL) in a child process (:mod:`tests.data.game_child`), which is killed with
SIGKILL at seeded random moments. After every kill the store still holds every action the
child acknowledged, in order; the series rebuilt from it the bot's way (``load_active_tables``
→ ``export_series_record`` → ``series_from_record``) is the state the logged actions give when
replayed through the engine alone; and a new child plays on from there. At the end the
series is exactly the one an uninterrupted run plays: same record, same totals, same
profiles."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

from data import Store
from engine.record import replay, series_from_record
from engine.scoring import title_for

from . import game_child
from .conftest import sqlite_file
from .crashkit import REPO_ROOT, Ack, parse_acks, run_and_kill, settled

SEED = 20261129
KILL_POINTS = 24
START_UP_KILLS = (0, 11)  # kill points where the child dies before acknowledging anything
DEAL_END_KILLS = (3, 7, 12, 16, 20)  # … right after acknowledging a deal's last action
CHILD = "tests.data.game_child"


async def series_state(db: str) -> tuple[int, tuple, dict, list[list[str]]]:
    """(series id, deal rows, restored series snapshot, action logs) as a restart sees them."""
    async with await Store.open(db) as store:
        active = await game_child.open_table(store)
        series = await game_child.restore(store, active)
    logs = [list(log.actions) for log in active.games]
    assert active.series is not None
    return active.series.id, active.games, game_child.snapshot(series), logs


async def uninterrupted(db: str) -> tuple[dict, list[Ack]]:
    """The series record and acknowledgements of a run that nobody kills."""
    acks: list[Ack] = []
    async with await Store.open(db) as store:
        series_id = await game_child.play_series(
            store, SEED, lambda game, index, action: acks.append(Ack(game, index, action))
        )
        return await store.export_series_record(series_id), acks


def kill_moment(
    rng: random.Random, point: int, committed: int, deal_ends: list[int]
) -> tuple[int, float]:
    """(acks to wait for, then seconds to wait) before kill ``point``, spreading the kills
    over what is left of the series: a few at start-up, some right after a deal's last
    action (while its result is recorded), the last one after the series' last action."""
    total, left = deal_ends[-1], KILL_POINTS - point
    if point in START_UP_KILLS or committed == total:
        return 0, rng.uniform(0.0, 0.25)
    if left == 1:
        return total - committed, rng.uniform(0.0, 0.01)
    end = next(e for e in deal_ends if e > committed)
    if point in DEAL_END_KILLS and end < total:
        return end - committed, 0.0
    step = rng.randint(1, max(1, 2 * (total - committed) // left - 1))
    return min(step, total - committed), rng.choice([0.0, 0.0, rng.uniform(0.0, 0.005)])


def where_killed(games: tuple, logs: list[list[str]], reference: list[list[str]]) -> str:
    """Which stretch of the child's work a kill interrupted, judged from the store."""
    if not games:
        return "before the first deal"
    last = games[-1].game
    if len(logs[-1]) < len(reference[len(logs) - 1]):
        return "mid-deal" if logs[-1] else "deal started, no action yet"
    if last.status == "playing":
        return "deal played out, result not recorded"
    return "between deals or at the end"


async def test_series_survives_sigkill_and_plays_on_identically(tmp_path, db_url) -> None:
    reference_db = str(tmp_path / "reference.db")  # the uninterrupted run, on SQLite
    record, reference_acks = await uninterrupted(reference_db)
    _, reference_games, _, reference = await series_state(reference_db)
    assert any(g.game.status == "void" for g in reference_games)  # the rigged deal was void
    deal_ends = [sum(map(len, reference[: k + 1])) for k in range(len(reference))]
    total = deal_ends[-1]
    assert total == len(reference_acks)

    db = db_url
    file = sqlite_file(db)
    rng = random.Random(SEED)
    acked: dict[tuple[int, int], str] = {}
    committed = 0  # actions in the store, over all deals
    landed: Counter[str] = Counter()
    independent_replay = game_child.LogReplay(SEED)  # applies what each kill point adds
    for point in range(KILL_POINTS):
        kill_after, delay = kill_moment(rng, point, committed, deal_ends)
        acks = run_and_kill(CHILD, [db, str(SEED), "60"], kill_after_acks=kill_after, delay=delay)
        acked.update({(a.game_id, a.index): a.action for a in acks})
        await settled(db)  # the dead child's last COMMIT may still land (PostgreSQL)
        if file is not None and not file.exists():
            landed["before the store opened"] += 1
            continue
        _, games, restored, logs = await series_state(db)
        # every acknowledged action is there, at its place
        logged = {
            (g.game.id, i): a for g, log in zip(games, logs, strict=True) for i, a in enumerate(log)
        }
        lost = {key: a for key, a in acked.items() if logged.get(key) != a}
        assert not lost, f"kill point {point}: acknowledged actions lost: {lost}"
        # whatever was logged is what an uninterrupted run plays, deal by deal
        for k, log in enumerate(logs):
            assert log == reference[k][: len(log)], f"kill point {point}: deal {k} differs"
        assert [g.game.hands for g in games] == [tuple(h) for h in _hands(record, len(games))]
        # the bot's restore gives the state the logs give through the engine alone
        independent = game_child.snapshot(independent_replay.extend(logs))
        assert restored == independent, f"kill point {point}: restored state differs"
        committed = sum(map(len, logs))
        place = where_killed(games, logs, reference)
        landed[f"start-up, {place}" if not kill_after else place] += 1

    finish = subprocess.run(
        [sys.executable, "-m", CHILD, db, str(SEED)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finish.returncode == 0, finish.stderr
    assert finish.stdout.splitlines()[-1] == "done"
    for ack in parse_acks(finish.stdout):
        acked[(ack.game_id, ack.index)] = ack.action
    print(f"\n{KILL_POINTS} kill points: {dict(landed)}; {len(acked)} of {total} acknowledged")

    async with await Store.open(db) as store:
        active = await game_child.open_table(store)
        assert active.series is not None
        final = await store.export_series_record(active.series.id)
        stored = await store.get_series(active.series.id)
        profiles = [await store.get_profile(game_child.GUILD, user) for user in game_child.USERS]
        board = await store.leaderboard(game_child.GUILD)
    assert final == record  # the kills changed nothing
    # a kill leaves at most one action committed but not acknowledged (killed in between)
    assert total - KILL_POINTS <= len(acked) <= total
    assert stored.status == "finished"
    assert replay(final)["totals"] == stored.totals
    engine_series = series_from_record(final)
    assert engine_series.totals() == stored.totals
    _check_profiles(engine_series, profiles)
    scores = engine_series.player_scores()
    expected = sorted(zip(game_child.USERS, scores, strict=True), key=lambda u: (-u[1], u[0]))
    assert [(p.user_id, p.score, title_for(p.score)) for p in board] == [
        (user, score, title_for(score)) for user, score in expected
    ]


def _hands(record: dict, count: int) -> list[list[str]]:
    return [game["hands"] for game in record["games"][:count]]


def _check_profiles(series, profiles) -> None:
    """Each user's profile is the engine's account of the series: the scores (team seat
    points + own penalties, game by game), places and openings."""
    played = [d for d in series.deals if d.finished]
    assert len(played) == 5
    scores = series.player_scores()
    for seat, profile in enumerate(profiles):
        assert profile.score == scores[seat]
        assert profile.games == 5
        places = Counter(d.game.places[seat] for d in played)
        assert profile.places == tuple(places[p] for p in range(1, 7))
        assert profile.opens == sum(d.game.opened[seat] for d in played)
