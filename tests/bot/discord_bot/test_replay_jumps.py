"""The replay's jump menu holds at most 25 moments: every 开点, burn, 走科 and the melee,
then round starts spread over the game; a burn's end is not a jump."""

from __future__ import annotations

from bot.discord_bot.replay import MAX_JUMPS, jumps
from engine.replay_steps import KeyMoment

NAMES = [f"P{s}" for s in range(6)]


def test_jumps_keep_every_key_moment_and_spread_the_rounds() -> None:
    rounds = tuple(KeyMoment("round", 4 * i, i % 6, i + 1) for i in range(40))
    others = (
        KeyMoment("open", 9, 2, 1),
        KeyMoment("burn", 30, 1, 1, other=4),
        KeyMoment("burn_end", 33, 1, 1, other=4, result="success"),
        KeyMoment("finish", 50, 0, 1, place=1),
        KeyMoment("melee", 120, None, 1),
    )
    menu = jumps(rounds + others, NAMES, "en")
    assert len(menu) == MAX_JUMPS
    steps = [step for _, step in menu]
    assert steps == sorted(steps) and {9, 30, 50, 120} <= set(steps) and 33 not in steps
    labels = [label for label, _ in menu]
    assert "Burn · P1 burns P4 (step 30)" in labels and "Out · P0 place 1 (step 50)" in labels
    assert labels[0] == "Round 1 · P0 leads (step 0)"


def test_a_short_game_jumps_to_every_round() -> None:
    rounds = tuple(KeyMoment("round", 3 * i, 0, i + 1) for i in range(5))
    assert [step for _, step in jumps(rounds, NAMES, "zh")] == [0, 3, 6, 9, 12]
    assert jumps(rounds, NAMES, "zh")[1][0] == "第 2 轮 · P0 领出（第 3 步）"
