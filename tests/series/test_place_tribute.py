"""落贡 and the payment of tribute (docs/rules.en.md §8, §8.4; docs/record.md ``gouji-series/1``).

Game 1 is :func:`everyone_opens` unless said otherwise: nobody owes 点贡, and the places are
seat 5 头科, 0 二科, 1 三科, 2 四科, 3 二落, 4 大落.
"""

from __future__ import annotations

from engine.cards import format_cards
from engine.record import replay_series
from engine.scoring import BURN, PLACE, POINT, STIFLE, TributeOwed, tribute_owed

from .helpers import build_series, everyone_opens, game_of, position

FIRST, SECOND, FOURTH_LOSER, BIG_LOSER = 5, 0, 3, 4  # 头科, 二科, 二落, 大落 of everyone_opens
PLAIN = "345"


def _second_game(**hands: str) -> dict:
    """Game 2 as a position: seat ``s{n}=...`` overrides seat n's hand (default PLAIN)."""
    return position([hands.get(f"s{s}", PLAIN) for s in range(6)], 1)


def _paid(series, game: int = 1) -> list[tuple]:
    return [(p.kind, p.payer, p.receiver, format_cards(p.cards)) for p in series.deals[game].paid]


def test_big_loser_gives_first_place_two_and_second_loser_gives_second_place_one():
    rich = "RRRBBB222" + PLAIN
    series, record = build_series(
        [everyone_opens(), _second_game(**{f"s{s}": rich for s in range(6)})]
    )
    assert _paid(series) == [
        (PLACE, BIG_LOSER, FIRST, "RR"),
        (PLACE, FOURTH_LOSER, SECOND, "R"),
    ]
    out = replay_series(record)
    assert out["games"][1]["paid"] == [
        {"kind": "place", "from": 4, "to": 5, "cards": "RR"},
        {"kind": "place", "from": 3, "to": 0, "cards": "R"},
    ]


def test_third_and_fourth_place_neither_give_nor_receive():
    series, _ = build_series([everyone_opens(), _second_game(s1="RR2" + PLAIN, s2="RR2" + PLAIN)])
    assert all(p.payer not in (1, 2) and p.receiver not in (1, 2) for p in series.deals[1].paid)


def test_tribute_is_paid_highest_first_big_joker_then_small_joker_then_two():
    series, _ = build_series(
        [everyone_opens(), _second_game(s4="2 2 B AAA KK" + PLAIN, s3="B 2 R" + PLAIN)]
    )
    assert _paid(series) == [(PLACE, BIG_LOSER, FIRST, "2B"), (PLACE, FOURTH_LOSER, SECOND, "R")]


def test_only_jokers_and_twos_are_tribute_cards():
    """A 大落 holding aces and kings but no 2 or joker gives nothing: no entry, no return."""
    series, record = build_series([everyone_opens(), _second_game(s4="AAAA KKKK" + PLAIN)])
    assert series.deals[1].paid == [] and series.deals[1].returns == []
    assert replay_series(record)["games"][1]["paid"] == []


def test_a_payer_with_too_few_gives_what_they_have_and_gets_as_many_back():
    series, _ = build_series([everyone_opens(), _second_game(s4="2 AAA" + PLAIN)])
    deal = series.deals[1]
    assert _paid(series) == [(PLACE, BIG_LOSER, FIRST, "2")]
    assert [(r.giver, r.taker, len(r.cards or [])) for r in deal.returns] == [(FIRST, BIG_LOSER, 1)]


def test_a_payer_with_no_tribute_card_pays_nothing_and_is_owed_no_return():
    series, record = build_series([everyone_opens(), _second_game()])
    deal = series.deals[1]
    assert deal.paid == [] and deal.returns == []
    assert deal.game is not None and deal.game.leader == 1  # play began with no return
    out = replay_series(record)["games"][1]
    assert out["paid"] == [] and out["returned"] == []


def test_big_losers_place_tribute_comes_before_second_losers_whatever_the_seats():
    """大落 (seat 4) pays before 二落 (seat 3), although payment is otherwise by seat."""
    series, _ = build_series([everyone_opens(), _second_game(s3="R" + PLAIN, s4="R" + PLAIN)])
    assert [p.payer for p in series.deals[1].paid] == [BIG_LOSER, FOURTH_LOSER]


def test_tribute_owed_is_ordered_stifle_burn_point_place_and_by_payer_seat_within_a_kind():
    places = [2, 6, 3, 5, 4, 1]  # 头科 5, 二科 0, 二落 3, 大落 1
    declared = [False, True, False, False, True, False]
    opened = [False] * 6
    owed = tribute_owed(places, declared, opened, stifles=[(4, 1), (2, 5)], burns=[(3, 0), (1, 2)])
    assert owed == [
        TributeOwed(STIFLE, 2, 5, 1),
        TributeOwed(STIFLE, 4, 1, 1),
        TributeOwed(BURN, 1, 2, 1),
        TributeOwed(BURN, 3, 0, 1),
        # neither opens: pair 0/3 neither declared (1 each way); pairs 1/4 both declared (2
        # each way); pair 2/5 neither declared (1 each way)
        TributeOwed(POINT, 0, 3, 1),
        TributeOwed(POINT, 1, 4, 2),
        TributeOwed(POINT, 2, 5, 1),
        TributeOwed(POINT, 3, 0, 1),
        TributeOwed(POINT, 4, 1, 2),
        TributeOwed(POINT, 5, 2, 1),
        TributeOwed(PLACE, 1, 5, 2),
        TributeOwed(PLACE, 3, 0, 1),
    ]


def test_burn_tribute_is_paid_before_point_and_place_tribute_in_a_replayed_series():
    """Seat 1 burns seat 0's KK with AA and goes out with R: seat 0 owes seat 1 a 烧贡.
    Seat 1 also opens (its burning AA wins the round); seat 0 does not (its KK was burned)."""
    hands = ["KK4", "AAR", "5", "6", "7", "8"]
    actions = ["0 play KK", "1 burn AA", "4 pass", "1 play R"]
    game1 = position(hands, 0, actions)
    series, record = build_series([game1, position(["RRRBBB222345"] * 6, 2)])
    g1 = game_of(series.deals[0])
    assert [b.to_json() for b in g1.burns] == [{"burner": 1, "burned": 0, "result": "success"}]
    kinds = [p.kind for p in series.deals[1].paid]
    assert kinds == sorted(kinds, key=[STIFLE, BURN, POINT, PLACE].index)
    assert kinds[0] == BURN and series.deals[1].paid[0].payer == 0
    out = replay_series(record)
    assert out["games"][1]["paid"][0] == {"kind": "burn", "from": 0, "to": 1, "cards": "R"}


def test_cards_received_join_the_hand_at_once_and_can_be_paid_on():
    """Seat 1 alone declared and both 1 and 4 opened: 1 gives its opposite 4 two cards (点贡).
    Seat 4, 大落 with no tribute card of its own, pays those two on to 头科 (落贡)."""
    game1 = everyone_opens()
    game1["declared"] = [False, True, False, False, False, False]
    series, _ = build_series([game1, _second_game(s1="RB" + PLAIN)])
    assert _paid(series) == [(POINT, 1, 4, "BR"), (PLACE, BIG_LOSER, FIRST, "BR")]


def test_only_place_tribute_is_returned():
    """烧贡 and 点贡 stay with the receiver; only 落贡 is returned (§8.4)."""
    hands = ["KK4", "AAR", "5", "6", "7", "8"]
    game1 = position(hands, 0, ["0 play KK", "1 burn AA", "4 pass", "1 play R"])
    series, _ = build_series([game1, position(["RRRBBB222345"] * 6, 2)])
    deal = series.deals[1]
    assert {p.kind for p in deal.paid} == {BURN, POINT, PLACE}
    place = [(p.receiver, p.payer, len(p.cards)) for p in deal.paid if p.kind == PLACE]
    assert [(r.giver, r.taker, r.count) for r in deal.returns] == place
