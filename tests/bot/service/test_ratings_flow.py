"""Ratings through the table service: a finished series rates every seat, announces what it
did to each seat's rating and puts it on the scoreboard; a standing is a plain value."""

from __future__ import annotations

import json

from bot.service.standing import change_line, seat_changes, seat_player, standing_of
from data import ai_player, user_player
from engine.rating import PLACES, seat_ranks

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    make_service,
    play_humans,
    seated_table,
    user_at,
)


async def test_a_series_rates_every_seat_and_announces_the_changes(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    assert live.running.finished
    changes = await store.series_rating_changes(live.series_id)
    players = [seat_player(seat) for seat in live.seats]
    assert players[:4] == [user_player(u) for u in HUMANS]
    assert players[4:] == [ai_player("hint")] * 2  # one player, two seats
    assert set(changes) == set(players)
    for player in players:
        rated = await store.player_rating(GUILD, player)
        assert rated is not None and rated.rating.games == 5 == changes[player].games
        assert changes[player].after == rated.rating.ordinal
    (ratings,) = [e[3]["ratings"] for e in presenter.of("announce") if e[2] == "ev_ratings"]
    assert [(r.who.seat, r.change) for r in ratings] == [
        (s, change_line(changes[p].change, changes[p].after)) for s, p in enumerate(players)
    ]
    keys = presenter.announced()
    assert keys.index("ev_series_over") < keys.index("ev_ratings")
    shown = seat_changes(live.seats, changes)
    assert live.series_ratings == (live.series_id, shown)
    board = (await service.views.public_view(live)).scoreboard
    assert board is not None
    assert board.ratings == shown
    await service.close()


async def test_a_single_game_announces_its_rating_changes_too(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service, {"series": False})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    assert "ev_ratings" in presenter.announced()
    board = (await service.views.public_view(live)).scoreboard
    assert board is not None
    assert all(r is not None for r in board.ratings)
    await service.close()


async def test_the_scoreboard_shows_no_ratings_while_the_series_is_played(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    board = (await service.views.public_view(live)).scoreboard
    assert board is not None
    assert board.ratings == ()
    await service.close()


async def test_a_standing_is_a_plain_value_with_the_rating(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service, {"series": False})
    before = await standing_of(store, GUILD, HUMANS[1])
    assert before.rating is None and before.position is None and before.games == 0
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    standing = await standing_of(store, GUILD, HUMANS[1])
    rated = await store.player_rating(GUILD, user_player(HUMANS[1]))
    assert standing.rating is not None and rated is not None
    assert (standing.rating.figure, standing.rating.rank) == (rated.rating.ordinal, rated.rank)
    assert standing.rating.players == 5 and standing.rating.provisional
    data = json.loads(json.dumps(standing.to_json()))
    assert data["user_id"] == str(HUMANS[1]) and data["games"] == 1
    assert data["rating"]["games"] == 1 and len(data["places"]) == 6
    await service.close()


async def test_a_leaver_is_rated_as_having_lost_the_game_for_their_team(store) -> None:
    service, _ = make_service(store)
    live = await seated_table(service, {"series": False})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    while live.running_game.phase != "play":  # nobody declares or revolts
        await service.settle(live)
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        verb = "nodeclare" if live.running_game.phase == "declare" else "norevolt"
        await service.act(live, user_at(live, seat), verb)
    await service.settle(live)
    await service.leave(service.tables.table_in(CHANNEL), HUMANS[2])  # seat 2: team 0, 2, 4
    await play_humans(service, live)
    (lineup,) = await store.rated_lineups(GUILD)
    assert [e.left for e in lineup] == [s == 2 for s in range(6)]
    assert lineup[2].player == user_player(HUMANS[2])  # the leaver, not the AI that finished
    ranks = seat_ranks(lineup, PLACES)
    assert max(ranks[1::2]) < min(ranks[0::2])  # seats 1, 3, 5 all ranked above 0, 2, 4
    board = [r.player for r in await store.rating_board(GUILD)]
    losers = {user_player(HUMANS[0]), user_player(HUMANS[2]), ai_player("hint")}
    assert set(board[-2:]) <= losers  # the leaver's team holds the bottom of the board
    await service.close()
