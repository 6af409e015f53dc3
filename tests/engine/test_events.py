"""engine.events: what an action changed, derived from the game before and after it."""

from __future__ import annotations

from engine.actions import Action, Verb
from engine.ai import make_player
from engine.events import (
    BurnEnded,
    BurnStarted,
    Declared,
    Event,
    HandChanged,
    HeadChosen,
    Lead,
    Opened,
    Passed,
    PhaseChanged,
    Placed,
    Played,
    Revolted,
    Stifled,
    changes,
    of_kind,
    snapshot,
)
from engine.game import ONGOING, Game, Phase
from engine.options import Options

REVOLT_SEED = 1  # deal(1): seat 1 alone holds no 2 and no joker


def _play_out(seed: int) -> tuple[Game, list[list[Event]]]:
    """A whole game by hint players, with the events of every action."""
    game = Game.from_deal(seed)
    players = [make_player("hint", seed * 6 + s) for s in range(6)]
    per_action = []
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        for seat in list(game.to_act):
            if seat in game.to_act:
                action = players[seat].act(game.observe(seat))
                before = snapshot(game)
                game.apply(action)
                per_action.append(changes(before, game, action))
    return game, per_action


def test_the_events_of_whole_games_add_up_to_their_end_state() -> None:
    burns = 0
    for seed in range(12):
        game, per_action = _play_out(seed)
        events = [e for step in per_action for e in step]
        if game.phase == Phase.VOID:
            continue
        assert sorted((p.seat, p.place) for p in of_kind(events, Placed)) == sorted(
            (s, game.places[s]) for s in range(6)
        )
        assert {o.seat for o in of_kind(events, Opened)} == {s for s in range(6) if game.opened[s]}
        started = of_kind(events, BurnStarted)
        assert [(b.burner, b.burned) for b in started] == [(b.burner, b.burned) for b in game.burns]
        ended = of_kind(events, BurnEnded)
        assert sorted(e.index for e in ended) == [
            i for i, b in enumerate(game.burns) if b.result != ONGOING
        ]
        assert [(s.seat, s.by) for s in of_kind(events, Stifled)] == list(game.stifled)
        assert len(of_kind(events, Played)) == sum(a.verb == "play" for a in game.actions)
        assert len(of_kind(events, Declared)) == 1
        assert sum(isinstance(e, Lead) and e.how == "first" for e in events) == 1
        burns += len(started)
    assert burns > 0, "the games burned at least once"


def test_a_play_and_a_pass_are_events_and_change_the_players_hand() -> None:
    game = Game.from_deal(4)
    for seat in range(6):
        game.apply(Action(seat, Verb.NODECLARE))
    leader = game.turn
    assert leader is not None
    play = game.legal_plays(leader)[0]
    before = snapshot(game)
    game.apply(Action(leader, Verb.PLAY, play))
    events = changes(before, game, Action(leader, Verb.PLAY, play))
    assert events[0] == Played(leader, str(play), play.is_gouji)
    assert HandChanged(leader) in events and len(of_kind(events, HandChanged)) == 1
    nxt = game.turn
    assert nxt is not None
    before = snapshot(game)
    game.apply(Action(nxt, Verb.PASS))
    assert changes(before, game, Action(nxt, Verb.PASS)) == [Passed(nxt)]


def test_declaring_is_told_when_everyone_has_answered() -> None:
    game = Game.from_deal(4)
    before = snapshot(game)
    game.apply(Action(2, Verb.DECLARE))
    assert changes(before, game) == [], "an answer stays hidden until the question closes"
    for seat in (0, 1, 3, 4, 5):
        game.apply(Action(seat, Verb.NODECLARE))
    events = changes(before, game)
    assert Declared((2,)) in events and PhaseChanged("declare", Phase.PLAY) in events


def test_a_revolt_opens_the_opposite_but_not_as_its_own_open() -> None:
    game = Game.from_deal(REVOLT_SEED)
    for seat in range(6):
        game.apply(Action(seat, Verb.NODECLARE))
    before = snapshot(game)
    game.apply(Action(1, Verb.REVOLT))
    events = changes(before, game)
    assert Revolted((1,), ()) in events
    assert Opened(4, own=False) in events
    assert of_kind(events, Lead), "play begins after the revolution"


def test_no_revolt_means_no_revolution_event() -> None:
    game = Game.from_deal(REVOLT_SEED)
    for seat in range(6):
        game.apply(Action(seat, Verb.NODECLARE))
    before = snapshot(game)
    game.apply(Action(1, Verb.NOREVOLT))
    assert not of_kind(changes(before, game), Revolted)


def test_keeping_the_head_is_told_when_the_revolutionarys_opposite_answers() -> None:
    """With 够死级 on, a revolution asks the revolutionary's opposite 要头 or 无头 (§3.4); the
    answer is public at once and play begins."""
    for verb, kept in ((Verb.KEEPHEAD, True), (Verb.NOKEEPHEAD, False)):
        game = Game.from_deal(REVOLT_SEED, Options(gou_si_ji=True))
        for seat in range(6):
            game.apply(Action(seat, Verb.NODECLARE))
        before = snapshot(game)
        game.apply(Action(1, Verb.REVOLT))
        events = changes(before, game)
        assert Revolted((1,), ()) in events and not of_kind(events, HeadChosen)
        assert game.to_act == [4]
        before = snapshot(game)
        game.apply(Action(4, verb))
        events = changes(before, game, Action(4, verb))
        assert of_kind(events, HeadChosen) == [HeadChosen(4, kept)]
        assert of_kind(events, Lead), "play begins after the answer"
