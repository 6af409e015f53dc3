"""engine/rating.py: the Plackett–Luce update is openskill's — its own examples' numbers,
and the library itself on many random games — and a game's lineup is rated as the module
says (teams or places, leavers, an AI level on several seats)."""

from __future__ import annotations

import math
import random

import pytest
from openskill.models import PlackettLuce

from engine.rating import (
    DEFAULT,
    MU,
    PLACES,
    SIGMA,
    TEAMS,
    Entry,
    Model,
    Rating,
    change_text,
    figure_text,
    is_lineup,
    merge_copies,
    plackett_luce,
    rate_game,
    seat_ranks,
    team_ranks,
)

#: openskill.py's tests/models/data/plackettluce.json: its model, one player against two
OPENSKILL_MODEL = Model(mu=31.321989232514305, sigma=11.379964801443018)
OPENSKILL_CASES = [
    # ranks, expected (mu, sigma) of the player of team 1 and of each player of team 2 (and 3)
    ([1, 2], [(36.48967347401391, 11.237778601372977), (26.154304991014694, 11.17822477763209)]),
    ([2, 1], [(30.19454401757094, 11.237778601372977), (32.44943444745767, 11.17822477763209)]),
    (
        [1, 2, 1],  # "ties": with a third team of three
        [
            (33.21874815457553, 11.354896725884002),
            (30.27713112192334, 11.291328826858104),
            (30.470088421044046, 11.249240904583088),
        ],
    ),
]


@pytest.mark.parametrize("ranks, expected", OPENSKILL_CASES, ids=["normal", "ranks", "ties"])
def test_known_values_of_openskills_own_tests(ranks, expected) -> None:
    m = OPENSKILL_MODEL
    teams = [[(m.mu, m.sigma)] * size for size in (1, 2, 3)[: len(ranks)]]
    rated = plackett_luce(teams, ranks, m)
    for team, (mu, sigma) in zip(rated, expected, strict=True):
        for player in team:
            assert player == pytest.approx((mu, sigma), rel=1e-12)


def test_known_values_of_openskills_readme_example() -> None:
    """The README's two against two (from before openskill added tau: tau = 0)."""
    teams = [[(25.0, 25 / 3), (32.444, 5.123)], [(43.381, 2.421), (25.188, 6.211)]]
    rated = plackett_luce(teams, [1, 2], Model(tau=0.0))
    expected = [
        [(28.669648436582808, 8.071520788025197), (33.83086971107981, 5.062772998705765)],
        [(43.071274808241974, 2.4166900452721256), (23.149503312339064, 6.1378606973362135)],
    ]
    for team, want in zip(rated, expected, strict=True):
        assert team == [pytest.approx(pair, rel=1e-12) for pair in want]


def test_plackett_luce_is_openskills_rate_on_many_random_games() -> None:
    reference = PlackettLuce()
    rng = random.Random(28)
    for _ in range(2000):
        k = rng.randint(2, 6)
        teams = [
            [(rng.uniform(-10, 60), rng.uniform(0.3, 12)) for _ in range(rng.randint(1, 4))]
            for _ in range(k)
        ]
        ranks: list[float] = [rng.randint(1, k) for _ in range(k)]
        want = reference.rate(
            [[reference.rating(mu=mu, sigma=s) for mu, s in team] for team in teams], ranks=ranks
        )
        got = plackett_luce(teams, ranks)
        for got_team, want_team in zip(got, want, strict=True):
            for (mu, sigma), player in zip(got_team, want_team, strict=True):
                assert mu == pytest.approx(player.mu, rel=1e-12, abs=1e-12)
                assert sigma == pytest.approx(player.sigma, rel=1e-12)


def test_the_defaults_are_openskills() -> None:
    reference = PlackettLuce()
    assert (MU, SIGMA) == (reference.mu, reference.sigma) == (DEFAULT.mu, DEFAULT.sigma)
    assert (DEFAULT.beta, DEFAULT.kappa, DEFAULT.tau) == (
        reference.beta,
        reference.kappa,
        reference.tau,
    )
    assert Rating().ordinal == pytest.approx(reference.rating().ordinal())


def lineup(places, left=(), players="abcdef") -> list[Entry]:
    return [Entry(players[s], p, s in left) for s, p in enumerate(places)]


def test_a_team_with_more_place_points_wins_and_equal_points_draw() -> None:
    assert team_ranks(lineup([1, 2, 3, 4, 5, 6])) == (1, 2)  # 4+0-2 against 2+0-4
    assert team_ranks(lineup([2, 1, 4, 3, 6, 5])) == (2, 1)
    assert team_ranks(lineup([1, 2, 4, 3, 6, 5])) == (1, 1)  # 4+0-4 against 2+0-2: a draw


def test_a_leavers_team_loses_whatever_the_places() -> None:
    assert team_ranks(lineup([1, 4, 2, 5, 3, 6], left={2})) == (2, 1)
    assert team_ranks(lineup([1, 4, 2, 5, 3, 6], left={5})) == (1, 2)
    # leavers on both teams: the places decide
    assert team_ranks(lineup([1, 4, 2, 5, 3, 6], left={0, 1})) == (1, 2)
    ranks = seat_ranks(lineup([1, 4, 2, 5, 3, 6], left={2}), PLACES)
    assert ranks == [7, 4, 8, 5, 9, 6]  # the leaver's team behind the other team's places


def test_teams_mode_is_openskill_on_the_two_teams_of_three() -> None:
    reference = PlackettLuce()
    before = {p: Rating(20 + 2 * i, 3 + i, 5) for i, p in enumerate("abcdef")}
    game = lineup([2, 1, 4, 3, 6, 5])  # team 1 wins
    got = rate_game(before, game, Model(mode=TEAMS))
    r = {p: reference.rating(mu=x.mu, sigma=x.sigma) for p, x in before.items()}
    want = reference.rate([[r["a"], r["c"], r["e"]], [r["b"], r["d"], r["f"]]], ranks=[2, 1])
    for player, w in zip("acebdf", [p for team in want for p in team], strict=True):
        assert (got[player].mu, got[player].sigma) == pytest.approx((w.mu, w.sigma), rel=1e-12)
        assert got[player].games == 6


def test_places_mode_is_openskill_on_the_six_places() -> None:
    reference = PlackettLuce()
    game = lineup([3, 1, 6, 2, 4, 5])
    got = rate_game({}, game, Model(mode=PLACES))
    want = reference.rate([[reference.rating()] for _ in range(6)], ranks=[3, 1, 6, 2, 4, 5])
    for player, (w,) in zip("abcdef", want, strict=True):
        assert (got[player].mu, got[player].sigma) == pytest.approx((w.mu, w.sigma), rel=1e-12)


@pytest.mark.parametrize("mode", [TEAMS, PLACES])
def test_an_ai_level_on_several_seats_is_one_player(mode) -> None:
    """Its seats are rated as copies; it takes their summed changes of mu and the product
    of their variance shrinkings."""
    model = Model(mode=mode)
    game = lineup([1, 2, 3, 4, 5, 6], players=["ai:hint", "b", "ai:hint", "d", "ai:hint", "f"])
    got = rate_game({}, game, model)
    assert set(got) == {"ai:hint", "b", "d", "f"} and got["ai:hint"].games == 1
    copies = [rate_game({}, lineup([1, 2, 3, 4, 5, 6]), model)[p] for p in "ace"]
    prior = SIGMA**2 + model.tau**2
    assert got["ai:hint"].mu == pytest.approx(MU + sum(c.mu - MU for c in copies))
    shrink = math.prod(c.sigma**2 / prior for c in copies)
    assert got["ai:hint"].sigma == pytest.approx(math.sqrt(prior * shrink))
    assert got["ai:hint"].sigma < min(c.sigma for c in copies)  # three seats: surer than one
    assert got["b"] == rate_game({}, lineup([1, 2, 3, 4, 5, 6]), model)["b"]


def test_merging_one_seat_keeps_that_seats_result_exactly() -> None:
    before = {"a": Rating(30.0, 4.0, 2)}
    assert merge_copies(before, ["a"], [(31.5, 3.9)]) == {"a": Rating(31.5, 3.9, 3)}


def test_only_six_seats_with_places_one_to_six_are_rated() -> None:
    assert is_lineup(lineup([1, 2, 3, 4, 5, 6]))
    assert not is_lineup(lineup([1, 2, 3, 4, 5, 5]))
    assert not is_lineup(lineup([1, 2, 3, 4, 5]))
    with pytest.raises(ValueError, match="places 1 to 6"):
        rate_game({}, lineup([1, 1, 3, 4, 5, 6]))


def test_the_model_name_changes_with_any_parameter() -> None:
    names = {Model().name, Model(mode=TEAMS).name, Model(tau=0.0).name, Model(beta=4.0).name}
    assert len(names) == 4


def test_a_new_rating_starts_at_zero_and_is_provisional() -> None:
    assert Rating().ordinal == pytest.approx(0.0) and Rating().provisional
    assert not Rating(games=10).provisional


def test_six_different_players_take_the_general_paths_numbers_to_the_bit() -> None:
    """rate_game spells the common case out for speed: it changes no bit."""
    rng = random.Random(7)
    for _ in range(500):
        before = {
            p: Rating(rng.uniform(0, 50), rng.uniform(0.5, 9), rng.randint(0, 9)) for p in "abcdef"
        }
        game = lineup(
            rng.sample(range(1, 7), 6), left={rng.randrange(6)} if rng.random() < 0.3 else ()
        )
        seats = [(before[e.player].mu, before[e.player].sigma) for e in game]
        rated = plackett_luce([[seat] for seat in seats], seat_ranks(game, PLACES))
        general = merge_copies(before, [e.player for e in game], [team[0] for team in rated])
        assert rate_game(before, game, Model(mode=PLACES)) == general


def test_ratings_are_shown_with_one_decimal_and_real_minus_signs() -> None:
    assert [figure_text(x) for x in (21.34, -1.96, -0.04, 0.0)] == ["21.3", "−2.0", "0.0", "0.0"]
    assert [change_text(x) for x in (1.25, -0.44, 0.04, -0.04)] == ["+1.2", "−0.4", "0.0", "0.0"]
