"""The channel's table picture is the table service's public view (built by the one adapter,
bot.pictures.views), named, and shows only what everyone may know."""

from __future__ import annotations

import dataclasses

from bot.pictures import png
from bot.pictures.views import named, table_view_of_game
from bot.service.tables import TableService
from bot.service.views import PublicView
from render.models import TableView

from ..service.helpers import CHANNEL, HUMANS, make_service, seated_table

NAMES = [f"p{s}" for s in range(6)]


def caption(view: PublicView, lang: str) -> str:
    assert view.number is not None
    rules = view.info.options.rules.changed()
    return png.table_caption(lang, view.number, view.games_total, rules)


async def table_picture(service: TableService, live, lang: str) -> TableView:
    """The channel's picture as the Discord presenter draws it."""
    view = await service.views.public_view(live)
    return named(view.table, NAMES, caption(view, lang))


async def test_the_channel_picture_hides_a_declare_answer_until_declaring_is_over(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service, {"counter": True})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    await service.act(live, HUMANS[0], "declare")
    view = await table_picture(service, live, "en")
    assert not any(seat.declared for seat in view.seats), "seat 0's answer is not public yet"
    assert view.counter is not None and view.counter.twos == 16
    for user in HUMANS[1:]:
        await service.act(live, user, "nodeclare")
    await service.settle(live)
    view = await table_picture(service, live, "en")
    assert view.seats[0].declared
    assert not view.seats[4].ai and not view.seats[0].ai, "an AI seat is named AI, not 托管"
    assert live.game is not None
    same = table_view_of_game(
        live.game, NAMES, viewer=0, ai=[s.ai for s in view.seats], caption=view.caption
    )
    assert same.viewer == 0, "the terminal's picture is the player's own"
    public_same = dataclasses.replace(same, viewer=None)
    assert view == public_same, "the bot and the terminal draw a game from the same view"
    await service.close()


async def test_the_table_pictures_caption_names_the_house_rules_in_force(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service, {"gou_si_ji": True, "tribute_cards": "biggest"})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    caption = (await table_picture(service, live, "zh")).caption
    assert caption == "第 1/5 局 · 本桌规则：贡牌：最大的牌，够死级"
    await service.close()


async def test_only_a_person_the_clock_plays_for_is_marked_tuoguan(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    await store.set_standin(live.id, 1, True, "hint")
    live.seats[1] = (await store.get_seats(live.id))[1]
    view = await table_picture(service, live, "zh")
    assert [seat.ai for seat in view.seats] == [False, True, False, False, False, False]
    await service.close()
