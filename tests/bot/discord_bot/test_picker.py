"""The card picker's logic (bot.discord_bot.picker) without Discord: every legal play of
many random hands — leads, answers, burns — is at most three picks from the controller,
and every page keeps to Discord's limits (4 menus of 25 beside a row of buttons)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.discord_bot.picker import (
    MENUS,
    OPTIONS,
    PAGE,
    Group,
    group_page,
    lead_rank,
    path_to,
    paths,
    plain_menu,
    rank_page,
    ranks,
)
from engine.actions import Action, Verb
from engine.cards import BIG_JOKER, SMALL_JOKER, TWO, counts_of, deal, parse_cards
from engine.game import Game
from engine.hands import Play
from engine.movegen import answer_plays, lead_plays


def _check_pages(plays: list[Play]) -> Counter[int]:
    """Every page of ``plays`` within Discord's limits; the picks each play takes."""
    for rank in ranks(plays):
        page = rank_page(plays, rank)
        assert 0 < len(page) <= MENUS and all(0 < len(menu) <= OPTIONS for menu in page)
        for menu in page:
            for entry in menu:
                if isinstance(entry, Group):
                    sub = group_page(plays, rank, entry.key)
                    assert 0 < len(sub) <= MENUS and all(len(m) <= OPTIONS for m in sub)
                    assert not any(isinstance(e, Group) for m in sub for e in m)
    found = paths(plays)
    assert set(found) == set(plays)
    assert all(1 <= len(path) <= 3 for path in found.values())
    return Counter(len(path) for path in found.values())


def test_every_lead_of_random_hands_is_at_most_three_picks_away() -> None:
    picks: Counter[int] = Counter()
    for seed in range(25):
        for hand in deal(seed):
            picks += _check_pages(lead_plays(counts_of(hand)))
    assert picks[1] and picks[2] and set(picks) <= {1, 2, 3}


def test_every_answer_and_burn_of_random_hands_is_at_most_three_picks_away() -> None:
    rng = random.Random(5)
    for seed in range(60):
        hands = [counts_of(h) for h in deal(seed)]
        for seat, counts in enumerate(hands):
            standing = rng.choice(lead_plays(hands[(seat + 1) % 6]))
            answers = answer_plays(counts, standing)
            _check_pages(answers)
            if answers:  # a burn window's plays are some of the answers
                _check_pages(rng.sample(answers, rng.randint(1, len(answers))))


def test_the_burns_of_a_real_burn_window_are_at_most_three_picks_away() -> None:
    hands = ["333 4 5", "KKKK 6 7", "9 9", "8 8", "T J", "AAAAAA 222222 BBB RRR 55"]
    game = Game.from_position(hands, leader=1)
    game.apply(Action(1, Verb.PLAY, Play.parse("KKKK")))  # seat 5 may burn it
    burns = game.burn_plays(5)
    assert len(burns) > OPTIONS  # more than the plain menu shows
    assert set(_check_pages(burns)) <= {1, 2}


def test_the_richest_hand_of_four_decks_still_takes_at_most_three_picks() -> None:
    counts = counts_of(parse_cards("8" * 16 + "2" * 16 + "B" * 4 + "R" * 4))
    plays = lead_plays(counts)
    assert len(plays) > PAGE  # the 8s need groups
    picks = _check_pages(plays)
    assert picks[3] > 0
    runs = [e for m in rank_page(plays, 5) for e in m if isinstance(e, Group)]
    assert all(g.ranged and len(g.plays) <= PAGE for g in runs)  # 16 × 17 groups: runs


def test_a_rich_rank_is_grouped_by_its_count_and_its_2s() -> None:
    plays = lead_plays(counts_of(parse_cards("8" * 8 + "2" * 6 + "BB RR")))
    found = [e for m in rank_page(plays, 5) for e in m if isinstance(e, Group)]
    assert len(found) == 8 * 7 and all(len(g.plays) == 9 for g in found)
    assert found[0].key == "n8t0" and not found[0].ranged


def test_a_ranks_page_lists_its_full_stack_and_its_variants_first() -> None:
    plays = lead_plays(counts_of(parse_cards("88888 22 B R 5")))
    page = [p for m in rank_page(plays, 5) for p in m]
    assert [str(p) for p in page[:4]] == ["88888", "8888822", "88888BR", "8888822BR"]
    assert [str(p) for p in page[4:8]] == ["8", "88", "888", "8888"]


def test_the_plain_menu_starts_with_the_first_play_then_every_full_stack() -> None:
    plays = lead_plays(counts_of(parse_cards("3 44 555 6666 22 B")))
    ranked = [Play.parse("44"), *[p for p in plays if str(p) != "44"]]
    menu = plain_menu(ranked)
    assert len(menu) == OPTIONS < len(ranked)
    assert [str(p) for p in menu[:5]] == ["44", "3", "555", "6666", "22"]


@pytest.mark.parametrize(
    ("play", "rank"),
    [("8882", 5), ("22B", TWO), ("BR", SMALL_JOKER), ("RR", BIG_JOKER), ("7", 4)],
)
def test_a_play_is_found_under_its_number_rank_else_2_else_its_joker(play: str, rank: int) -> None:
    assert lead_rank(Play.parse(play)) == rank


def test_a_play_not_offered_has_no_path() -> None:
    assert path_to([Play.parse("KK")], Play.parse("AA")) == []
