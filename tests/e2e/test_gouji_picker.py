"""The card picker through the real discord.py client and the fake Discord: 13 wanted plays,
each reached from the DM controller in at most three component interactions (counted), the
last one played; a pick from a page of a question that is over is refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.service.flow as flow
from engine.cards import card_sort_key, new_shoe, parse_cards
from engine.hands import Play
from tests.fakediscord import BotRunner, FakeDiscord

from .gouji_helpers import acted, bot_factory, next_person, press

#: Seat 0's hand: four 3s of one suit (so it leads first), and the cards of every wanted play.
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
    "TT2",
]


def rigged_deal(seed: int) -> list[list]:
    """Seat 0 gets :data:`HAND` (its 3s all spades), the rest is dealt round the table."""
    shoe = sorted(new_shoe(), key=card_sort_key)
    mine = []
    for card in parse_cards(HAND):
        pick = next(c for c in shoe if c.rank == card.rank and (c.rank != 0 or c.suit == "s"))
        shoe.remove(pick)
        mine.append(pick)
    others: list[list] = [[] for _ in range(5)]
    for i, card in enumerate(shoe):
        others[i % 5].append(card)
    return [sorted(h, key=card_sort_key) for h in [mine, *others]]


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


async def test_thirteen_wanted_plays_take_at_most_three_picks(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flow, "deal", rigged_deal)
    alice = fake.member("alice")
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        await (await alice.slash("gouji", "new", series=False, turn_time=300)).original()
        await (await alice.slash("gouji", "ai", "add")).original()
        await (await alice.slash("gouji", "start")).original()
        live = bot.service.table_in(fake.channel("gouji").id)
        assert await next_person(fake, bot, live) == 0
        await press(fake, bot.service, alice, live, "nodeclare")
        assert await next_person(fake, bot, live) == 0
        token = bot.service.question_token(live)
        assert ".turn." in token, token
        prefix = f"gs:{live.id}:{token}:play"
        await fake.wait_for(
            lambda: any(_controls(m, prefix) for m in alice.dms()), 10, "the lead's controller"
        )
        await bot.presenter.drain()  # the lead's controller is sent and stays
        msg = next(m for m in reversed(alice.dms()) if _controls(m, prefix) and not m.deleted)
        (plain,) = _controls(msg, prefix)
        total = len(bot.service.ranked_plays(live, 0))
        assert f"25 of {total}" in plain["placeholder"] or f"共 {total} 种" in plain["placeholder"]
        counts: dict[str, int] = {}
        for i, wanted in enumerate(WANTED):
            picks, menu = await _reach(fake, alice, msg.id, live.id, Play.parse(wanted))
            counts[wanted] = picks
            if i < len(WANTED) - 1:  # back to the controller for the next one
                if picks > 1:
                    back = next(
                        b["custom_id"]
                        for b in fake.messages[msg.id].buttons()
                        if b["custom_id"].endswith(":back")
                    )
                    rec = await alice.click(fake.messages[msg.id], back)
                    await rec.response()
                    await fake.wait_for(
                        lambda: bool(_controls(fake.messages[msg.id], f"gr:{live.id}:")),
                        10,
                        "the controller again",
                    )
                continue
            stale_page = fake.messages[msg.id]
            await acted(await alice.select(stale_page, menu, [Play.parse(wanted).canonical]))
        print("picks per wanted play:", counts)
        assert all(n <= 3 for n in counts.values()), counts
        assert len(counts) == 13
        game = live.series.current.game
        last = Play.parse(WANTED[-1])
        assert any(a.seat == 0 and a.verb == "play" and a.cards == last for a in game.actions)
