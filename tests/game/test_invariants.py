"""Invariants over thousands of random games: every seat picks uniformly among its legal
actions. ``pytest --slow`` runs 20,000 games instead of 1,200."""

from __future__ import annotations

import random

import pytest

from engine.actions import Verb
from engine.cards import format_cards
from engine.game import Game, Options, Phase
from engine.record import replay_record, state_json
from engine.scoring import team_scores

from .randomplay import GAME_OPTION_SETS, play_random_game


def record_of(game: Game) -> dict:
    """The real-game record of a game played from a deal."""
    return {
        "format": "gouji-record/1",
        "options": game.options.to_json(),
        "hands": [" ".join(str(c) for c in h) for h in game.dealt],
        "seed": game.seed,
        "actions": [str(a) for a in game.actions],
    }


def check_game(game: Game) -> None:
    total = [sum(h[r] for h in map(_counts, game.dealt)) for r in range(15)]
    held = [sum(c[r] for c in game.counts) for r in range(15)]
    assert [h + p for h, p in zip(held, game.played, strict=True)] == total  # cards conserved
    for seat in range(6):
        assert format_cards(game.cards[seat]) == format_cards(_from_counts(game.counts[seat]))
    seeds = game.options.burn_check == "seeds"
    if game.phase == Phase.VOID:
        assert sum(game.revolted) >= 2
        return
    assert game.phase == Phase.FINISHED and game.to_act == []
    assert sorted(p for p in game.places if p is not None) == [1, 2, 3, 4, 5, 6]  # a permutation
    points = game.points()
    assert points is not None
    assert sum(team_scores(points)) == 0  # team points sum to zero
    assert sum(points) == 0
    for b in game.burns:
        assert b.result in (("success", "broken", "failed") if seeds else ("success", "broken"))
    for seat in range(6):  # only a failed burner ends holding cards it may not play
        failed = any(b.burner == seat and b.result == "failed" for b in game.burns)
        kept = failed or game.revolted[seat] or seat in _last_team(game)
        assert kept or sum(game.counts[seat]) == 0
    replayed = replay_record(record_of(game))
    assert replayed == state_json(game)  # the log rebuilds the same state


def _counts(cards):
    c = [0] * 15
    for card in cards:
        c[card.rank] += 1
    return c


def _from_counts(counts):
    from engine.cards import Card

    return [Card(r) for r, n in enumerate(counts) for _ in range(n)]


def _last_team(game: Game) -> set[int]:
    """The seats still in play when the game ended (they keep their cards)."""
    return {s for s in range(6) if s not in game.finish_order and not game.revolted[s]}


# (options, games): about as many games in the default run as before the options came.
FULL_GAME_RUNS = {"default": 350, "bie_san": 250, "gou_si_ji": 100, "burn_seeds": 100}
FULL_GAME_RUNS |= {"open_wide": 100, "all": 100}


@pytest.mark.parametrize("name", sorted(FULL_GAME_RUNS))
def test_random_full_games_keep_every_invariant(name):
    for seed in range(FULL_GAME_RUNS[name]):
        check_game(play_random_game(seed, options=GAME_OPTION_SETS[name]))


def random_position(seed: int, options: Options | None = None) -> tuple[Game, random.Random]:
    """Small random hands (4–9 cards) from the shoe: burns, melee and endings come often.
    Without ``options``, bie-san in about 3 games of 10; with 够死级 on, a seat has revolted
    in about half the games (so 要头 is asked)."""
    from engine.cards import new_shoe

    rng = random.Random(seed)
    shoe = new_shoe()
    rng.shuffle(shoe)
    hands, i = [], 0
    for _ in range(6):
        n = rng.randint(4, 9)
        hands.append(shoe[i : i + n])
        i += n
    options = options or Options(bie_san=rng.random() < 0.3)
    revolted = []
    if options.gou_si_ji and rng.random() < 0.5:
        revolted = [rng.randrange(6)]
        hands[revolted[0]] = []
    leader = rng.choice([s for s in range(6) if s not in revolted])
    g = Game.from_position(hands, leader, options=options, revolted=revolted)
    g.seed = seed
    return g, rng


def random_position_game(seed: int, options: Options | None = None) -> Game:
    """:func:`random_position`, played out by random players."""
    g, rng = random_position(seed, options)
    steps = 0
    while g.phase != Phase.FINISHED:
        assert g.to_act, "someone can always act until the end"
        seat = rng.choice(g.to_act)
        actions = g.legal_actions(seat)
        assert actions
        g.apply(rng.choice(actions))
        steps += 1
        assert steps < 2000
    return g


POSITION_RUNS = {"default": 400, "gou_si_ji": 150, "burn_seeds": 200, "open_wide": 50, "all": 150}


@pytest.mark.parametrize("name", sorted(POSITION_RUNS))
def test_random_small_positions_keep_every_invariant_and_burn(name):
    burns = {"success": 0, "broken": 0, "failed": 0}
    melee = keepheads = 0
    for seed in range(POSITION_RUNS[name]):
        g = random_position_game(seed, None if name == "default" else GAME_OPTION_SETS[name])
        assert sorted(p for p in g.places if p is not None) == [1, 2, 3, 4, 5, 6]
        points = g.points()
        assert points is not None and sum(team_scores(points)) == 0
        for b in g.burns:
            burns[b.result] += 1
        melee += g.melee
        keepheads += any(a.verb == "keephead" for a in g.actions)
        rec = {
            "format": "gouji-record/1",
            "options": g.options.to_json(),
            "hands": [" ".join(str(c) for c in h) for h in g.dealt],
            "leader": g.leader,
            "revolted": [s for s in range(6) if g.revolted[s]],
            "actions": [str(a) for a in g.actions],
        }
        assert replay_record(rec) == state_json(g)
    assert melee > 0
    if g.options.gou_si_ji:
        assert keepheads > 0  # 要头 was chosen, and played out, in some games
    if name in ("burn_seeds", "all"):  # random burners fail more often than they succeed
        assert burns["failed"] > 0 and burns["success"] + burns["broken"] > 0
    else:
        assert burns["success"] > 0  # broken burns are rare here: see test_burn.py


@pytest.mark.parametrize("name", sorted(POSITION_RUNS))
def test_only_pass_says_whether_a_lone_pass_is_every_legal_action(name):
    """The table's auto-pass asks ``only_pass``: the same answer as listing the legal actions,
    for every seat at every step of random positions (leads, answers, 让牌, burn windows,
    questions, 够死级)."""
    options = None if name == "default" else GAME_OPTION_SETS[name]
    lone = 0
    for seed in range(POSITION_RUNS[name] // 2):
        g, rng = random_position(seed, options)
        while g.phase != Phase.FINISHED:
            for seat in range(6):
                listed = [a.verb for a in g.legal_actions(seat)] == [Verb.PASS]
                assert g.only_pass(seat) == listed, (seed, seat, [str(a) for a in g.actions])
                lone += listed
            g.apply(rng.choice(g.legal_actions(rng.choice(g.to_act))))
    assert lone > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAME_OPTION_SETS))
def test_many_random_games_keep_every_invariant(name):
    for seed in range(4_000):
        check_game(play_random_game(seed + 10_000, options=GAME_OPTION_SETS[name]))
