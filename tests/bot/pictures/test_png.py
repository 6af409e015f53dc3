"""The channel's table picture is built by the one adapter (bot.pictures.views) and shows
only what everyone may know."""

from __future__ import annotations

from bot.pictures import png
from bot.pictures.views import table_view_of_game

from ..service.helpers import CHANNEL, HUMANS, make_service, seated_table

NAMES = [f"p{s}" for s in range(6)]


async def test_the_channel_picture_hides_a_declare_answer_until_declaring_is_over(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service, {"counter": True})
    await service.start(CHANNEL, HUMANS[0])
    await service.settle(live)
    await service.act(live, HUMANS[0], "declare")
    view = png.table_view(live, NAMES, "en")
    assert not any(seat.declared for seat in view.seats), "seat 0's answer is not public yet"
    assert view.counter is not None and view.counter.twos == 16
    for user in HUMANS[1:]:
        await service.act(live, user, "nodeclare")
    await service.settle(live)
    view = png.table_view(live, NAMES, "en")
    assert view.seats[0].declared
    assert not view.seats[4].ai and not view.seats[0].ai, "an AI seat is named AI, not 托管"
    same = table_view_of_game(
        live.game, NAMES, viewer=0, ai=[s.ai for s in view.seats], caption=view.caption
    )
    assert view == same, "the bot and the terminal draw a game from the same view"
    await service.close()


async def test_the_table_pictures_caption_names_the_house_rules_in_force(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service, {"gou_si_ji": True, "tribute_cards": "biggest"})
    await service.start(CHANNEL, HUMANS[0])
    await service.settle(live)
    caption = png.table_view(live, NAMES, "zh").caption
    assert caption == "第 1/5 局 · 本桌规则：贡牌：最大的牌，够死级"
    await service.close()


async def test_only_a_person_the_clock_plays_for_is_marked_tuoguan(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service)
    await service.start(CHANNEL, HUMANS[0])
    await service.settle(live)
    await store.set_standin(live.id, 1, True, "hint")
    live.seats[1] = (await store.get_seats(live.id))[1]
    view = png.table_view(live, NAMES, "zh")
    assert [seat.ai for seat in view.seats] == [False, True, False, False, False, False]
    await service.close()
