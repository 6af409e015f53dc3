"""Faults in the middle of a game, through the fake Discord and the real discord.py client,
and the game (or series) finishing correctly afterwards.

Four people (seats 0-3) and two AI seats play as in test_gouji_series.py; a fault is set off
at a quiet moment (a person is to act). After each test the database must agree with the
engine's replay of the exported record, every interaction must have been answered, and the
only failed requests are the ones the test planned.

Covered here: closed DMs (the player acts from the ephemeral controller of /gouji hand), 429s on
the message-send and message-edit routes, 500s on the interaction callback and a message
edit, the gateway dropped (abruptly and cleanly) and an outage with interactions made during
it, and a restart of the bot in the middle of the second game of a series (an old DM button
still acts).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.record import replay_series
from tests.fakediscord import BotRunner, FakeDiscord, SimUser

from .gouji_helpers import bot_factory, find_prompt, next_person
from .test_gouji_series import _answer_prompt, _kind, _take_turn

PEOPLE = ("alice", "bo", "chen", "dana")  # seats 0-3; seats 4 and 5 are AI
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"


@dataclass
class Table:
    """The test's hold on one table: the runner (whose client a restart replaces), the
    people in seats 0-3 and those of them who play without DMs."""

    fake: FakeDiscord
    runner: BotRunner
    users: list[SimUser]
    by_slash: set[int] = field(default_factory=set)  # user ids
    steps: int = 0

    @property
    def bot(self):
        return self.runner.client

    @property
    def live(self):
        return self.bot.service.table_in(self.fake.channel("gouji").id)


async def _open(fake: FakeDiscord, runner: BotRunner, *, series: bool) -> Table:
    users = [fake.member(name) for name in PEOPLE]
    new = users[0].slash("gouji", "new", series=series, turn_time=120, burn_time=60)
    await (await new).original()
    for user in users[1:]:
        await (await user.slash("gouji", "join")).original()
    await (await users[0].slash("gouji", "ai", "add")).original()
    return Table(fake, runner, users)


async def _start(t: Table) -> None:
    await (await t.users[0].slash("gouji", "start")).original()


def _progress(t: Table) -> tuple:
    live = t.live
    if not live.playing:
        return ("over",)
    return (len(live.series.deals), t.bot.service.question_token(live), live.series.to_act)


async def _step(t: Table, seat: int) -> None:
    """The person in ``seat`` answers what they are asked; the table must move on."""
    user, live, service = t.users[seat], t.live, t.bot.service
    before = _progress(t)
    t.steps += 1
    kind = _kind(live)
    if user.id in t.by_slash:
        await _act_without_dms(t, user, kind)
    elif kind == "turn":
        await _take_turn(user, service, live, t.steps)
    else:
        await _answer_prompt(t.fake, service, user, live, kind, t.steps)
    await t.fake.wait_for(lambda: _progress(t) != before, 10, "the table to move on", poll=0.005)


async def _play(t: Table, until: Callable[[Table], bool] = lambda t: False) -> int | None:
    """People act until ``until(t)`` holds at a person's turn (their seat is returned) or the
    series is over (None)."""
    while True:
        seat = await next_person(t.fake, t.bot, t.live)
        if seat is None or until(t):
            return seat
        await _step(t, seat)


async def _act_without_dms(t: Table, user: SimUser, kind: str) -> None:
    """No DMs: every action from the ephemeral hand controller of /gouji hand — the first
    play of its menu (or a pass), a burn from its menu every other time, else the question's
    "no"; the return menu."""
    shown = await (await user.slash("gouji", "hand")).original()
    assert shown.ephemeral and shown.attachments[0].filename == "hand.png"
    prefix = f"{t.live.id}:{t.bot.service.question_token(t.live)}:"
    selects = {s["custom_id"].rsplit(":", 1)[1]: s for s in shown.selects()}
    buttons = {b["custom_id"].rsplit(":", 1)[1]: b for b in shown.buttons()}
    assert all(c["custom_id"].split(":", 1)[1].startswith(prefix) for c in selects.values())
    verb = {"turn": "play", "burn": "burn", "return": "return"}.get(kind)
    menu = selects.get(verb or "")
    if menu is not None and (kind != "burn" or t.steps % 2):
        values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
        await (await user.select(shown, menu["custom_id"], values)).response()
        return
    no = {"turn": "pass", "declare": "nodeclare", "revolt": "norevolt", "burn": "noburn"}[kind]
    await (await user.click(shown, buttons[no]["custom_id"])).response()


async def _check_finished(t: Table, games: int, refused: int = 0) -> None:
    """The series is over and the database agrees with the engine's replay of the exported
    record; every interaction was answered; no request failed but the planned ones."""
    bot, live, fake = t.bot, t.live, t.fake
    async with live.lock:  # the last action's aftermath (results, series end) is written
        pass
    await bot.presenter.drain()
    record = await bot.store.export_series_record(live.series_id)
    replay = replay_series({**record, "games_total": games, "tribute": games > 1})
    assert len([g for g in replay["games"] if g["finished"]]) == games
    row = await bot.store.get_series(live.series_id)
    assert row.status == "finished" and row.totals == replay["totals"]
    for seat, user in enumerate(t.users):
        profile = await bot.store.get_profile(fake.guild_id, user.id)
        assert profile.games == games
        assert profile.score == replay["team_totals"][seat % 2] + replay["penalties"][seat]
    unanswered = [rec for rec in fake.interactions.values() if rec.latency is None]
    assert not unanswered, f"unanswered interactions: {unanswered}"
    assert not fake.unknown_requests
    failed = [r for r in fake.requests if r.status >= 400 and r.fault is None]
    assert [r.status for r in failed] == [403] * refused, failed


# ----------------------------------------------------------------------------- closed DMs
async def test_a_player_without_dms_plays_through_hand_and_play(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        t = await _open(fake, runner, series=False)
        dana = t.users[3]
        dana.refuse_dms()
        t.by_slash.add(dana.id)
        await _start(t)
        await _play(t)
        notices = [
            m
            for m in fake.messages_in(fake.channel("gouji").id)
            if "/gouji hand" in m.content and dana.mention in m.content
        ]
        assert len(notices) == 1 and not notices[0].ephemeral, "the channel is told once"
        assert not dana.dms()
        commands = [
            rec.data["options"][0]["name"]
            for rec in fake.interactions.values()
            if rec.user_id == dana.id and rec.type == 2
        ][1:]  # after /gouji join
        clicked = [
            rec for rec in fake.interactions.values() if rec.user_id == dana.id and rec.type == 3
        ]
        assert set(commands) == {"hand"} and len(clicked) == len(commands), "all from /gouji hand"
        assert all(fake.messages[rec.message_id].ephemeral for rec in clicked)
        public = [m for m in fake.messages_in(fake.channel("gouji").id) if not m.ephemeral]
        mentions = [m for m in public if dana.mention in m.content and m not in notices]
        assert 0 < len(mentions) <= len(commands), "at most one kept mention per question"
        assert not [m for m in public if m.deleted_at and "<@" in m.content], "no ghost pings"
        await _check_finished(t, games=1, refused=1)


# ----------------------------------------------------------------------------- REST faults
async def test_rate_limits_and_server_errors_mid_game_are_waited_out(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        t = await _open(fake, runner, series=False)
        await _start(t)
        await _play(t, lambda t: t.live.game.phase == "play" and t.steps >= 8)
        channel, table_message = fake.channel("gouji").id, t.live.table.message_id
        dm = t.users[0].dm_channel().id  # the hand controllers are re-sent in the DMs
        faults = [  # a player's DMs, the table picture's edits; any edit, any answer
            fake.faults.rate_limit("POST", f"/channels/{dm}/messages", times=3, retry_after=0.2),
            fake.faults.rate_limit(
                "PATCH", f"/channels/{channel}/messages/{table_message}", times=2, retry_after=0.3
            ),
            fake.faults.server_error("POST", CALLBACK, times=1),
            fake.faults.server_error("PATCH", MESSAGE, times=1, status=502),
        ]
        await _play(t)
        assert [f.hits for f in faults] == [3, 2, 1, 1], "every planned fault was met"
        refused = [r for r in fake.requests if r.fault is not None]
        for r in refused:  # each refused call went through later
            assert any(
                later.at > r.at
                and later.method == r.method
                and later.path == r.path
                and later.status < 300
                for later in fake.requests
            ), f"{r.method} {r.path} was never retried"
        await _check_finished(t, games=1)


# ----------------------------------------------------------------------------- gateway, restart
async def test_gateway_drops_an_outage_and_a_restart_through_a_series(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        t = await _open(fake, runner, series=True)
        await _start(t)
        (session,) = fake.gateway.sessions.values()

        for n, abrupt in enumerate((True, False), start=1):
            await _play(t, lambda t, n=n: t.steps >= 10 * n)
            await fake.gateway.drop(abrupt=abrupt)
            await _play(t, lambda t, n=n: t.steps >= 10 * n + 5)  # acting while it reconnects
            await fake.wait_for(lambda n=n: session.resumes == n, 10, f"resume {n}")
        await _outage(t)
        assert session.resumes == 3 and len(fake.gateway.sessions) == 1, "always resumed"

        seat = await _play(
            t, lambda t: len(t.live.series.deals) >= 2 and t.steps >= 40 and _kind(t.live) == "turn"
        )
        await _restart(t, seat)
        assert len(fake.gateway.sessions) == 2
        await _play(t)
        await _check_finished(t, games=5)


async def _turn_prompt(t: Table, user: SimUser) -> tuple:
    """The DM asking ``user`` for the open turn, and its "play the hint" button's id."""
    token = f"{t.bot.service.question_token(t.live)}:"

    def found() -> tuple | None:
        prompt, custom_id = find_prompt(user, t.live.id, "playhint", token=token)
        return (prompt, custom_id) if prompt is not None else None

    return await t.fake.wait_for(found, 10, f"{user.name}'s turn DM")


async def _outage(t: Table) -> None:
    """Interactions made while the gateway is down reach the bot on resume and are answered."""
    fake = t.fake
    seat = await _play(t, lambda t: _kind(t.live) == "turn")
    user = t.users[seat]
    prompt, custom_id = await _turn_prompt(t, user)
    before = _progress(t)
    async with fake.gateway.outage():
        hand = await user.slash("gouji", "hand")
        play = await user.click(prompt, custom_id)
        assert hand.dispatched_at is None and play.dispatched_at is None
    over = time.monotonic()
    await play.response()
    assert play.dispatched_at >= over and hand.dispatched_at >= over, "delivered on resume"
    assert (await hand.original()).attachments
    await fake.wait_for(lambda: _progress(t) != before, 10, "the hint played", poll=0.005)


async def _restart(t: Table, seat: int) -> None:
    """Restart the bot while ``seat`` is to play: the table comes back from the database and
    the DM button sent before the restart plays the hint."""
    fake, live, bot = t.fake, t.live, t.bot
    user = t.users[seat]
    prompt, custom_id = await _turn_prompt(t, user)
    await bot.presenter.drain()
    hands = [bot.service.hand_cards(live, s) for s in range(6)]
    waiting, deals = live.series.to_act, len(live.series.deals)

    await t.runner.restart()
    again = t.live
    assert again is not live and again.series.to_act == waiting
    assert len(again.series.deals) == deals
    assert [t.bot.service.hand_cards(again, s) for s in range(6)] == hands
    before = _progress(t)
    rec = await user.click(fake.messages[prompt.id], custom_id)
    await rec.response()
    await fake.wait_for(
        lambda: "✅" in fake.messages[prompt.id].content and not fake.messages[prompt.id].buttons(),
        5,
        "the old DM marked done, its buttons taken off",
    )
    await fake.wait_for(lambda: _progress(t) != before, 10, "the hint played", poll=0.005)
