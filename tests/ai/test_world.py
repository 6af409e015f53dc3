"""Determinization: a game rebuilt from one seat's observation is the observed game."""

from __future__ import annotations

import random

import pytest

from engine.ai import make_player
from engine.ai.world import UnfitObservation, deal_worlds, rebuild, sample_hands
from engine.game import Phase
from tests.ai.helpers import dealt
from tests.ai.test_sim import random_position
from tests.game.randomplay import OPTION_SETS


@pytest.mark.parametrize("bie_san", [False, True])
def test_rebuilt_games_offer_the_observed_choices(bie_san):
    """At every 5th decision of mixed random/hint games (yields and the melee included), the
    rebuilt game asks the same seat with the same legal actions, in every world."""
    rng = random.Random(3)
    checked = yields = 0
    for seed in range(6):
        game = dealt(200 + seed, bie_san)
        players = [make_player("random" if s % 3 == 0 else "hint", s) for s in range(6)]
        step = 0
        while game.phase not in (Phase.FINISHED, Phase.VOID):
            for seat in list(game.to_act):
                if seat not in game.to_act:
                    continue
                obs = game.observe(seat)
                step += 1
                if game.phase == "play" and step % 5 == 0:
                    base = rebuild(obs, rng)
                    for world in [base, *deal_worlds(base, obs, 2, rng)]:
                        assert set(world.legal_actions(seat)) == set(obs.legal_actions)
                        assert world.counts[seat] == list(obs.counts)
                        assert world.totals == list(obs.card_counts)
                    checked += 1
                game.apply(players[seat].act(obs))
        yields += sum(1 for a in game.actions if a.verb == "yield")
    assert checked > 100
    assert yields > 0  # burn windows are rare in play: see the position test below


def test_sampled_hands_match_the_counts_and_the_unseen_cards():
    game = dealt(9)
    obs = game.observe(0)
    hands = sample_hands(obs, random.Random(1))
    assert hands[0] == list(obs.counts)
    assert [sum(h) for h in hands] == list(obs.card_counts)
    assert [sum(h[r] for h in hands[1:]) for r in range(15)] == list(obs.unseen)


def test_rebuild_after_a_burn_and_inside_a_window():
    """Seat 0 leads KK; seats 1 and 2 may burn; 1 burns with RR, 2 answers noburn (hidden
    until the window closes), and the game goes on from the burner."""
    from engine.game import Game

    game = Game.from_position(["KK5", "RR6", "RR7", "44", "88", "99"], leader=0)
    game.apply_text("0 play KK")
    assert sorted(game.to_act) == [1, 2]
    game.apply_text("1 burn RR")
    obs = game.observe(2)  # asked in the window; seat 1's answer is hidden from it
    assert "1 burn RR" not in obs.history
    world = rebuild(obs, random.Random(0))
    assert set(world.legal_actions(2)) == set(obs.legal_actions)
    game.apply_text("2 noburn")
    assert game.current_burn is not None and game.current_burn.burner == 1
    seat = game.to_act[0]
    obs = game.observe(seat)
    world = rebuild(obs, random.Random(0))
    assert set(world.legal_actions(seat)) == set(obs.legal_actions)
    assert world.burner == 1


def test_rebuild_with_a_revolutionary_keeps_its_cards_plain():
    from engine.game import Game

    game = Game.from_position(
        ["44KK2", "55AA", "667788", "99B", "TTJJ", "QQ2"], leader=0, revolted=[2]
    )
    game.apply_text("0 play 44")
    obs = game.observe(1)
    for seed in range(5):
        world = rebuild(obs, random.Random(seed))
        assert set(world.legal_actions(1)) == set(obs.legal_actions)
        assert sum(world.counts[2]) == 6
        assert world.counts[2][12:] == [0, 0, 0]  # no 2, no joker: it could revolt


def test_guessed_hands_respect_the_burner_and_the_window():
    """Seat 2 burns KK with AA and must be able to finish its burn (no hand of three ranks
    and one joker); a seat a window asks holds a burning play."""
    from engine.burning import burn_completable
    from engine.game import Game

    game = Game.from_position(["KK3", "4455", "AAB56", "789T", "6677", "22JQ"], leader=0)
    game.apply_text("0 play KK")
    game.apply_text("2 burn AA")
    obs = game.observe(5)
    base = rebuild(obs, random.Random(1))
    for world in deal_worlds(base, obs, 30, random.Random(2)):
        assert burn_completable(world.counts[2], False)
    game = Game.from_position(["KK5", "RR6", "RR7", "44", "88", "99"], leader=0)
    game.apply_text("0 play KK")
    obs = game.observe(1)
    base = rebuild(obs, random.Random(0))
    for world in deal_worlds(base, obs, 20, random.Random(3)):
        assert world.burning_plays(2)  # seat 2 is asked too: it holds RR


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_rebuilt_positions_offer_the_observed_choices_under_every_option(name):
    """Under each house rule (要头 and 够死级 hands, failed burns, wide opens): at every 3rd
    decision of short random positions played by random and hint players, the rebuilt game
    asks the same seat with the same legal actions and the same 够死级 state, in every
    world."""
    options = OPTION_SETS[name]
    rng = random.Random(40 + sorted(OPTION_SETS).index(name))
    checked = unfit = 0
    for _ in range(30):
        game = random_position(rng, options)
        players = [make_player("random" if s % 2 else "hint", s) for s in range(6)]
        step = 0
        while game.phase == "play":
            for seat in list(game.to_act):
                if seat not in game.to_act:
                    continue
                obs = game.observe(seat)
                step += 1
                if step % 3 == 0:
                    try:
                        base = rebuild(obs, rng)
                        worlds = [base, *deal_worlds(base, obs, 2, rng)]
                    except UnfitObservation:  # no random guess fits a rare window (tries run out)
                        unfit += 1
                        worlds = []
                    for world in worlds:
                        assert set(world.legal_actions(seat)) == set(obs.legal_actions)
                        assert tuple(world.head_kept) == obs.gou_si_ji
                        assert world.burns == [list(b) for b in obs.burns]
                    checked += 1
                game.apply(players[seat].act(obs))
    assert checked > 150 and unfit < checked // 20
