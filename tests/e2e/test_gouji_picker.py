"""The card picker through the real discord.py client and the fake Discord: 13 wanted plays
(12 leads and a burn, each at a table of its own with a dealt hand), each reached from the DM
controller in at most three component interactions (counted) and played; a play of a hand
rich enough to need the group menu in exactly three; a pick from a page of a question that
is over (on a /gouji hand controller left open) refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.service.flow as flow
from engine.hands import Play
from tests.fakediscord import BotRunner, FakeDiscord

from .deals import rigged
from .gouji_helpers import acted, bot_factory, next_person, press

#: Seat 0's hand for the leads: four 3s of one suit (so it leads first), and the cards of
#: every wanted lead.
HAND = "3333 66 7 88888 9999 TT JJJJ QQ KKK AAAA 222 B R"
WANTED = [
    "8888822",
    "AAAAR",
    "KKKB",
    "7",
    "66",
    "9999BR",
    "222",
    "3333",
    "JJJJ2B",
    "QQ22BR",
    "22BR",
    "BR",
]
#: The burn: seat 1 leads KKKK (a gouji hand); seat 0 holds every joker, so it alone may
#: burn (two sets, eight jokers), with ABRR among its 35 burning plays.
BURN_DEAL = {0: "AAAAAAAA 222222 BBBB RRRR 55555555555555", 1: "3333 KKKK 2"}
BURN = "ABRR"
#: A hand so rich in 8s (8 × 8, 6 twos, four jokers: 504 plays of 8) that its page groups
#: them: a play of 8s is then three picks away (rank, group, play).
RICH = "3333 88888888 222222 BB RR 44 55 66 77 99 TT JJ"
RICH_WANTED = "888822B"


def _controls(msg, prefix: str) -> list[dict]:
    return [c for c in msg.selects() if c["custom_id"].startswith(prefix)]


async def _pick(fake: FakeDiscord, user, msg_id: int, custom_id: str, value: str) -> None:
    """One pick that shows a page: wait until the message shows other controls."""
    before = [c["custom_id"] for c in fake.messages[msg_id].selects()]
    rec = await user.select(fake.messages[msg_id], custom_id, [value])
    await rec.response()
    await fake.wait_for(
        lambda: [c["custom_id"] for c in fake.messages[msg_id].selects()] != before,
        10,
        "the picker's page",
    )


async def _reach(fake: FakeDiscord, user, msg_id: int, table: int, wanted: Play) -> tuple[int, str]:
    """Open the way to ``wanted`` from the controller: the picks made so far and the
    custom id of the menu that offers it (the last pick, not made here)."""
    value = wanted.canonical
    msg = fake.messages[msg_id]
    for menu in _controls(msg, f"gs:{table}:"):
        if value in [o["value"] for o in menu["options"]]:
            return 1, menu["custom_id"]
    (ranks,) = _controls(msg, f"gr:{table}:")
    rank = next(o["value"] for o in ranks["options"] if int(o["value"]) == _lead(wanted))
    await _pick(fake, user, msg_id, ranks["custom_id"], rank)
    picks = 1
    for _ in range(2):
        msg = fake.messages[msg_id]
        assert len(msg.selects()) <= 4 and all(len(s["options"]) <= 25 for s in msg.selects())
        for menu in _controls(msg, f"gs:{table}:"):
            if value in [o["value"] for o in menu["options"]]:
                return picks + 1, menu["custom_id"]
        for menu in _controls(msg, f"gg:{table}:"):
            key = f"n{wanted.naturals}t{wanted.twos}"
            if key in [o["value"] for o in menu["options"]]:
                await _pick(fake, user, msg_id, menu["custom_id"], key)
                picks += 1
                break
    raise AssertionError(f"{value} not reached")


def _lead(play: Play) -> int:
    from bot.discord_bot.picker import lead_rank

    return lead_rank(play)


async def _back(fake: FakeDiscord, user, msg_id: int, table: int) -> None:
    back = next(
        b["custom_id"] for b in fake.messages[msg_id].buttons() if b["custom_id"].endswith(":back")
    )
    await (await user.click(fake.messages[msg_id], back)).response()
    await fake.wait_for(
        lambda: bool(_controls(fake.messages[msg_id], f"gr:{table}:")), 10, "the controller"
    )


async def _one_game(
    fake: FakeDiscord, bot, alice, bo, monkeypatch, fixed, wanted, verb, check_stale=False
):
    """A table where seat 0 (alice, on her DM controller) is asked to lead or to burn:
    the picks that reach ``wanted`` (counted), then it is played. Returns the count."""
    monkeypatch.setattr(flow, "deal", rigged(fixed))
    await (await alice.slash("gouji", "new", series=False, turn_time=300, burn_time=120)).original()
    await (await bo.slash("gouji", "join")).original()
    await (await alice.slash("gouji", "ai", "add")).original()
    await (await alice.slash("gouji", "start")).original()
    live = bot.service.tables.table_in(fake.channel("gouji").id)
    await next_person(fake, bot, live)
    await press(fake, bot.service, alice, live, "nodeclare")
    await (await bo.slash("gouji", "answer", choice="nodeclare")).original()
    if verb == "burn":
        assert await next_person(fake, bot, live) == 1
        played = await (await bo.slash("gouji", "play", cards="four Ks")).original()
        assert "四张 K" in played.content, played.content  # the play confirmed in words
    assert await next_person(fake, bot, live) == 0
    token = bot.service.views.question_token(live)
    prefix = f"gs:{live.id}:{token}:{verb}"
    await fake.wait_for(lambda: any(_controls(m, prefix) for m in alice.dms()), 10, "alice's turn")
    await bot.presenter.drain()  # the controller is sent and stays
    msg = next(m for m in reversed(alice.dms()) if _controls(m, prefix) and not m.deleted)
    (plain,) = _controls(msg, prefix)
    total = len(bot.service.views.ranked_plays(live, 0))
    assert f"showing 25 of {total}" in plain["placeholder"]
    play = Play.parse(wanted)
    stale = None
    if check_stale:  # a page opened on /gouji hand's controller, left open
        hand = await (await alice.slash("gouji", "hand")).original()
        (ranks,) = _controls(fake.messages[hand.id], f"gr:{live.id}:")
        await _pick(fake, alice, hand.id, ranks["custom_id"], ranks["options"][0]["value"])
        (first, *_) = _controls(fake.messages[hand.id], f"gs:{live.id}:")
        stale = (hand.id, first["custom_id"], first["options"][0]["value"])
    picks, menu = await _reach(fake, alice, msg.id, live.id, play)
    page = fake.messages[msg.id]
    await acted(await alice.select(page, menu, [play.canonical]))
    game = live.series.current.game
    assert any(a.seat == 0 and a.verb == verb and a.cards == play for a in game.actions)
    if stale is not None:  # a pick from a page of a question that is over: refused in words
        done = [a for a in game.actions if a.seat == 0]
        shown, page_menu, value = stale
        late = await alice.select(fake.messages[shown], page_menu, [value])
        await fake.wait_for(lambda: late.followup_ids, 10, "the refusal")
        said = fake.messages[late.followup_ids[-1]].content
        assert "already answered" in said or "Not your turn" in said, said
        assert [a for a in game.actions if a.seat == 0] == done
    await (await alice.slash("gouji", "end")).original()
    return picks


async def test_thirteen_wanted_plays_take_at_most_three_picks(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bo = fake.member("alice"), fake.member("bo")
    counts: dict[str, int] = {}
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        for i, wanted in enumerate(WANTED):
            counts[wanted] = await _one_game(
                fake, bot, alice, bo, monkeypatch, {0: HAND}, wanted, "play", check_stale=i == 0
            )
        counts[f"burn {BURN}"] = await _one_game(
            fake, bot, alice, bo, monkeypatch, BURN_DEAL, BURN, "burn"
        )
        rich = await _one_game(fake, bot, alice, bo, monkeypatch, {0: RICH}, RICH_WANTED, "play")
    print("picks per wanted play:", counts, "; in the rich hand:", rich)
    assert len(counts) == 13 and all(1 <= n <= 3 for n in counts.values()), counts
    assert rich == 3  # through the group menu
