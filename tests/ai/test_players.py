"""AI players: legal actions only, the observation only, determinism, the hint's choices."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.actions import Action, Verb
from engine.ai import make_player, play_game, rank_plays, suggest
from engine.ai.hint import EXPERT, HINT, choose_return, decide
from engine.ai.player import Player
from engine.ai.view import view_of_observation
from engine.game import Game, Options, Phase
from engine.hands import Play
from engine.observation import Observation
from tests.ai.helpers import advance, dealt, quick_strong, set_hand
from tests.game.randomplay import OPTION_SETS


@pytest.mark.parametrize("bie_san", [False, True])
@pytest.mark.parametrize("style", [HINT, EXPERT], ids=["hint", "expert"])
def test_policy_decisions_are_legal_without_fallback(bie_san, style):
    """decide() itself (not suggest's safety net) picks a legal action at every step."""
    for seed in range(12):
        game = dealt(seed, bie_san)
        while game.phase not in (Phase.FINISHED, Phase.VOID):
            for seat in list(game.to_act):
                if seat not in game.to_act:
                    continue
                obs = game.observe(seat)
                action = decide(view_of_observation(obs), style)
                assert action in obs.legal_actions, (seed, str(action), obs.hand)
                game.apply(action)


@pytest.mark.parametrize("bie_san", [False, True])
def test_every_player_kind_plays_legal_games(bie_san):
    for seed in range(2):
        players = [
            quick_strong(seed * 6 + s) if s in (0, 3) else make_player("random", s)
            for s in range(6)
        ]
        players[1] = make_player("hint", 1)
        checked = [_LegalCheck(p) for p in players]
        game = play_game(dealt(100 + seed, bie_san), checked)
        assert game.phase in (Phase.FINISHED, Phase.VOID)
        assert sum(c.calls for c in checked) > 20


class _LegalCheck:
    def __init__(self, player: Player) -> None:
        self.player, self.calls = player, 0

    def act(self, obs: Observation) -> Action:
        self.calls += 1
        action = self.player.act(obs)
        assert action in obs.legal_actions, str(action)
        return action

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        return self.player.choose_return(returnable, n)


def burn_position() -> Game:
    """Seat 0 leads KK (gouji); seat 1 may burn it with RR and go out with its 6 after."""
    return Game.from_position(["KK5", "RR6", "44", "77", "88", "99"], leader=0)


def test_burn_window_hint_burns_an_opponent_safely():
    game = burn_position()
    game.apply_text("0 play KK")
    assert game.to_act == [1]
    assert suggest(game.observe(1)) == Action(1, Verb.BURN, Play.parse("RR"))
    assert rank_plays(game.observe(1))[0] == Play.parse("RR")


def test_strong_answers_burn_windows_legally_and_rebuilds_after_a_burn():
    game = burn_position()
    game.apply_text("0 play KK")
    strong = quick_strong(1)
    # the burn the position is built for (RR over KK; the 6 to go out with after)
    assert strong.act(game.observe(1)) == Action(1, Verb.BURN, Play.parse("RR"))
    game.apply_text("1 burn RR")
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        seat = game.to_act[0]
        obs = game.observe(seat)
        action = quick_strong(seat).act(obs)
        assert action in obs.legal_actions
        game.apply(action)


def test_hint_never_beats_a_teammate_and_yields_on_the_opposite():
    # seat 3 leads 5; seats 4 and 5 pass; seat 0 (its opposite) may yield: it beats with a
    # plain card when it has one, and yields rather than spend a 2 or a joker
    for hand, want in (
        ("66AA", Action(0, Verb.PLAY, Play.parse("6"))),
        ("22R", Action(0, Verb.YIELD)),
    ):
        game = Game.from_position([hand, "77", "KK", "55K", "88", "99"], leader=3)
        game.apply_text("3 play 5")
        game.apply_text("4 pass")
        game.apply_text("5 pass")
        assert Action(0, Verb.YIELD) in game.legal_actions(0)
        assert suggest(game.observe(0)) == want
    game = Game.from_position(["4K", "7", "5Q", "6J", "9", "T"], leader=0)
    game.apply_text("0 play 4")
    game.apply_text("1 pass")
    assert suggest(game.observe(2)) == Action(2, Verb.PASS)  # 0 is a teammate


def test_hint_leads_the_lowest_set_and_goes_out_when_it_can():
    game = Game.from_position(["4455KK", "66", "77", "88", "99", "TT"], leader=0)
    assert suggest(game.observe(0)) == Action(0, Verb.PLAY, Play.parse("44"))
    game = Game.from_position(["99922R", "66", "77", "88", "55", "TT"], leader=0)
    assert suggest(game.observe(0)) == Action(0, Verb.PLAY, Play.parse("99922R"))


def test_hint_keeps_threes_for_last_in_bie_san():
    game = Game.from_position(
        ["3388", "66", "77", "44", "55", "TT"], leader=0, options=Options(bie_san=True)
    )
    assert suggest(game.observe(0)) == Action(0, Verb.PLAY, Play.parse("88"))


def test_rank_plays_lists_every_legal_play_hint_first():
    """At every decision of a hint game with a play to choose, the ranked plays are the
    legal ones, the hint's first when it plays (no play to rank: an empty list)."""
    game = dealt(5)
    playing = passing = 0
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        seat = game.to_act[0]
        obs = game.observe(seat)
        ranked = rank_plays(obs)
        legal = [a.cards for a in obs.legal_actions if a.verb in (Verb.PLAY, Verb.BURN)]
        assert sorted(map(str, ranked)) == sorted(map(str, legal))
        hint = suggest(obs)
        if game.phase == "play" and hint.verb in (Verb.PLAY, Verb.BURN):
            assert ranked[0] == hint.cards
            playing += len(legal) > 1
        elif game.phase == "play":
            passing += bool(ranked)  # a pass with beats at hand: they are still listed
        game.apply(hint)
    assert playing > 50 and passing > 5


def test_choose_return_gives_low_small_sets_and_keeps_wildcards():
    counts = [0] * 15
    counts[1], counts[2], counts[9], counts[12] = 3, 1, 2, 1  # 444 5 QQ 2
    assert choose_return(counts, 2) == "45"  # the lone 5, then the lowest rank
    only_twos = [0] * 15
    only_twos[12] = 3
    assert choose_return(only_twos, 2) == "22"


def _twin_games(seed: int, steps: int) -> tuple[Game, Game, int]:
    """Two games identical from the seat to act's view, different elsewhere: the other
    seats' current cards are dealt again among them."""
    game = advance(dealt(seed), steps)
    seat = game.to_act[0]
    twin = game.copy()
    others = [s for s in range(6) if s != seat]
    pool = [r for s in others for r in range(15) for _ in range(game.counts[s][r])]
    random.Random(seed).shuffle(pool)
    for s in others:
        n = sum(game.counts[s])
        hand = [0] * 15
        for r in pool[:n]:
            hand[r] += 1
        pool = pool[n:]
        set_hand(twin, s, hand)
    return game, twin, seat


def _peeking_choice(game: Game, seat: int) -> Action:
    """What a search that saw every hand would play: the strong player's candidate whose
    rollout on the true hands scores best (a control, not a player)."""
    from engine.ai.sim import Sim
    from engine.ai.strong import candidates, play_out

    obs = game.observe(seat)
    values = []
    for action in candidates(obs):
        sim = Sim.from_game(game)
        sim.apply(action)
        values.append((play_out(sim, seat)[0], action))
    return max(values, key=lambda v: v[0])[1]


TWINS = [(1, 30), (2, 55), (3, 80), (4, 120), (5, 45), (6, 70), (7, 95), (8, 60)]


def test_decisions_depend_on_the_observation_only():
    """Twin games whose hidden hands differ where it matters — a search that peeks at them
    plays differently in some — give the seat the same observation, so the players'
    decisions are the same in both."""
    peeking_differs = 0
    for seed, steps in TWINS:
        game, twin, seat = _twin_games(seed, steps)
        assert [game.counts[s] for s in range(6)] != [twin.counts[s] for s in range(6)]
        obs, obs_twin = game.observe(seat), twin.observe(seat)
        assert obs == obs_twin
        peeking_differs += _peeking_choice(game, seat) != _peeking_choice(twin, seat)
        for kind in ("hint", "random"):
            assert make_player(kind, 9).act(obs) == make_player(kind, 9).act(obs_twin)
        strong = quick_strong(9).act(obs)
        assert strong == quick_strong(9).act(obs_twin) and strong in twin.legal_actions(seat)
    assert peeking_differs >= 2


def test_strong_is_deterministic_for_a_seed():
    def run() -> list[str]:
        players = [quick_strong(s) if s % 2 == 0 else make_player("hint", s) for s in range(6)]
        return [str(a) for a in play_game(dealt(77), players).actions]

    assert run() == run()


def test_make_player_refuses_unknown_kinds():
    with pytest.raises(ValueError, match="unknown AI"):
        make_player("clever", 0)


def test_strong_decides_while_another_seat_burns():
    """Regression: guessed worlds gave the burner (seat 2) a hand that could not finish its
    burn, and the rollout's burner had no legal lead (IndexError in lead_candidates)."""
    game = Game.from_position(["KK3", "4455", "AAB56", "789T", "6677", "22JQ"], leader=0)
    game.apply_text("0 play KK")
    game.apply_text("2 burn AA")
    obs = game.observe(5)
    for seed in range(8):
        assert make_player("strong", seed).act(obs) in obs.legal_actions


def test_difficulties_name_the_kinds_weakest_first():
    from engine.ai import DIFFICULTIES, KINDS, difficulty

    assert [d.chinese for d in DIFFICULTIES] == ["简单", "普通", "困难"]
    assert [d.kind for d in DIFFICULTIES] == ["hint", "expert", "strong"]
    assert all(d.kind in KINDS for d in DIFFICULTIES)
    assert difficulty("普通") is difficulty(" Normal ") is DIFFICULTIES[1]
    with pytest.raises(ValueError, match="unknown difficulty"):
        difficulty("impossible")
    assert all(d.gain > 0 and d.series_gain > 0 for d in DIFFICULTIES)  # each beats the last


def test_the_levels_measured_strength_is_told_where_players_choose_them():
    """docs/table-options.md, docs/ai.md and /gouji ai add's description (both languages)
    give each level's measured gain over the level below, as DIFFICULTIES holds them."""
    from pathlib import Path

    from bot.text.commands import AI_STRENGTH
    from bot.text.langs import commands

    ZH = commands("zh")
    from engine.ai import DIFFICULTIES

    docs = Path(__file__).parents[2] / "docs"
    options_page = (docs / "table-options.md").read_text(encoding="utf-8")
    ai_page = (docs / "ai.md").read_text(encoding="utf-8")
    for d in DIFFICULTIES:
        row = next(line for line in options_page.splitlines() if line.startswith(f"| {d.chinese}"))
        assert f"+{d.gain:.1f}" in row and f"+{d.series_gain:.1f}" in row, row
        assert f"**+{d.gain:.2f}**" in ai_page and f"**+{d.series_gain:.2f}**" in ai_page
    assert len(AI_STRENGTH) <= 100 and len(ZH[AI_STRENGTH]) <= 100  # Discord's limit
    for d in DIFFICULTIES[1:]:
        assert f"{d.gain:.1f}" in AI_STRENGTH and f"{d.gain:.1f}" in ZH[AI_STRENGTH]


def test_ai_kind_accepts_difficulties_and_kinds_and_make_player_plays_them():
    from engine.ai import HintPlayer, ai_kind

    assert [ai_kind(n) for n in ("简单", "普通", "困难")] == ["hint", "expert", "strong"]
    assert [ai_kind(n) for n in ("Easy", " hard ", "STRONG", "random")] == [
        "hint", "strong", "strong", "random"
    ]  # fmt: skip
    with pytest.raises(ValueError, match="unknown AI 'genius'"):
        ai_kind("genius")
    normal = make_player("普通", 3)
    expert = make_player("expert", 3)
    assert isinstance(expert, HintPlayer)
    assert isinstance(normal, HintPlayer) and normal.style is expert.style


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_strong_searches_and_decides_legally_under_every_house_rule(name):
    """No guessed world crashes a decision, and the search runs (not the policy alone),
    under each option set: short random positions with few ranks and many wildcards
    (burns, burns into the melee, bie-san's 3s, 要头, failed burns), every seat strong."""
    from tests.ai.test_sim import random_position

    rng = random.Random(11 + sorted(OPTION_SETS).index(name))
    players = [quick_strong(rng.randrange(1000)) for _ in range(6)]
    decided = 0
    for _ in range(10):
        game = random_position(rng, OPTION_SETS[name])
        while game.phase == "play":
            seat = game.to_act[0]
            obs = game.observe(seat)
            action = players[seat].act(obs)
            assert action in obs.legal_actions
            game.apply(action)
            decided += 1
    assert decided > 80
    assert sum(p.searched for p in players) > decided // 5
