"""还贡 (docs/rules.en.md §8.4; docs/record.md ``returns``): who returns, how many, which cards."""

from __future__ import annotations

import copy

import pytest

from engine.actions import Action, IllegalActionError, NotYourTurnError, Verb
from engine.cards import format_cards
from engine.record import ReplayError, replay_series

from .helpers import build_series, everyone_opens, game_of, position

# everyone_opens: 头科 seat 5 and 大落 seat 4 are opponents, as are 二科 seat 0 and 二落 seat 3.
FIRST, SECOND, FIFTH, SIXTH = 5, 0, 3, 4
PLAIN_LEAD = 1  # game 2 is a position led by seat 1
# A game 1 in which 大落 (seat 4) is 头科's (seat 0) teammate and 二落 (seat 5) is 二科's
# (seat 1): seats go out in play order 0, 1, 2, 3, then 5 beats 3's last card and goes out.
TEAMMATES_GAME = position(
    ["4", "5", "6", "7", "3", "8"],
    0,
    ["0 play 4", "1 play 5", "2 play 6", "3 play 7", "4 pass", "5 play 8"],
)


def _series_waiting_for_returns(game1: dict, hands2: list[str]):
    """A series whose game 1 is ``game1`` and whose game 2 was just dealt ``hands2`` (as a
    position led by seat 1): tribute paid, returns not yet made."""
    series, _ = build_series([game1])
    series.start_game(hands2, None, (PLAIN_LEAD, None, []))
    return series


def _state(series) -> tuple:
    deal = series.current
    return (
        [format_cards(h) for h in deal.hands],
        [(r.giver, r.taker, r.count, r.cards) for r in deal.returns],
        deal.game,
    )


def test_teammates_game_places():
    series, _ = build_series([TEAMMATES_GAME])
    assert game_of(series.deals[0]).places == [1, 2, 3, 4, 6, 5]


def test_first_place_returns_first_then_second_place():
    hands = ["RR345", "345", "345", "2 3 4 5", "RR 7 8", "7 8 T"]
    series = _series_waiting_for_returns(everyone_opens(), hands)
    assert series.to_act == [FIRST]
    with pytest.raises(NotYourTurnError):
        series.apply(Action.parse(f"{SECOND} return 3"))
    series.apply(Action.parse(f"{FIRST} return 78"))
    assert series.to_act == [SECOND]
    series.apply(Action.parse(f"{SECOND} return 3"))
    assert series.current.game is not None and series.to_act == [PLAIN_LEAD]


def test_return_as_many_cards_as_actually_received():
    """大落 holds a single 2: 头科 received one card and returns exactly one."""
    series = _series_waiting_for_returns(
        everyone_opens(), ["345", "345", "345", "345", "2 7 8", "7 8 9"]
    )
    assert series.returnable(FIRST)[0] == 1
    with pytest.raises(IllegalActionError, match="return_count"):
        series.apply(Action.parse(f"{FIRST} return 78"))
    series.apply(Action.parse(f"{FIRST} return 8"))
    assert format_cards(series.current.returns[0].cards) == "8"


def test_return_to_an_opponent_only_of_ranks_the_payer_then_holds():
    """不还单张: 大落 dealt RR77 pays RR and then holds only 7s. 头科 may return its 7 but not
    its 8 nor a big joker it just received (大落 no longer holds one)."""
    hands = ["345", "345", "345", "345", "RR 7 7", "3 7 8 9"]
    series = _series_waiting_for_returns(everyone_opens(), hands)
    n, allowed = series.returnable(FIRST)
    assert n == 1  # fewer legal cards (one 7) than received (two): as many as there are
    assert format_cards("".join("3456789TJQKA2BR"[r] * c for r, c in enumerate(allowed))) == "7"
    for bad in ("8", "R", "3"):
        with pytest.raises(IllegalActionError, match="return_rank"):
            series.apply(Action.parse(f"{FIRST} return {bad}"))
    series.apply(Action.parse(f"{FIRST} return 7"))
    assert format_cards(series.current.hands[SIXTH]) == "777"


def test_return_between_teammates_may_be_any_card():
    # Nobody opened in that game: each seat first pays its opposite one 点贡 (seat 4 an R to
    # seat 1, seat 5 a 2 to seat 2), then 大落 seat 4 pays RR to seat 0 and 二落 seat 5 a 2
    # to seat 1.
    hands = ["3 9 K", "4 Q", "345", "345", "R R R 5", "2 2 6"]
    series = _series_waiting_for_returns(TEAMMATES_GAME, hands)
    assert [(r.giver, r.taker, r.count) for r in series.current.returns] == [(0, 4, 2), (1, 5, 1)]
    assert series.to_act == [0]
    # 大落 seat 4 holds only a 5 after paying; to a teammate seat 0 may still give 9 and K.
    series.apply(Action.parse("0 return 9K"))
    assert series.to_act == [1]
    series.apply(Action.parse("1 return Q"))  # 二落 seat 5 holds no Q: teammates need not care
    assert format_cards(series.current.hands[5]) == "6Q"


def test_with_no_legal_card_to_return_none_is_returned_and_play_begins():
    """头科 holds no rank that 大落 still holds: as many as there are is none."""
    hands = ["345", "345", "345", "345", "RR 7 7", "3 8 9"]
    series = _series_waiting_for_returns(everyone_opens(), hands)
    deal = series.current
    assert deal.returns[0].giver == FIRST and deal.returns[0].cards == []
    assert deal.game is not None and series.to_act == [PLAIN_LEAD]


def test_default_return_is_the_lowest_legal_cards():
    hands = ["345", "345", "345", "345", "RR 6 9 9 K", "3 6 9 9 K A"]
    series = _series_waiting_for_returns(everyone_opens(), hands)
    assert series.default_return(FIRST) == "69"
    teammates = _series_waiting_for_returns(
        TEAMMATES_GAME, ["3 9 K", "4 Q", "345", "345", "RRR5", "226"]
    )
    assert teammates.default_return(0) == "39"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("5 return 7", IllegalActionError),  # one card, two owed
        ("5 return 777", IllegalActionError),  # three cards, two owed
        ("5 return 7J", IllegalActionError),  # J not held
        ("5 return 78", IllegalActionError),  # 8: 大落 holds none (不还单张)
        ("0 return 3", NotYourTurnError),  # 二科 before 头科
        ("4 return 7", NotYourTurnError),  # the payer does not return
        ("1 play 3", IllegalActionError),  # play before the returns are made
    ],
)
def test_an_illegal_return_changes_nothing(text, error):
    hands = ["2 3 4", "345", "345", "345 2", "RR 7 7 9", "3 7 7 8 9"]
    series = _series_waiting_for_returns(everyone_opens(), hands)
    before = copy.deepcopy(_state(series))
    with pytest.raises(error):
        series.apply(Action.parse(text))
    assert _state(series) == before
    series.apply(Action(FIRST, Verb.RETURN, "77"))  # and the legal return still works
    assert series.to_act == [SECOND]


def test_returned_cards_carry_no_points():
    """Game 2 tribute points are −2 大落 / +2 头科 and −1 二落 / +1 二科, returns or not."""
    hands = ["345", "345", "345", "2 3 4", "RR 7 7 9", "3 7 7 8 9"]
    series = _series_waiting_for_returns(everyone_opens(), hands)
    series.apply(Action(FIRST, Verb.RETURN, "77"))
    series.apply(Action(SECOND, Verb.RETURN, "4"))
    assert series.current.tribute_points() == [1, 0, 0, -1, -2, 2]


def test_an_illegal_return_in_a_series_record_stops_the_replay_with_its_index():
    _, record = build_series(
        [everyone_opens(), position(["2 3 4", "345", "345", "345 2", "RR 7 7 9", "3 7 7 8 9"], 1)]
    )
    record["games"][1]["returns"] = ["5 return 77", "0 return 2"]  # 二落 holds no 2 any more
    with pytest.raises(ReplayError) as info:
        replay_series(record)
    assert info.value.to_json()["error"]["game"] == 1
    assert info.value.to_json()["error"]["index"] == 1
    assert info.value.reason == "return_rank (to=3)"  # 不还单张


def test_missing_returns_in_a_series_record_take_the_default():
    _, record = build_series(
        [everyone_opens(), position(["2 3 4", "345", "345", "345 2", "RR 7 7 9", "3 7 7 8 9"], 1)]
    )
    record["games"][1]["returns"] = []
    out = replay_series(record)
    assert out["games"][1]["returned"] == [
        {"from": FIRST, "to": SIXTH, "cards": "77"},
        {"from": SECOND, "to": FIFTH, "cards": "3"},
    ]
