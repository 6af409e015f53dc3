"""Tribute in the bie-san variant (docs/rules.en.md §7, §8.1): 闷贡 first, then 3s bought after the
tribute and its returns."""

from __future__ import annotations

from engine.record import replay_series

from .helpers import build_series, game_of, position

# Seat 0 plays its 4 and then holds only 3s; seat 1 beats the 4: seat 0 is stifled by 1.
STIFLE_GAME = position(["433", "53", "63", "73", "83", "93"], 0, ["0 play 4", "1 play 5"])


def test_stifled_player_pays_the_stifler_one_card_before_any_other_tribute():
    series, record = build_series([STIFLE_GAME, position(["RRRBBB222345"] * 6, 1)], bie_san=True)
    assert game_of(series.deals[0]).stifled == [(0, 1)]
    paid = replay_series(record)["games"][1]["paid"]
    assert paid[0] == {"kind": "stifle", "from": 0, "to": 1, "cards": "R"}
    assert [p["kind"] for p in paid[1:]] == ["point"] * 6 + ["place"] * 2


def test_threes_are_bought_after_tribute_and_returns():
    """Game 1 left: 闷贡 0→1, 点贡 both ways in every pair, 落贡 0→1 (two) and 5→2 (one).
    Seat 0, dealt 2278 with no 3, pays out every 2 it holds and, with no 3, no 2 and no
    joker left, revolts automatically. Seat 2 returns its only 3 to seat 5 (its lowest legal
    card) and then buys a 3 from seat 5 with a 2."""
    hands = ["2 2 7 8", "3 4 5 R", "3 4 5 R", "3 4 5", "3 4 5", "3 4 5 2"]
    series, record = build_series([STIFLE_GAME, position(hands, 1)], bie_san=True)
    deal = series.deals[1]
    assert [r.to_json() for r in deal.returns if r.cards] == [{"from": 2, "to": 5, "cards": "3"}]
    assert game_of(deal).auto_revolted == [0] and game_of(deal).revolted[0]
    assert [(b, s) for b, s, _, _ in game_of(deal).bought] == [(2, 5)]
    out = replay_series(record)["games"][1]
    assert out["returned"] == [{"from": 2, "to": 5, "cards": "3"}]
    assert out["places"][0] == 4  # a revolutionary holds 四科
