"""``gouji arena --ratings``: the two programs rated as the bot rates players."""

from __future__ import annotations

import json

from bot.cli import main
from bot.cli.arena_ratings import match_ratings
from engine.rating import Entry, rate_game


def test_hint_is_rated_far_above_random_play(capsys):
    args = ["arena", "--a", "hint", "--b", "random", "--games", "6", "--seed", "5"]
    assert main([*args, "--ratings", "--json"]) == 0
    ratings = json.loads(capsys.readouterr().out)["ratings"]
    assert list(ratings) == ["hint (A)", "random (B)"]
    hint, random_play = ratings["hint (A)"], ratings["random (B)"]
    assert hint["games"] == random_play["games"] == 12
    assert hint["rating"] > random_play["rating"] + 10
    assert abs(hint["rating"] - (hint["mu"] - 3 * hint["sigma"])) < 0.01
    assert main([*args, "--ratings"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("ratings after 12 games: hint (A) ") and "random (B)" in last


def test_without_the_option_there_are_no_ratings(capsys):
    assert main(["arena", "--a", "hint", "--b", "random", "--games", "2", "--json"]) == 0
    assert "ratings" not in json.loads(capsys.readouterr().out)


def test_each_program_is_one_player_on_its_three_seats_and_swaps_sides():
    # one deal: A takes 1st-3rd on seats 0, 2, 4, then 1st-3rd again on seats 1, 3, 5
    deals = [{"places": [[1, 4, 2, 5, 3, 6], [4, 1, 5, 2, 6, 3]]}]
    got = match_ratings(deals, "expert", "hint")
    ratings: dict = {}
    for swap, places in enumerate(deals[0]["places"]):
        lineup = [Entry("A" if s % 2 == swap else "B", places[s]) for s in range(6)]
        ratings.update(rate_game(ratings, lineup))
    assert got["expert (A)"]["mu"] == round(ratings["A"].mu, 3)
    assert got["hint (B)"]["sigma"] == round(ratings["B"].sigma, 3)
    assert got["expert (A)"]["games"] == 2 and got["expert (A)"]["mu"] > 25 > got["hint (B)"]["mu"]
