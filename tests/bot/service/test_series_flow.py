"""A whole series through the table service: humans taking the hint, two AI seats."""

from __future__ import annotations

from engine.hands import Play
from engine.record import replay_series
from engine.scoring import title_for

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    make_service,
    play_humans,
    seated_table,
    user_at,
)


async def test_a_five_game_series_completes_and_profiles_match_the_replay(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    steps = await play_humans(service, live)
    assert steps > 0
    assert not live.playing and live.running.finished
    record = await store.export_series_record(live.series_id)
    replay = replay_series({**record, "games_total": 5})
    series_row = await store.get_series(live.series_id)
    assert series_row.status == "finished"
    assert series_row.totals == replay["totals"]
    team = replay["team_totals"]
    for seat, user in enumerate(HUMANS):
        profile = await store.get_profile(GUILD, user)
        assert profile.score == team[seat % 2] + replay["penalties"][seat]
        assert profile.games == 5
    keys = presenter.announced()
    assert keys.count("ev_game_over") == 5
    assert "ev_series_over" in keys and "ev_titles" in keys
    titles = [e for e in presenter.of("announce") if e[2] == "ev_titles"][0][3]["titles"]
    for line in titles:
        profile = await store.get_profile(GUILD, user_at(live, line.who.seat))
        assert line.title == title_for(profile.score)
    await service.close()


async def test_the_table_log_tells_each_gouji_hand_played_and_no_other_play(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service, {"series": False})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(service, live)
    (deal,) = live.running.deals
    assert deal.game is not None
    gouji = [
        (a.seat, str(a.cards))
        for a in deal.game.actions
        if a.verb == "play" and isinstance(a.cards, Play) and a.cards.is_gouji
    ]
    told = [
        (e[3]["user"].seat, str(e[3]["cards"].cards))
        for e in presenter.of("announce")
        if e[2] == "ev_gouji"
    ]
    assert gouji, "a whole game has gouji hands"
    assert gouji == told
    await service.close()
