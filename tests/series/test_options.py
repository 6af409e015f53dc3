"""Table options between the games of a series (docs/rules.en.md §9): 不还单张 and 贡牌 — and the
missing-return defaults and void marker of a replayed series (docs/record.md)."""

from __future__ import annotations

import pytest

from engine.record import ReplayError, replay

from .helpers import game_of

# Game 1: each seat plays one card in turn; seat 5 ends 大落 (pays 头科, seat 0, two
# cards) and seat 4 二落 (pays 二科, seat 1, one card). Nobody opened: each seat also pays
# its opposite one 点贡 first.
GAME_1 = {"hands": ["3", "4", "5", "6", "7", "89"], "leader": 0}
GAME_1["actions"] = ["0 play 3", "1 play 4", "2 play 5", "3 play 6", "4 play 7"]


def series(*games: dict, **options: object) -> dict:
    record: dict = {"format": "gouji-series/1", "games": [GAME_1, *games]}
    if options:
        record["options"] = options
    return record


def paid(out: dict, kind: str, payer: int) -> str:
    return "".join(
        p["cards"] for p in out["games"][1]["paid"] if p["kind"] == kind and p["from"] == payer
    )


def test_tribute_cards_default_only_jokers_and_twos():
    """001: "大王、小王、2是法定贡牌,按牌点大小取大者进贡。若没有摸到法定贡牌,则不予进贡。" """
    out = replay(series({"hands": ["39", "4", "5", "6", "7", "9K"], "leader": 0}))
    assert paid(out, "point", 5) == "" and paid(out, "place", 5) == ""


def test_tribute_cards_biggest_pays_the_biggest_cards_of_any_rank():
    """000: "进贡时要进手里最大的牌" (also 003) — so every owed card is paid."""
    game = {"hands": ["3999", "4444", "5555", "6666", "7777", "39QK"], "leader": 0}
    out = replay(series(game, tribute_cards="biggest"))
    assert paid(out, "point", 5) == "K" and paid(out, "place", 5) == "9Q"


def test_no_single_return_to_an_opponent_only_ranks_the_payer_holds():
    """000: "在不还单张的房间里游戏，还贡时进贡人手里没有什么，还贡人不能还什么。如进贡人手里没有8，则
    还贡人不能还8给进贡人。联邦之间没有这个限制。" — seat 5 holds only a 9 after paying."""
    game = {"hands": ["39", "4", "5", "6", "7", "229"], "leader": 0, "returns": ["0 return 3"]}
    with pytest.raises(ReplayError, match="return_rank"):
        replay(series(game))


def test_no_single_return_off_any_card_may_be_returned():
    """000 names 不还单张 as a room option: without it, any card goes back."""
    game = {"hands": ["39", "4", "5", "6", "7", "229"], "leader": 0, "returns": ["0 return 3"]}
    out = replay(series(game, no_single_return=False))
    assert out["games"][1]["returned"] == [{"from": 0, "to": 5, "cards": "3"}]


def test_a_pending_return_of_the_last_game_takes_the_default_in_a_replay():
    """docs/record.md: "A missing return takes the default" — the last game is listed with its
    tribute paid and returned (issue 18's minimal record)."""
    out = replay(series({"hands": ["39", "4", "5", "6", "7", "229"], "leader": 0, "actions": []}))
    assert len(out["games"]) == 2
    second = out["games"][1]
    assert second["returned"] == [{"from": 0, "to": 5, "cards": "9"}]
    assert second["to_act"] == [0] and sum(out["totals"]) == 0


def test_a_missing_first_place_return_takes_the_default_before_second_places_return():
    """docs/record.md: a missing return takes the default — 头科's default, then 二科's given one."""
    game = {"hands": ["39", "49", "5", "6", "229", "229"], "leader": 0, "returns": ["1 return 9"]}
    second = replay(series(game))["games"][1]
    assert second["returned"] == [
        {"from": 0, "to": 5, "cards": "9"},
        {"from": 1, "to": 4, "cards": "9"},
    ]


def test_a_void_deal_is_marked_in_the_series_json():
    void = {"hands": ["45", "45", "67", "22", "RR", "BB"]}
    void["actions"] = [f"{s} nodeclare" for s in range(6)] + ["0 revolt", "1 revolt", "2 norevolt"]
    out = replay({"format": "gouji-series/1", "games": [void, GAME_1]})
    assert [g["void"] for g in out["games"]] == [True, False]


@pytest.mark.parametrize("name", ["no_single_return_off", "tribute_biggest", "all"])
def test_random_series_under_the_tribute_options_replay_to_the_same_totals(name):
    import json

    from tests.game.randomplay import OPTION_SETS, play_random_series

    for seed in range(3):
        played, record = play_random_series(seed, options=OPTION_SETS[name])
        out = replay(json.loads(json.dumps(record)))
        assert out["totals"] == played.totals() and sum(out["totals"]) == 0
        assert [g["places"] for g in out["games"]] == [
            list(game_of(d).places) for d in played.deals
        ]
        if OPTION_SETS[name].tribute_cards == "biggest":  # every owed card is paid
            for deal in played.deals[1:]:
                assert all(len(p.cards) for p in deal.paid)
