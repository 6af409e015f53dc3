"""点贡 (docs/rules.en.md §8.3): every cell of the table, from both sides, by the function and
through replayed series where the opens are forced."""

from __future__ import annotations

import pytest

from engine.record import replay_series
from engine.scoring import point_tribute

from .helpers import build_series, game_of, point_entries, position

# Columns of §8.3 as (I open, opposite opens).
I_OPEN, NEITHER_OPENS, BOTH_OPEN, OPPOSITE_OPENS = (
    (True, False),
    (False, False),
    (True, True),
    (False, True),
)
# Rows as (I declared, opposite declared).
BOTH, NEITHER, ONLY_ME, ONLY_OPPOSITE = (True, True), (False, False), (True, False), (False, True)

# (cards I give, cards my opposite gives me), copied cell by cell from the table of §8.3; the
# row "only my opposite declared" is the row "only me" seen from the opposite's side.
TABLE = {
    (BOTH, I_OPEN): (0, 4),
    (BOTH, NEITHER_OPENS): (2, 2),
    (BOTH, BOTH_OPEN): (2, 2),
    (BOTH, OPPOSITE_OPENS): (4, 0),
    (NEITHER, I_OPEN): (0, 1),
    (NEITHER, NEITHER_OPENS): (1, 1),
    (NEITHER, BOTH_OPEN): (0, 0),
    (NEITHER, OPPOSITE_OPENS): (1, 0),
    (ONLY_ME, I_OPEN): (0, 3),
    (ONLY_ME, NEITHER_OPENS): (1, 2),
    (ONLY_ME, BOTH_OPEN): (2, 0),
    (ONLY_ME, OPPOSITE_OPENS): (3, 0),
    (ONLY_OPPOSITE, I_OPEN): (0, 3),
    (ONLY_OPPOSITE, NEITHER_OPENS): (2, 1),
    (ONLY_OPPOSITE, BOTH_OPEN): (0, 2),
    (ONLY_OPPOSITE, OPPOSITE_OPENS): (3, 0),
}
CELLS = list(TABLE)
_ROW = {
    BOTH: "both-declared",
    NEITHER: "neither-declared",
    ONLY_ME: "only-me-declared",
    ONLY_OPPOSITE: "only-opposite-declared",
}
_COL = {
    I_OPEN: "i-open",
    NEITHER_OPENS: "neither-opens",
    BOTH_OPEN: "both-open",
    OPPOSITE_OPENS: "opposite-opens",
}
CELL_IDS = [f"{_ROW[d]}/{_COL[o]}" for d, o in CELLS]


def _swap(pair: tuple) -> tuple:
    return pair[1], pair[0]


@pytest.mark.parametrize(("declared", "opened"), CELLS, ids=CELL_IDS)
def test_point_tribute_table_cell(declared, opened):
    assert point_tribute(declared, opened) == TABLE[declared, opened]


@pytest.mark.parametrize(("declared", "opened"), CELLS, ids=CELL_IDS)
def test_point_tribute_seen_from_the_opposite_side_is_the_same_wager(declared, opened):
    give, get = point_tribute(declared, opened)
    assert point_tribute(_swap(declared), _swap(opened)) == (get, give)


# Game-1 positions in which the opens of seats 0 and 3 are forced: a KK (or AA) that only
# the opposite may answer, and the opposite passes. Everyone else holds single low cards.
SCRIPTS = {
    (True, False): (["KK4", "5", "6", "7", "8", "9"], 0, ["0 play KK", "3 pass"]),
    (False, True): (["4", "5", "6", "KK7", "8", "9"], 3, ["3 play KK", "0 pass"]),
    (True, True): (
        ["KK44", "3", "3", "AA56", "3", "3"],
        0,
        # 0 opens with KK; 3 wins the next round with a 5 and opens with AA.
        ["0 play KK", "3 pass", "0 play 4", "1 pass", "2 pass", "3 play 5", "4 pass", "5 pass"]
        + ["0 pass", "3 play AA", "0 pass"],
    ),
    (False, False): (["4", "5", "6", "7", "8", "9"], 0, []),
}
RICH = "RRRBBB222345"  # enough tribute cards for any 点贡 and 落贡


def _mirror_hands(hands: list[str]) -> list[str]:
    return [hands[(s + 3) % 6] for s in range(6)]


@pytest.mark.parametrize("me", [0, 3], ids=["me-seat0", "me-seat3"])
@pytest.mark.parametrize(("declared", "opened"), CELLS, ids=CELL_IDS)
def test_point_tribute_paid_in_the_next_game_of_a_replayed_series(me, declared, opened):
    """Seat ``me`` and its opposite declare and open as the cell says in game 1; game 2
    starts with exactly the cell's 点贡 between them (seat 3's side by mirroring the table)."""
    opp = (me + 3) % 6
    hands, leader, actions = SCRIPTS[opened]  # written for me = 0: seat 3 plays it mirrored
    if me == 3:
        hands = _mirror_hands(hands)
        leader = (leader + 3) % 6
        actions = [f"{(int(a[0]) + 3) % 6}{a[1:]}" for a in actions]
    flags = [False] * 6
    flags[me], flags[opp] = declared
    series, record = build_series(
        [position(hands, leader, actions, declared=flags), position([RICH] * 6, 0)]
    )
    game1 = game_of(series.deals[0])
    assert (game1.opened[me], game1.opened[opp]) == opened  # the script forced the opens
    out = replay_series(record)
    assert out["games"][0]["opened"][me] == opened[0]
    assert point_entries(out["games"][1]["paid"], me, opp) == TABLE[declared, opened]


def test_revolutionary_never_opens_and_their_opposite_counts_as_opened():
    """§3.2/§5.4: seat 3 revolts, nobody declares: seat 0 counts as opened, seat 3 did not,
    so 3 gives 0 one card (neither declared / I open)."""
    series, record = build_series(
        [
            position(["4", "5", "6", "", "8", "9"], 0, revolted=[3]),
            position([RICH] * 6, 0),
        ]
    )
    out = replay_series(record)
    assert out["games"][0]["opened"][0] and not out["games"][0]["opened"][3]
    assert point_entries(out["games"][1]["paid"], 3, 0) == (1, 0)


def test_declared_by_pre_play_verbs_in_a_real_game_record_settles_the_same_wager():
    """A series game in real-game form (no leader): 宣点 given as ``declare`` actions."""
    hands = ["KK4s", "5s 3h", "6s 3h", "7s 3d", "8s 3c", "9s 3s"]
    declares = [
        "0 declare",
        "1 nodeclare",
        "2 nodeclare",
        "3 nodeclare",
        "4 nodeclare",
        "5 nodeclare",
    ]
    revolts = [f"{s} norevolt" for s in range(6)]
    series, record = build_series(
        [{"hands": hands, "seed": 7, "actions": declares + revolts}, position([RICH] * 6, 0)]
    )
    out = replay_series(record)
    assert game_of(series.deals[0]).declared == [True] + [False] * 5
    assert not any(out["games"][0]["opened"])  # the quiet finish never opens
    # only me declared / neither opens: I give 1, my opposite gives me 2.
    assert point_entries(out["games"][1]["paid"], 0, 3) == (1, 2)
