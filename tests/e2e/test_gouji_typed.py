"""Every question answered by typed commands: a two-game tribute series (够死级 on) in which
dana (seat 0, English) and bo (seat 3, her opposite, Chinese) never touch a component —
宣点, 革命, 要头, 还贡, burn / no burn, plays (in words) and passes, all by /gouji commands —
with four AI seats; the first deal leaves both without a 2 or a joker, so both are asked to
revolt, bo does, and dana is asked 要头; in the second dana holds every joker, so she is asked
to burn. Refusals of a typed answer given at the wrong time
say what to do, in each one's language."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import bot.service.flow as flow
from bot.text.cards import play_label
from engine.cards import Card
from engine.cards import deal as real_deal
from tests.fakediscord import BotRunner, FakeDiscord

from .deals import rigged
from .gouji_helpers import bot_factory, next_person, series_of

NO_TWO_NO_JOKER = {
    0: "3333 444 555 666 777 888 999 TTT JJJ QQQ KKK AA",
    3: "4444 555 666 777 888 999 TTT JJJ QQQ KKK AA",
}
#: The second deal: dana holds every joker and two sets, so she may burn (§4) what the
#: others play; they hold every 2 (so none may revolt and all keep their heads).
JOKERS_AND_FEW_SETS = {
    0: "BBBB RRRR AAAAAAAAAAAA KKKKKKKKKKKKKKKK",
    1: "2222",
    2: "2222",
    3: "22",
    4: "222",
    5: "222",
}
INTERNAL = ("nodeclare", "norevolt", "keephead", "nokeephead", "noburn")


async def _typed(user, *command: str, **options) -> str:
    """A /gouji command's answer."""
    return (await (await user.slash("gouji", *command, **options)).original()).content


async def test_a_series_answered_only_by_typed_commands(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = [rigged(NO_TWO_NO_JOKER), rigged(JOKERS_AND_FEW_SETS)]
    dealt = []

    def deal(seed: int) -> list[list[Card]]:
        dealt.append(seed)
        return chosen[len(dealt) - 1](seed) if len(dealt) <= len(chosen) else real_deal(seed)

    monkeypatch.setattr(flow, "deal", deal)
    dana, bo = fake.member("dana"), fake.member("bo")
    users = {0: dana, 3: bo}
    langs = {0: "en", 3: "zh"}
    asked: Counter[str] = Counter()
    async with BotRunner(fake, bot_factory(fake, tmp_path / "gouji.db")) as runner:
        bot = runner.client
        await series_of(bot, fake, 2)  # the second game brings the returns (还贡) and the burn
        await _typed(dana, "new", turn_time=300, burn_time=120, gou_si_ji=True)
        await _typed(bo, "join", seat=3)
        await _typed(dana, "ai", "add")
        await _typed(dana, "start")
        live = bot.service.tables.table_in(fake.channel("gouji").id)
        components = len([i for i in fake.interactions.values() if i.type == 3])
        refused_once: set[int] = set()
        burns = 0

        def waits_for_a_burn(seat: int) -> bool:
            """In the second game dana passes until she has been asked to burn."""
            return seat == 0 and len(live.running.deals) == 2 and asked["burn"] == 0

        while (seat := await next_person(fake, bot, live)) is not None:
            user = users[seat]
            mine = await bot.service.views.private_view(live, seat)
            question = mine.question
            assert question is not None
            kind = str(question.kind)
            asked[kind] += 1
            token = bot.service.views.question_token(live)
            if kind == "declare" and seat not in refused_once:  # the wrong command first
                refused_once.add(seat)
                said = await _typed(user, "play", cards="KK")
                want = "/gouji answer"
                assert want in said and ("Do not declare" in said or "不宣" in said), said
                assert not any(v in said for v in INTERNAL), said
            if kind == "declare":
                said = await _typed(user, "answer", choice="nodeclare")
            elif kind == "revolt":
                first_game = len(live.running.deals) == 1
                choice = "revolt" if seat == 3 and first_game else "norevolt"
                said = await _typed(user, "answer", choice=choice)
            elif kind == "head":
                said = await _typed(user, "answer", choice="keephead")
            elif kind == "return":
                cards = str(bot.service.hint(live, user.id).cards)
                said = await _typed(user, "return", cards=" ".join(cards))
            elif kind == "burn":
                if question.plays and burns % 2 == 0:
                    said = await _typed(user, "burn", cards=question.plays[0].canonical)
                else:
                    said = await _typed(user, "answer", choice="noburn")
                burns += 1
            elif question.plays and not (waits_for_a_burn(seat) and question.allows("pass")):
                # a play, typed in words as the menu labels it
                said = await _typed(user, "play", cards=play_label(question.plays[0], langs[seat]))
            else:
                said = await _typed(user, "pass")
            await fake.wait_for(
                lambda token=token, seat=seat: (
                    not live.playing
                    or bot.service.views.question_token(live) != token
                    or seat not in live.running.to_act
                ),
                10,
                f"{user.name}'s typed {kind} taken (answered: {said})",
            )
        assert len([i for i in fake.interactions.values() if i.type == 3]) == components
    print("questions answered by typed commands:", dict(asked))
    assert live.running.finished
    for kind in ("declare", "revolt", "head", "turn", "burn", "return"):
        assert asked[kind] > 0, (kind, dict(asked))
