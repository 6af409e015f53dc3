"""A whole five-game tribute series through the fake Discord and the real discord.py client:
four people (two on Chinese clients, two on English ones) and two AI seats.

The people play as people do: they answer the DM prompts with their buttons and menus, play
from the /gouji play autocomplete list, press "play the hint", ask for a hint and pass. The
test peeks at the bot's tables only to know whose turn it is (a person knows it from the
channel ping). At the end the database must agree with the engine's replay of the exported
record, nobody may have seen anyone's hand but their own, and every interaction must have been
answered.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from bot.pictures import png as pictures
from bot.text.catalog import lang_of, text
from engine.record import replay_record, replay_series
from engine.scoring import title_for
from tests.fakediscord import BotRunner, FakeDiscord, request_tally

from .gouji_helpers import bot_factory, check_message_counts, next_person, press

PEOPLE = ("alice", "bo", "chen", "dana")  # seats 0-3; seats 4 and 5 are AI
TRANSCRIPT = Path(os.environ.get("GOUJI_E2E_TRANSCRIPT", "/tmp/gouji_e2e"))


async def _answer_prompt(fake: FakeDiscord, service, user, live, kind: str, step: int) -> None:
    """Answer a DM prompt by button or menu: never declare, never revolt, return the first
    cards offered, burn with the first play offered every third chance."""
    verb = {"declare": "nodeclare", "revolt": "norevolt"}.get(kind, kind)
    if kind == "burn" and step % 3:
        verb = "noburn"
    await press(fake, service, user, live, verb, select=verb in ("return", "burn"))


async def _take_turn(user, service, live, step: int) -> None:
    """A turn in play: from the autocomplete list, "play the hint", or hint-then-pass."""
    seat = live.seat_of(user.id)
    plays = [a for a in live.game.legal_actions(seat) if a.verb == "play"]
    if step % 3 == 0 or not plays:
        choices = await _autocomplete(user)
        assert len(choices) == min(25, len(plays)), "the autocomplete offers the legal plays"
        for choice in choices:  # cards in words; the value keeps the short notation
            assert not {"T", "B", "R"} & set(choice["name"]), choice
        if choices and step % 30 == 0:  # typed in words (the label, in zh): still offered
            typed = await user.autocomplete("gouji", "play", "cards", typed=choices[0]["name"])
            assert choices[0]["value"] in [c["value"] for c in typed], (choices[0], typed)
        if not choices:  # nothing beats it (but passing is not automatic: one may yield)
            await (await user.slash("gouji", "pass")).original()
            return
        rec = await user.slash("gouji", "play", cards=choices[0]["value"])
        await rec.original()
        return
    if step % 3 == 1:
        rec = await user.slash("gouji", "hint")
        hint = await rec.original()
        assert hint.ephemeral and hint.attachments
        game = live.game
        if any(a.verb == "pass" for a in game.legal_actions(live.seat_of(user.id))) and step % 2:
            rec = await user.slash("gouji", "pass")
            await rec.original()
            return
    await press(user.fake, service, user, live, "playhint")


async def _autocomplete(user) -> list[dict]:
    """The /gouji play suggestions (an empty list is an answer too)."""
    return await user.autocomplete("gouji", "play", "cards", typed="")


def _kind(live) -> str:
    cur = live.series.current
    if cur.game is None:
        return "return"
    if cur.game.phase in ("declare", "revolt"):
        return cur.game.phase
    return "burn" if cur.game.window is not None else "turn"


async def _check_first_hands(fake: FakeDiscord, bot, live, users) -> None:
    """Right after the first deal each person's newest hand DM is exactly their own hand."""
    for user in users:
        await fake.wait_for(
            lambda u=user: u.latest_dm(with_attachment=True) is not None, 15, "hand DMs"
        )
    for seat, user in enumerate(users):
        png = pictures.hand_png(bot.service.views.hand_cards(live, seat), lang_of(user.locale))
        got = user.latest_dm(with_attachment=True).attachments[0].data
        assert got == png, f"{user.name} got a hand that is not theirs"
        others = [
            pictures.hand_png(bot.service.views.hand_cards(live, s), lang_of(user.locale))
            for s in range(4)
            if s != seat
        ]
        assert got not in others


async def test_a_five_game_series_with_four_people_and_two_ai(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    users = [fake.member(name) for name in PEOPLE]
    alice = users[0]
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        assert (
            await (await alice.slash("gouji", "new", turn_time=120, burn_time=60)).original()
        ).content
        for user in users[1:]:
            await (await user.slash("gouji", "join")).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        live = bot.service.tables.table_in(fake.channel("gouji").id)
        await _check_first_hands(fake, bot, live, users)

        early = await (await users[1].slash("gouji", "replay", "record")).original()
        assert early.ephemeral and not early.attachments, "no record of a game in progress"
        game_record_checked = False

        step = 0
        asked = [0] * 4  # questions asked to each person
        started = max(fake.interactions)
        while live.playing:
            if not game_record_checked and live.running.number_of_next_game > 1:
                await _check_game_record(alice, live)
                game_record_checked = True
            seat = await next_person(fake, bot, live)
            if seat is None:
                break
            kind = _kind(live)
            step += 1
            asked[seat] += 1
            if kind == "turn":
                await _take_turn(users[seat], bot.service, live, step)
            else:
                await _answer_prompt(fake, bot.service, users[seat], live, kind, step)
        await bot.presenter.drain()

        # the database agrees with the engine's replay of the exported record
        record = await bot.store.export_series_record(live.series_row)
        replay = replay_series({**record, "games_total": 5})
        assert len([g for g in replay["games"] if g["finished"]]) == 5
        row = await bot.store.get_series(live.series_row)
        assert row.status == "finished" and row.totals == replay["totals"]
        titles = []
        for seat, user in enumerate(users):
            profile = await bot.store.get_profile(fake.guild_id, user.id)
            assert profile.games == 5
            assert profile.score == replay["team_totals"][seat % 2] + replay["penalties"][seat]
            titles.append(title_for(profile.score))
        channel = fake.channel("gouji")
        public = [m for m in fake.messages_in(channel.id) if not m.ephemeral]
        check_message_counts(fake, dict(enumerate(users)), asked, started)
        assert any(all(t in m.content for t in titles) for m in public), "the titles are announced"
        assert any("技术分" in m.content for m in public), "the rating changes are announced"
        again = text("zh", "ev_again")  # Discord's own way on, under the result card
        assert sum(again in m.content for m in public) == 1, "how to go on, said once"

        # the channel never showed a hand; ephemeral hands were seen by their owner only
        for m in public:
            for version in [*m.history, m.snapshot()]:
                assert all(a.filename != "hand.png" for a in version.attachments)
        for m in fake.messages_in(channel.id):
            if any(a.filename == "hand.png" for a in m.attachments):
                assert m.ephemeral
        # no request met a 429: at the tests' time scale its wait would pass unnoticed
        assert request_tally(fake).throttled_total == 0, request_tally(fake).throttled
        # every interaction got a first answer
        latencies = [rec.latency for rec in fake.interactions.values() if rec.latency is not None]
        assert len(latencies) == len(fake.interactions), "an interaction went unanswered"
        assert not fake.unknown_requests
        await _check_score_commands(fake, users, row.totals)
        _write_transcript(fake, users[1], public, max(latencies), step)


async def _check_game_record(user, live) -> None:
    """After game 1, /gouji replay record gives game 1's record, which replays to its result;
    its public line is in the server's language (zh), whoever asked (an English speaker)."""
    user.locale = "en-US"
    msg = await (await user.slash("gouji", "replay", "record")).original()
    user.locale = "zh-CN"
    assert not msg.ephemeral and msg.attachments[0].filename.endswith("game1.json")
    assert msg.content == text("zh", "record_file", name=msg.attachments[0].filename)
    record = json.loads(msg.attachments[0].data)
    assert record["format"] == "gouji-record/1"
    result = replay_record(record)
    assert result["finished"] and result["places"] == list(live.series.deals[0].game.places)


async def _check_score_commands(fake: FakeDiscord, users, totals) -> None:
    """The series record, scoreboard, profile and leaderboard answer with their files."""
    alice, bo = users[0], users[1]
    msg = await (await alice.slash("gouji", "replay", "record")).original()
    record = json.loads(msg.attachments[0].data)
    assert record["format"] == "gouji-series/1"
    assert replay_series(record)["totals"] == totals
    TRANSCRIPT.mkdir(parents=True, exist_ok=True)
    for user, path, options, name in (
        (bo, ("gouji", "series"), {}, "series.png"),
        (bo, ("gouji", "score"), {}, "profile.png"),
        (alice, ("gouji", "score"), {"user": bo}, "profile.png"),
        (alice, ("gouji", "top"), {}, "top.png"),
        (alice, ("gouji", "top"), {"by": "rating"}, "top.png"),
    ):
        msg = await (await user.slash(*path, **options)).original()
        assert not msg.ephemeral and msg.attachments[0].filename == name
        (TRANSCRIPT / f"{user.name}-{name}").write_bytes(msg.attachments[0].data)
    # a public picture is in the server's language, whoever asks (Chinese and English clients)
    assert {lang_of(u.locale) for u in users} == {"zh", "en"}
    boards = [await (await u.slash("gouji", "series")).original() for u in users]
    assert len({b.attachments[0].data for b in boards}) == 1, "the same picture for everyone"
    for path in (("gouji", "rules"), ("gouji", "help")):
        msg = await (await bo.slash(*path)).original()
        assert msg.ephemeral and "/gouji" in msg.content or "够级" in msg.content


def _write_transcript(fake: FakeDiscord, user, public, worst: float, steps: int) -> None:
    """The channel and one person's DMs as text, and the last table picture, for reading."""
    TRANSCRIPT.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# {steps} human steps, {len(fake.interactions)} interactions, largest latency {worst:.3f} s"
    ]
    lines += [
        f"[#gouji] {m.content}" + (f"  <{m.attachments[0].filename}>" if m.attachments else "")
        for m in public
    ]
    lines += ["", f"# DMs to {user.name}"]
    for m in user.dms():
        names = [c.get("label") or c.get("placeholder") for c in m.buttons() + m.selects()]
        lines.append(
            f"[dm] {m.content} {names if names else ''}" + (" <hand.png>" if m.attachments else "")
        )
    (TRANSCRIPT / "transcript.txt").write_text("\n".join(lines), encoding="utf-8")
    tables = [m for m in public if m.attachments and m.attachments[0].filename == "table.png"]
    if tables:
        (TRANSCRIPT / "table.png").write_bytes(tables[-1].attachments[0].data)
    print(lines[0])
