"""bot/pictures/views.py: engine state → render views."""

from __future__ import annotations

from bot.pictures.views import card_counter, render_action, series_view, table_view_of_game
from engine.ai import make_player, play_series_game
from engine.game import SUCCESS, Game
from engine.scoring import counts_as_open
from engine.series import Series
from render import render_series, render_table
from render.models import LastAction

NAMES = ("a", "b", "c", "d", "e", "f")


def test_last_actions_map_to_render_actions():
    assert render_action(None) is None
    assert render_action("pass") == LastAction("pass")
    assert render_action("yield") == LastAction("yield")
    assert render_action("burn RR99") == LastAction("burn", "RR99")
    assert render_action("77722") == LastAction("play", "77722")


def test_card_counter_counts_what_is_not_played():
    played = [0] * 15
    played[12], played[13], played[14] = 5, 1, 4
    counter = card_counter(played)
    assert (counter.twos, counter.small_jokers, counter.big_jokers) == (11, 3, 0)


def test_table_view_follows_the_game_from_the_viewers_seat():
    game = Game.from_position(["TTTTT6", "KK55", "AA44", "J2", "QQQ9", "889"], leader=0)
    game.apply_text("0 play TTTTT")
    view = table_view_of_game(game, NAMES, viewer=3, ai=(False, True) * 3, caption="x")
    assert view.bottom_seat == 3 and view.to_act == (3,)
    assert view.standing == "TTTTT" and view.standing_seat == 0
    assert [s.cards_left for s in view.seats] == [1, 4, 4, 2, 4, 3]
    assert view.seats[0].last_action == LastAction("play", "TTTTT")
    assert [s.ai for s in view.seats] == [False, True] * 3
    render_table(view)  # the render accepts it


def test_declarations_stay_hidden_until_declaring_is_over():
    game = Game.from_deal(11)
    game.apply_text("1 declare")
    assert not table_view_of_game(game, NAMES, viewer=0).seats[1].declared
    assert table_view_of_game(game, NAMES, viewer=1).seats[1].declared
    for seat in (0, 2, 3, 4, 5):
        game.apply_text(f"{seat} nodeclare")
    assert table_view_of_game(game, NAMES, viewer=0).seats[1].declared


def test_series_view_scores_every_counted_game():
    series = Series(games=2)
    players = [make_player("hint", s) for s in range(6)]
    while not series.finished:
        play_series_game(series, players, 100 + len(series.deals))
    view = series_view(series, NAMES, caption="c")
    assert len(view.games) == len(series.counted) == 2
    assert view.totals() == tuple(series.totals())
    assert [g.places for g in view.games] == [
        tuple(d.game.places) for d in series.counted if d.game is not None
    ]
    assert all(g.finished for g in view.games)
    render_series(view)


def test_the_result_card_marks_who_opened_burned_was_stifled_and_the_tribute_owed():
    series = Series(games=5)
    players = [make_player("hint", s) for s in range(6)]
    owed_seen = 0
    while not series.finished:
        play_series_game(series, players, 100 + len(series.deals))
        view = series_view(series, NAMES)
        for shown, deal in zip(view.games, series.counted, strict=True):
            g = deal.game
            assert g is not None
            for s in range(6):
                marks = shown.marks[s]
                assert ("opened" in marks) == counts_as_open(g.opened, g.revolted, s)
                won = any(b.burner == s and b.result == SUCCESS for b in g.burns)
                assert ("burn_won" in marks) == won
                assert ("stifled" in marks) == any(seat == s for seat, _ in g.stifled)
        owed = [(t.payer, t.receiver, t.count, t.kind) for t in series.owed_next()]
        assert list(view.owed) == ([] if series.finished else owed), "what the next game pays"
        owed_seen += bool(view.owed)
        render_series(view, "zh")
    assert owed_seen, "some game left tribute owed"
    assert any(m for g in view.games for m in g.marks), "some seat opened"


def test_the_channel_picture_shows_the_seconds_left_when_it_is_drawn() -> None:
    from bot.pictures.views import named
    from render.models import SeatView, TableView

    table = TableView(seats=tuple(SeatView() for _ in range(6)), to_act=(2,))
    names = [f"p{s}" for s in range(6)]
    assert named(table, names, deadline=1000.0, now=976.5).clock == 24
    assert named(table, names, deadline=1000.0, now=1003.0).clock == 0
    assert named(table, names).clock is None, "no clock runs"
    idle = TableView(seats=table.seats)
    assert named(idle, names, deadline=1000.0, now=990.0).clock is None, "nobody awaited"


def test_a_private_table_picture_is_drawn_from_the_viewers_seat() -> None:
    from bot.pictures.views import for_viewer
    from render.models import SeatView, TableView

    view = for_viewer(TableView(seats=tuple(SeatView() for _ in range(6))), 4)
    assert (view.bottom_seat, view.viewer) == (4, 4)
