"""Faults in the middle of a game, through the fake Discord and the real discord.py client,
and the game (or series) finishing correctly afterwards.

Four people (seats 0-3) and two AI seats play as in test_gouji_series.py; a fault is set off
at a quiet moment (a person is to act). After each test the database must agree with the
engine's replay of the exported record, every interaction must have been answered, and the
only failed requests are the ones the test planned.

Covered here: closed DMs (the player acts from the ephemeral controller of /gouji hand), 429s on
the message-send and message-edit routes, 500s on the interaction callback and a message
edit, the gateway dropped (abruptly and cleanly) and an outage with interactions made during
it, and a restart of the bot in the middle of the second game of a (two-game) series (an old
DM button still acts).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bot.discord_bot.client import GoujiBot
from bot.discord_bot.presenter import DiscordPresenter
from bot.service.live import LiveTable
from bot.text.catalog import text
from bot.text.langs import entry
from data import Store
from engine.cards import counts_of, format_cards, parse_cards
from engine.record import replay_series
from tests.data.outages import WriteLock
from tests.fakediscord import BotRunner, FakeDiscord, SimUser
from tests.fakediscord.faults import forged_slash

from .gouji_helpers import bot_factory, find_prompt, next_person, series_of
from .test_gouji_series import _answer_prompt, _kind, _take_turn

PEOPLE = ("alice", "bo", "chen", "dana")  # seats 0-3; seats 4 and 5 are AI
# Every wait below is for an event (the bot's answer, its next question, a resume); this
# bound is only how long a very loaded machine may take before the test gives up.
PATIENCE = 60.0
# The restart test's series: two games, so that the restart falls in a game after a tribute
# (what a series adds); Discord's five would only repeat them.
SERIES_GAMES = 2
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
    def bot(self) -> GoujiBot:
        return self.runner.client

    @property
    def live(self) -> LiveTable:
        return self.bot.service.tables.table_in(self.fake.channel("gouji").id)


async def _open(fake: FakeDiscord, runner: BotRunner, *, series: bool) -> Table:
    users = [fake.member(name) for name in PEOPLE]
    new = users[0].slash("gouji", "new", series=series, turn_time=120, burn_time=60)
    await (await new).original(PATIENCE)
    for user in users[1:]:
        await (await user.slash("gouji", "join")).original(PATIENCE)
    await (await users[0].slash("gouji", "ai", "add")).original(PATIENCE)
    return Table(fake, runner, users)


async def _start(t: Table) -> None:
    await (await t.users[0].slash("gouji", "start")).original(PATIENCE)


def _progress(t: Table) -> tuple:
    live = t.live
    if not live.playing:
        return ("over",)
    return (len(live.running.deals), t.bot.service.views.question_token(live), live.running.to_act)


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
    await t.fake.wait_for(
        lambda: _progress(t) != before, PATIENCE, "the table to move on", poll=0.02
    )


class Until(Protocol):
    """When ``_play`` stops, a test of the table. (A protocol, not ``Callable[[Table], bool]``:
    mypy infers a lambda with default arguments, ``lambda t, n=n: ...``, against it.)"""

    def __call__(self, t: Table, /) -> bool: ...


async def _play(t: Table, until: Until = lambda t: False) -> int | None:
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
    shown = await (await user.slash("gouji", "hand")).original(PATIENCE)
    assert shown.ephemeral and shown.attachments[0].filename == "hand.png"
    prefix = f"{t.live.id}:{t.bot.service.views.question_token(t.live)}:"
    selects = {  # the action menus (not the card picker's rank menu)
        s["custom_id"].rsplit(":", 1)[1]: s for s in shown.selects() if s["custom_id"][:3] == "gs:"
    }
    buttons = {b["custom_id"].rsplit(":", 1)[1]: b for b in shown.buttons()}
    assert all(c["custom_id"].split(":", 1)[1].startswith(prefix) for c in selects.values())
    verb = {"turn": "play", "burn": "burn", "return": "return"}.get(kind)
    menu = selects.get(verb or "")
    if menu is not None and (kind != "burn" or t.steps % 2):
        values = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
        await (await user.select(shown, menu["custom_id"], values)).response(PATIENCE)
        return
    no = {"turn": "pass", "declare": "nodeclare", "revolt": "norevolt", "burn": "noburn"}[kind]
    await (await user.click(shown, buttons[no]["custom_id"])).response(PATIENCE)


async def _check_finished(t: Table, games: int, refused: int = 0) -> None:
    """The series is over and the database agrees with the engine's replay of the exported
    record; every interaction was answered; no request failed but the planned ones."""
    bot, live, fake = t.bot, t.live, t.fake
    async with live.lock:  # the last action's aftermath (results, series end) is written
        pass
    await bot.presenter.drain()
    record = await bot.store.export_series_record(live.series_row)
    replay = replay_series({**record, "games_total": games, "tribute": games > 1})
    assert len([g for g in replay["games"] if g["finished"]]) == games
    row = await bot.store.get_series(live.series_row)
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
        assert all(
            rec.message_id is not None and fake.messages[rec.message_id].ephemeral
            for rec in clicked
        )
        # one mention per question (which notifies), deleted once answered: none piles up
        mentions = [m for m in fake.messages.values() if dana.id in m.notified]
        assert 0 < len(mentions) <= len(commands), "at most one mention per question"
        assert all(m.deleted for m in mentions), "each mention deleted once answered"
        answers = [r.created_at for r in fake.interactions.values() if r.user_id == dana.id]
        assert all(  # (or one that crossed its answer: sent while it was being given)
            any(m.created_at - 0.5 <= at <= (m.deleted_at or 0) for at in answers) for m in mentions
        ), "no ghost pings: a mention goes only after an answer"
        await _check_finished(t, games=1, refused=1)


# ----------------------------------------------------------------------------- REST faults
async def test_rate_limits_and_server_errors_mid_game_are_waited_out(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        t = await _open(fake, runner, series=False)
        await _start(t)
        await _play(t, lambda t: t.live.running_game.phase == "play" and t.steps >= 8)
        channel, table_message = fake.channel("gouji").id, t.live.table.message_id
        dm_channel = t.users[0].dm_channel()
        assert dm_channel is not None, "the bot has DMed the player"
        dm = dm_channel.id  # the hand controllers are re-sent in the DMs
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
        await t.bot.presenter.drain()  # a 5xx is retried after 1 + 2 × tries seconds
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


async def test_a_slow_answer_to_a_press_is_not_overtaken_by_the_next_controller(
    fake: FakeDiscord, tmp_path: Path, monkeypatch
) -> None:
    """A press is answered by editing the controller it was made on; when the press leads
    to a new question for the same person, the controller is re-sent and the old one
    deleted. On a slow machine (here: each answer's picture takes a while) the re-send must
    wait for the answer (an event), not race it: else the answer's edit meets a deleted
    message (404) — the flake of a loaded CI."""
    real = DiscordPresenter.answer_press

    async def slow(self, interaction, live, seat, lang, note, highlight=None):
        await asyncio.sleep(0.3)  # a busy drawer: the outbox gets ahead of the answer
        return await real(self, interaction, live, seat, lang, note, highlight)

    monkeypatch.setattr(DiscordPresenter, "answer_press", slow)
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        t = await _open(fake, runner, series=False)
        await _start(t)
        await _play(t)
        await _check_finished(t, games=1)


# ----------------------------------------------------------------------------- gateway, restart
async def test_gateway_drops_an_outage_and_a_restart_through_a_series(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        await series_of(runner.client, fake, SERIES_GAMES)
        t = await _open(fake, runner, series=True)
        await _start(t)
        (session,) = fake.gateway.sessions.values()

        for n, abrupt in enumerate((True, False), start=1):
            await _play(t, lambda t, n=n: t.steps >= 10 * n)
            await fake.gateway.drop(abrupt=abrupt)
            await _play(t, lambda t, n=n: t.steps >= 10 * n + 5)  # acting while it reconnects
            await fake.wait_for(lambda n=n: session.resumes == n, PATIENCE, f"resume {n}")
        await _outage(t)
        assert session.resumes == 3 and len(fake.gateway.sessions) == 1, "always resumed"

        seat = await _play(t, lambda t: len(t.live.running.deals) >= 2 and _kind(t.live) == "turn")
        assert seat is not None, "the series ended before its second game's play"
        await _restart(t, seat)
        assert len(fake.gateway.sessions) == 2
        await _play(t)
        await _check_finished(t, games=SERIES_GAMES)


async def _turn_prompt(t: Table, user: SimUser) -> tuple:
    """The DM asking ``user`` for the open turn, and its "play the hint" button's id."""
    token = f"{t.bot.service.views.question_token(t.live)}:"

    def found() -> tuple | None:
        prompt, custom_id = find_prompt(user, t.live.id, "playhint", token=token)
        return (prompt, custom_id) if prompt is not None else None

    return await t.fake.wait_for(found, PATIENCE, f"{user.name}'s turn DM")


async def _outage(t: Table) -> None:
    """Interactions made while the gateway is down reach the bot on resume and are answered."""
    fake = t.fake
    seat = await _play(t, lambda t: _kind(t.live) == "turn")
    assert seat is not None, "the series is on"
    user = t.users[seat]
    prompt, custom_id = await _turn_prompt(t, user)
    before = _progress(t)
    async with fake.gateway.outage():
        hand = await user.slash("gouji", "hand")
        play = await user.click(prompt, custom_id)
        assert hand.dispatched_at is None and play.dispatched_at is None
    over = time.monotonic()
    await play.response(PATIENCE)
    assert play.dispatched_at is not None and hand.dispatched_at is not None, "delivered"
    assert play.dispatched_at >= over and hand.dispatched_at >= over, "delivered on resume"
    assert (await hand.original(PATIENCE)).attachments
    await fake.wait_for(lambda: _progress(t) != before, PATIENCE, "the hint played", poll=0.02)


async def _restart(t: Table, seat: int) -> None:
    """Restart the bot while ``seat`` is to play: the table comes back from the database and
    the DM button sent before the restart plays the hint."""
    fake, live, bot = t.fake, t.live, t.bot
    user = t.users[seat]
    prompt, custom_id = await _turn_prompt(t, user)
    await bot.presenter.drain()
    hands = [bot.service.views.hand_cards(live, s) for s in range(6)]
    waiting, deals = live.running.to_act, len(live.running.deals)

    await t.runner.restart()
    again = t.live
    assert again is not live and again.running.to_act == waiting
    assert len(again.running.deals) == deals
    assert [t.bot.service.views.hand_cards(again, s) for s in range(6)] == hands
    before = _progress(t)
    rec = await user.click(fake.messages[prompt.id], custom_id)
    await rec.response(PATIENCE)
    await fake.wait_for(
        lambda: "✅" in fake.messages[prompt.id].content and not fake.messages[prompt.id].buttons(),
        PATIENCE,
        "the old DM marked done, its buttons taken off",
    )
    await fake.wait_for(lambda: _progress(t) != before, PATIENCE, "the hint played", poll=0.02)


# ----------------------------------------------------------------------------- the database
async def test_a_slow_database_still_gets_every_command_answered_in_3_s(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Each command is sent while another process holds the SQLite file's write lock (its
    writes wait): the first answer ("thinking…") comes while the lock is still held — it
    never waits for the database — and the command takes effect once it is released."""
    db = tmp_path / "gouji.db"
    async with BotRunner(fake, bot_factory(fake, db)):
        alice, bo, chen = (fake.member(name) for name in PEOPLE[:3])
        commands = [
            (alice, ("gouji", "new"), {}),
            (bo, ("gouji", "join"), {}),
            (alice, ("gouji", "ai", "add"), {"seat": 5}),
            (alice, ("gouji", "config"), {"turn_time": 90}),
            (chen, ("gouji", "join"), {}),
            (alice, ("gouji", "ai", "remove"), {"seat": 5}),
            (chen, ("gouji", "leave"), {}),
            (alice, ("gouji", "end"), {}),
        ]
        for user, path, options in commands:
            lock = await WriteLock.take(db)
            try:
                rec = await user.slash(*path, **options)
                # Discord's 3 s (the fake refuses a later answer): the lock is held until then
                await fake.wait_for(lambda rec=rec: rec.responses, PATIENCE, f"/{' '.join(path)}")
                assert rec.responses[0].type == 5, "deferred: thinking… first"
            finally:
                lock.release()
            reply = await rec.original(PATIENCE)
            assert reply.content and "wrong" not in reply.content, (path, reply.content)
        async with await Store.open(db) as store:
            (table,) = [
                t
                for t in await store.tables_in_channel(
                    fake.guild_id, fake.channel("gouji").id, active_only=False
                )
            ]
            assert table.status == "ended"
            seats = await store.get_seats(table.id)
            assert [s.user_id for s in seats[:2]] == [alice.id, bo.id] and seats[5].is_empty
            assert (await store.get_settings(fake.guild_id)).table_defaults == {"turn_time": 90}
        assert not [r for r in fake.interactions.values() if r.latency is None]


async def test_the_broken_table_notice_carries_no_card(fake: FakeDiscord, tmp_path: Path) -> None:
    """A log that does not replay because of a play not held: the engine's reason says the
    seat's whole hand. The channel is told the table stopped, in general words; the hand is
    in the bot's log only."""
    db = tmp_path / "gouji.db"
    async with BotRunner(fake, bot_factory(fake, db)) as runner:
        t = await _open(fake, runner, series=False)
        await _start(t)
        await _play(t, lambda t: t.live.running_game.phase == "play")
        channel = fake.channel("gouji").id
        await runner.stop()
        async with await Store.open(db) as store:  # a play of a card the seat does not hold
            (active,) = (await store.load_active_tables()).tables
            series = await store.restore_series(active, games_total=1, tribute=False)
            seat = series.to_act[0]
            game = series.current.game if series.current is not None else None
            assert game is not None, "a game is being played"
            hand = " ".join(str(c) for c in game.cards[seat])
            held = counts_of(game.cards[seat])
            rank, count = min(zip("3456789TJQKA2", held, strict=False), key=lambda rc: rc[1])
            await store.append_action(active.games[-1].game.id, f"{seat} play {rank * (count + 1)}")
        since = max(fake.messages)
        await runner.start()
        notice = await fake.wait_message(
            lambda m: m.id > since and m.content == text("zh", "table_broken")
        )
        assert notice.channel_id == channel and not notice.ephemeral
        compact = format_cards(parse_cards(hand))
        for msg in fake.messages_in(channel):
            if msg.id > since:
                assert hand not in msg.content and compact not in msg.content, msg.content


# ----------------------------------------------------------------------------- input at the edges
async def test_odd_input_is_answered_and_changes_nothing(fake: FakeDiscord, tmp_path: Path) -> None:
    """What a forged interaction can send: a replay id in another script, past any id, 4,300
    digits; an option out of its range, a choice not offered, 6,000 characters. Each gets
    a short refusal in time, nothing is stored."""
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        alice, bo = fake.member("alice"), fake.member("bo")
        for game in ("²", "٤٢", "1" * 20, "1" * 4300, "0"):
            rec = await bo.slash("gouji", "replay", "watch", game=game)
            reply = await rec.original(PATIENCE)
            assert reply.ephemeral and reply.content == text("zh", "replay_unknown"), game
        cases: list[Forged] = [
            (alice, ("gouji", "new"), {"turn_time": 1}, "bad_option"),
            (alice, ("gouji", "new"), {"burn_time": 500}, "bad_option"),
            (alice, ("gouji", "new"), {"tribute_cards": "x" * 6000}, "bad_option"),
            (alice, ("gouji", "new"), {"preset": "mine"}, "bad_option"),
            (alice, ("gouji", "config"), {"language": "xx"}, "bad_option"),
            (alice, ("gouji", "config"), {"turn_time": 0}, "bad_option"),
        ]
        await _check_forged(fake, cases)
        assert (
            not bot.service.tables
            and (await bot.store.get_settings(fake.guild_id)).language == "zh"
        )
        await (await alice.slash("gouji", "new")).original(PATIENCE)
        cases = [
            (bo, ("gouji", "join"), {"seat": 7}, "bad_seat"),
            (bo, ("gouji", "join"), {"seat": -1}, "bad_seat"),
            (alice, ("gouji", "ai", "add"), {"kind": "k" * 6000}, "unknown_ai"),
            (alice, ("gouji", "ai", "remove"), {"seat": 99}, "bad_seat"),
        ]
        await _check_forged(fake, cases)
        live = bot.service.tables.table_in(fake.channel("gouji").id)
        assert [s.user_id for s in live.seats] == [alice.id] + [None] * 5
        for name in PEOPLE[1:]:
            await (await fake.member(name).slash("gouji", "join")).original(PATIENCE)
        await (await alice.slash("gouji", "ai", "add")).original(PATIENCE)
        await (await alice.slash("gouji", "start")).original(PATIENCE)
        seat = await next_person(fake, bot, live)
        assert seat is not None, "the game is on"
        user = fake.member(PEOPLE[seat])
        for cards in ("3" * 6000, "x" * 6000):
            await _check_forged(
                fake, [(user, ("gouji", "play"), {"cards": cards}, None)], valid={"cards": "3"}
            )
        assert seat in live.running.to_act


#: A forged command: who sends it, its path, the forged options, the refusal's key (or None).
Forged = tuple[SimUser, tuple[str, ...], dict[str, Any], str | None]


async def _check_forged(
    fake: FakeDiscord, cases: list[Forged], valid: dict[str, Any] | None = None
) -> None:
    for user, path, forged, key in cases:
        rec = await forged_slash(fake, user, *path, valid=valid, **forged)
        reply = await rec.original(PATIENCE)
        lang = "en" if user.locale.startswith("en") else "zh"
        assert reply.ephemeral and 0 < len(reply.content) <= 2000, (path, forged)
        assert reply.content != text(lang, "internal"), (path, forged)
        if key is not None:  # the refusal's own words, up to its first value
            template = entry(lang, key)
            assert isinstance(template, str), key
            opening = template.split("{")[0]
            assert reply.content.startswith(opening), (path, forged, reply.content[:80])
    assert not [r for r in fake.interactions.values() if r.latency is None]
