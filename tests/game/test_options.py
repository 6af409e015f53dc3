"""Table options (docs/rules.en.md §9) that change a game: 开点, 烧牌条件 and 够死级 — one test per
rule, with the seeds' sentences they come from."""

from __future__ import annotations

import pytest

from engine.game import Game, Options
from engine.record import RecordError, replay_record

from .helpers import refused, run

SEEDS = {"burn_check": "seeds"}
GSJ = {"gou_si_ji": True}

# ----------------------------------------------------------------------------- 开点


def test_strict_open_a_single_two_does_not_open():
    """001: "单张、或带大、小王的够级牌不算开点" (the default)."""
    r = run(["25", "44", "66", "77", "88", "99"], ["0 play 2", "3 pass"])
    assert r["to_act"] == [0] and not r["opened"][0]


@pytest.mark.parametrize("lead", ["2", "5B"])
def test_wide_open_any_gouji_hand_that_wins_its_round_opens(lead):
    """000: "如果有一方的级牌从没出过，或是出的级牌都被人打掉，那么叫做“不开点”。反之，称为“开点”。"
    — 宽开点: a single 2 or a joker hand opens too."""
    hands = ["255B", "44", "66", "77", "88", "99"]
    r = run(hands, [f"0 play {lead}", "3 pass"], options={"open_rule": "wide"})
    assert r["to_act"] == [0] and r["opened"][0]


def test_wide_open_still_not_in_the_melee():
    """§3.5: "开点 cannot be earned any more" once 四户乱缠 began (with either rule)."""
    hands = ["3", "4", "55", "KK6", "77", "88"]
    actions = ["0 play 3", "1 play 4", "2 pass", "3 pass", "4 pass", "5 pass"]
    actions += ["2 play 55", "3 pass", "4 pass", "5 pass"]
    # seats 0 and 1 are out: the melee began; 2 led 55 unanswered, nothing opens
    r = run(hands, actions, options={"open_rule": "wide"})
    assert r["melee"] and r["opened"] == [False] * 6


# ----------------------------------------------------------------------------- 烧牌条件
# seat 0 leads KK; seat 1 holds AAA5: the seeds' count on the hand before the burn is
# 2 sets − 0 jokers ≤ 2, but after burning with AA it holds A and 5, which no run of joker
# leads can finish.
BURN_HANDS = ["KK9", "AAA5", "77", "88", "66", "99"]


def test_completable_burn_check_refuses_a_burn_that_cannot_be_completed():
    """§4 (the default): "only completable burns are allowed, so a burn never fails"."""
    assert run(BURN_HANDS, ["0 play KK"])["to_act"] == [3]  # no burn window: only seat 3
    assert "no_window" == refused(BURN_HANDS, ["0 play KK"], "1 burn AA")


def test_seeds_burn_check_counts_the_hand_before_the_burning_play():
    """001: "当手里的牌符合下面这个公式时:除2和大小王外的套牌数-大小王的总个数小于或等于2,并且能打掉
    对方当前发出的这手够级牌,那么你可以越权上牌,这就是“烧牌”。" """
    r = run(BURN_HANDS, ["0 play KK", "1 burn AA"], options=SEEDS)
    assert r["burns"] == [{"burner": 1, "burned": 0, "result": "ongoing"}]


def test_seeds_burn_check_refuses_a_hand_over_the_count():
    """001's count: four sets and no joker is over 2."""
    hands = ["KK9", "AA567", "77", "88", "66", "99"]
    r = run(hands, ["0 play KK"], options=SEEDS)
    assert r["to_act"] == [3]  # no burn window: seat 1 may not burn


def test_seeds_a_lead_without_a_joker_fails_the_burn_and_the_burner_is_out():
    """003: "如果烧牌者没有按上面的要求出牌，则算“烧失败”，算“大落”。这种情况烧牌失败的玩家本局不能再
    出牌。" — the burner takes 大落, keeps its cards out of play, earns no 烧贡, and its lead
    stands like a finished player's last hand (接风 when unanswered)."""
    actions = ["0 play KK", "1 burn AA", "4 pass", "1 play A"]
    r = run(BURN_HANDS, actions, options=SEEDS)
    assert r["burns"] == [{"burner": 1, "burned": 0, "result": "failed"}]
    assert r["places"][1] == 6 and r["hands"][1] == "5"
    assert r["headless"][4]  # the failed burner counts as gone out
    r = run(BURN_HANDS, actions + ["2 pass", "3 pass", "4 pass", "5 pass", "0 pass"], options=SEEDS)
    assert r["to_act"] == [2]  # nobody beat the A: 接风 to the failed burner's next seat


def test_seeds_a_failed_burn_earns_no_burn_tribute():
    """§9: the failed burner "earns no 烧贡"."""
    hands = ["KK9", "AAA5", "7", "8", "6", "9"]
    actions = ["0 play KK", "1 burn AA", "4 pass", "1 play A"]
    actions += ["2 pass", "3 pass", "4 pass", "5 pass", "0 pass"]
    actions += ["2 play 7", "3 play 8", "4 pass", "5 play 9"]
    r = run(hands, actions, options=SEEDS)
    assert r["finished"] and r["places"][1] == 6
    assert not [t for t in r["tribute"] if t["kind"] == "burn"]


def test_seeds_a_joker_lead_need_not_keep_the_burn_completable():
    """§9 [decision]: "joker leads during the burn need not keep it completable"."""
    hands = ["KK9", "AARR567", "77", "88", "66", "99"]
    r = run(hands, ["0 play KK", "1 burn AA", "4 pass", "1 play 5RR"], options=SEEDS)
    assert r["burns"][0]["result"] == "ongoing"
    assert "burn_lead" == refused(hands, ["0 play KK", "1 burn AA", "4 pass"], "1 play 5RR")


def test_seeds_a_burners_last_hand_without_a_joker_succeeds():
    """001: "除第一手牌和最后一手牌可以不挂王外,其他每一手牌均需要至少挂1个王"."""
    hands = ["KK9", "AA5", "77", "88", "66", "99"]
    r = run(hands, ["0 play KK", "1 burn AA", "4 pass", "1 play 5"], options=SEEDS)
    assert r["burns"][0]["result"] == "success"


# ----------------------------------------------------------------------------- 够死级
# Seat 5 revolted: its opposite, seat 2, is asked 要头 / 无头 before the first lead.
REV_HANDS = ["55", "AA79", "KKQQQ4", "6", "2JJ", ""]


def test_yao_tou_is_asked_of_the_revolutionarys_opposite_before_the_first_lead():
    """003: "**后，对头可宣布“要头”或“无头”。" """
    r = run(REV_HANDS, [], leader=0, revolted=[5], options=GSJ)
    assert r["to_act"] == [2] and r["gou_si_ji"] == [0] * 6
    assert "head_time (seat=2)" == refused(REV_HANDS, [], "0 play 55", revolted=[5], options=GSJ)
    assert "head_seat (seat=2)" == refused(REV_HANDS, [], "1 keephead", revolted=[5], options=GSJ)


def test_yao_tou_is_asked_in_a_real_game_after_the_revolution():
    hands = ["3h 3h 5", "6 7", "8 9", "2 T", "B J", "R Q"]
    rec = {"format": "gouji-record/1", "hands": hands, "seed": 1, "options": GSJ}
    rec["actions"] = [f"{s} nodeclare" for s in range(6)] + ["0 revolt", "1 norevolt", "2 norevolt"]
    out = replay_record(rec)
    assert out["to_act"] == [3] and out["hands"][0] == "" and out["places"][0] == 4


def test_without_gou_si_ji_nothing_is_asked():
    r = run(REV_HANDS, [], leader=0, revolted=[5])
    assert r["to_act"] == [0] and "gou_si_ji" not in r


def test_yao_tou_three_gouji_hands_are_gou_si_ji_then_headless():
    """003: "如果“要头”，则自己前三“够级牌”算“够死级”，三次“够死级”之后算“无头”。" and "前三次自己的
    够级牌是无人可应的（除非被人烧牌）" — nobody answers; each wins its round and the seat leads on."""
    actions = ["2 keephead"]
    r = run(REV_HANDS, actions, leader=2, revolted=[5], options=GSJ)
    assert r["gou_si_ji"] == [0, 0, 3, 0, 0, 0] and not r["headless"][2]
    r = run(REV_HANDS, actions + ["2 play KK"], leader=2, revolted=[5], options=GSJ)
    assert r["to_act"] == [2] and r["gou_si_ji"][2] == 2  # AA of seat 1 could not answer
    r = run(REV_HANDS, actions + ["2 play KK", "2 play QQQ"], leader=2, revolted=[5], options=GSJ)
    assert r["to_act"] == [2] and r["gou_si_ji"][2] == 1 and not r["headless"][2]


def test_yao_tou_a_normal_hand_is_answered_as_usual_and_does_not_count():
    """Only gouji hands are 够死级 (003: "自己前三“够级牌”")."""
    actions = ["2 keephead", "2 play 4", "3 play 6"]
    r = run(REV_HANDS, actions, leader=2, revolted=[5], options=GSJ)
    assert r["gou_si_ji"][2] == 3 and r["to_act"] == [4]


def test_gou_si_ji_may_be_burned_and_the_burn_counts():
    """003: "无人可应的（除非被人烧牌）"; §3.4 [decision]: "a 够死级 hand that is burned still
    counts", and burning it is a real burn."""
    hands = ["55", "AA", "KKQQQ4", "66", "2JJ", ""]
    actions = ["2 keephead", "2 play KK", "1 burn AA"]
    r = run(hands, actions, leader=2, revolted=[5], options=GSJ)
    assert r["gou_si_ji"][2] == 2 and r["burns"][0] == {
        "burner": 1,
        "burned": 2,
        "result": "success",
    }


def test_gou_si_ji_a_seat_may_not_answer_it_in_the_burn_window():
    hands = ["55", "AA7R", "KKQQQ4", "66", "2JJ", ""]
    actions = ["2 keephead", "2 play KK"]
    reason = refused(hands, actions, "3 play 66", leader=2, revolted=[5], options=GSJ)
    assert reason == "gou_si_ji (q=2)"


def test_wu_tou_the_opposite_is_headless_at_once():
    """003: "如果宣布“无头”，则按“无头”进行。此时玩家出的牌任何玩家都可以接"."""
    r = run(REV_HANDS, ["2 nokeephead", "2 play KK"], leader=2, revolted=[5], options=GSJ)
    assert r["headless"][2] and r["gou_si_ji"] == [0] * 6 and r["to_act"] == [3]


def test_gou_si_ji_of_a_finishers_opposite():
    """003: "对于头科、二科。底牌“是”够级牌“的，其对头如果上牌，则可以取得一次“够死级”的机会，除非
    这时有人烧牌。" — 头科 went out with KK; its opposite's AA on it is 够死级."""
    hands = ["KK", "225", "55", "AA6", "66", "77"]
    actions = ["0 play KK", "1 noburn", "3 play AA"]
    r = run(hands, actions, options=GSJ)
    assert r["to_act"] == [1]  # a burn window, nothing else
    r = run(hands, actions + ["1 noburn"], options=GSJ)
    assert r["to_act"] == [3]  # nobody answered: seat 3 leads
    r = run(hands, actions)  # without the option: a headless seat's hand, open to all
    assert r["to_act"] == [4]


def test_gou_si_ji_lapses_when_the_melee_begins():
    """§3.4: "unused 够死级 hands lapse when it begins (the seat is then headless)"."""
    hands = ["3", "4", "KK5", "66", "77", ""]
    r = run(hands, ["2 keephead", "0 play 3", "1 play 4"], leader=0, revolted=[5], options=GSJ)
    assert r["melee"] and r["gou_si_ji"] == [0] * 6


# ----------------------------------------------------------------------------- records


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"house": True}, "house"),
        ({"open_rule": "loose"}, "open_rule"),
        ({"gou_si_ji": 1}, "gou_si_ji"),
    ],
)
def test_an_unknown_option_or_value_is_an_error_naming_it(options, named):
    with pytest.raises(RecordError, match=named):
        replay_record(
            {"format": "gouji-record/1", "hands": ["3"] * 6, "leader": 0, "options": options}
        )


def test_a_game_carries_its_options():
    opts = Options(gou_si_ji=True, burn_check="seeds")
    game = Game.from_position(["3", "4", "5", "6", "7", "8"], 0, options=opts)
    assert Options.from_json(game.options.to_json()) == opts


def test_the_house_rules_example_replays():
    """examples/house-rules.json: 要头, a 够死级 hand burned under the seeds' count, the burn
    failed on a lead without a joker (大落), the melee begins and the unused 够死级 lapse."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "house-rules.json"
    out = replay_record(json.loads(path.read_text(encoding="utf-8")))
    assert out["burns"] == [{"burner": 1, "burned": 2, "result": "failed"}]
    assert out["places"][1] == 6 and out["melee"] and out["gou_si_ji"] == [0] * 6
