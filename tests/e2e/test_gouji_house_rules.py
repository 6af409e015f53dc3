"""A table opened with a house rule (docs/rules.en.md §9) through the fake Discord: a single game
with 够死级 on (the rule is the game's: a series adds nothing to it; the tribute series is
test_gouji_series.py's). Alice revolts with her DM button and dana, her opposite, is asked
要头 — answered with its button on the hand controller in the DMs (``/gouji hand`` offers it
too); then every later question of the two people is answered from their DM controllers
until the game is over. The channel's log shows the answer; the record a player downloads
carries the option and the answer, and ``gouji replay --json`` replays it to the team points
the bot announced, with the ``gou_si_ji`` field where docs/record.md puts it. Only two people:
each press re-sends a DM controller, and the fake Discord's rate limits make every extra
press cost time."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as gouji
from engine.record import replay
from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import bot_factory, check_message_counts, next_person, press

REVOLT_SEED = 37  # the first deal: only seat 0 (alice) holds no 2 and no joker
KEPT = ("前三手够级牌够死级", "their first three gouji hands can only be burned")  # ev_keephead
OVER = ("本局队伍积分", "Team points this game")  # ev_game_over's team line
COMPONENT = 3  # the interaction type of a button press or a menu choice
# the one answer the people give to each question (the returned cards: the first offered)
ANSWER = {
    "declare": "nodeclare",
    "revolt": "norevolt",
    "head": "keephead",
    "burn": "noburn",
    "turn": "playhint",
    "return": "return",
}


async def test_a_gou_si_ji_game_asks_the_revolutionarys_opposite_to_keep_the_head(
    fake: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, dana = fake.member("alice"), fake.member("dana")
    users = {0: alice, 3: dana}  # the other seats are AI
    async with BotRunner(fake, bot_factory(fake, tmp_path / "g.db", seed=REVOLT_SEED)) as runner:
        bot = runner.client
        opened = await (
            await alice.slash(
                "gouji", "new", turn_time=300, burn_time=60, gou_si_ji=True, series=False
            )
        ).original()
        assert "够死级" in opened.content
        await (await dana.slash("gouji", "join", seat=3)).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        started = max(fake.interactions)
        channel = fake.channel("gouji")
        live = bot.service.tables.table_in(channel.id)
        rules = await (await dana.slash("gouji", "rules")).original()
        marked = [line for line in rules.content.splitlines() if line.startswith("- 够死级")]
        assert len(marked) == 1 and " *" in marked[0], "the table's own rules, 够死级 marked"

        asked = [0] * 6
        heads = []  # (game, seat) of each 要头 question a person answered
        while (seat := await next_person(fake, bot, live)) is not None:
            user, kind = users[seat], bot.service.views.question_kind(live)
            game_no = len(live.running.deals)
            asked[seat] += 1
            verb = ANSWER[kind]
            if game_no == 1:
                if kind == "revolt" and seat == 0:
                    verb = "revolt"
                assert kind != "turn" or seat == 3, "alice revolted: she sits game 1 out"
            if kind == "head":
                heads.append((game_no, seat))
                if game_no == 1:
                    hand = await (await user.slash("gouji", "hand")).original()
                    answers = [b for b in hand.buttons() if b["custom_id"].startswith("g:")]
                    offered = {b["custom_id"].rsplit(":", 1)[1] for b in answers}
                    assert offered == {"keephead", "nokeephead"}, "/gouji hand asks it too"
            msg = await press(fake, bot.service, user, live, verb, select=kind == "return")
            if kind == "head":
                assert "要头" in msg.content
        await bot.presenter.drain()
        assert heads[:1] == [(1, 3)], "the revolutionary's opposite is asked in game 1"

        shown = [  # every text the channel showed (the table message is re-posted)
            version.content
            for m in fake.messages_in(channel.id, include_deleted=True)
            if not m.ephemeral
            for version in (*m.history, m.snapshot())
        ]
        assert any(k in c for c in shown for k in KEPT), "the channel's log shows the 要头"
        check_message_counts(fake, users, asked, started, games=1)
        # after start, every answer came from a DM controller: the only commands are
        # /gouji rules, /gouji hand and (below) /gouji replay record
        later = [r for i, r in fake.interactions.items() if i > started]
        assert len([r for r in later if r.type != COMPONENT]) == 2

        stored = await bot.store.export_series_record(live.series_row)
        assert stored["options"] == {"gou_si_ji": True}
        assert {"0 revolt", "3 keephead"} <= set(stored["games"][0]["actions"])
        download = await (await dana.slash("gouji", "replay", "record")).original()
        downloaded = json.loads(download.attachments[0].data)
        assert {k: downloaded[k] for k in stored} == stored, "the record as stored"
        announced = [  # the team points line, in the channel's messages as they stand now
            line
            for m in fake.messages_in(channel.id)
            if not m.ephemeral
            for line in m.content.splitlines()
            if any(k in line for k in OVER)
        ]
        row = await bot.store.get_series(live.series_row)
        assert all(r.latency is not None for r in fake.interactions.values()), "all answered"

    path = tmp_path / "series.json"
    path.write_bytes(download.attachments[0].data)
    capsys.readouterr()
    assert gouji(["replay", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    games = [g for g in result["games"] if not g["void"]]
    assert len(games) == 1 and all(g["finished"] for g in games)
    assert row.status == "finished" and row.totals == result["totals"]
    teams = result["team_totals"]
    assert len(announced) == 1
    said = re.findall(r"0·2·4 ([+-]\d+) · 1·3·5 ([+-]\d+)", announced[0])
    assert said == [(f"{teams[0]:+d}", f"{teams[1]:+d}")], "the replay's points as announced"
    _check_gou_si_ji_field(stored, result)


def _check_gou_si_ji_field(stored: dict[str, Any], result: dict[str, Any]) -> None:
    """docs/record.md: with 够死级 on, every replayed game has ``gou_si_ji`` (each seat's 够死级
    hands left, 0–3) — ``[0, 0, 0, 3, 0, 0]`` right after seat 3 chose 要头 — and without
    the option the field is left out."""
    for g in result["games"]:
        assert len(g["gou_si_ji"]) == 6 and all(0 <= n <= 3 for n in g["gou_si_ji"])
    first = stored["games"][0]
    actions = first["actions"]
    upto = actions[: actions.index("3 keephead") + 1]
    game = {"format": "gouji-record/1", "hands": first["hands"], "seed": first["seed"]}
    kept = replay({**game, "options": stored["options"], "actions": upto})
    assert kept["gou_si_ji"] == [0, 0, 0, 3, 0, 0]
    assert "gou_si_ji" not in replay({**game, "actions": upto[:-1]})
