"""Places, points, the tribute a finished game leaves owing, and titles (docs/rules.en.md §6, §8).

>>> point_tribute(declared=(True, False), opened=(False, False))
(1, 2)
>>> title_for(0)
'新人报到'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PLACE_POINTS = {1: 4, 2: 2, 3: 0, 4: 0, 5: -2, 6: -4}
LEAVE_PENALTY = -10

# Tribute kinds, in payment order (§8).
STIFLE, BURN, POINT, PLACE = "stifle", "burn", "point", "place"


@dataclass(frozen=True, slots=True)
class TributeOwed:
    """``count`` tribute cards owed from seat ``payer`` to seat ``receiver``."""

    kind: str
    payer: int
    receiver: int
    count: int

    def to_json(self) -> dict[str, int | str]:
        return {"kind": self.kind, "from": self.payer, "to": self.receiver, "count": self.count}


def team_of(seat: int) -> int:
    """Team 0 is seats 0, 2, 4; team 1 is seats 1, 3, 5."""
    return seat % 2


def opposite_of(seat: int) -> int:
    """The seat across the table (对家): ``seat + 3 mod 6``."""
    return (seat + 3) % 6


# (I give, opposite gives me) for: both declared / neither / only me, by who opened (§8.3).
_POINT_TABLE = {
    "both": {
        (True, False): (0, 4),
        (False, False): (2, 2),
        (True, True): (2, 2),
        (False, True): (4, 0),
    },
    "neither": {
        (True, False): (0, 1),
        (False, False): (1, 1),
        (True, True): (0, 0),
        (False, True): (1, 0),
    },
    "me": {
        (True, False): (0, 3),
        (False, False): (1, 2),
        (True, True): (2, 0),
        (False, True): (3, 0),
    },
}


def point_tribute(declared: tuple[bool, bool], opened: tuple[bool, bool]) -> tuple[int, int]:
    """点贡 between two opposites: (cards I give, cards my opposite gives me), from whether
    each of (me, opposite) declared and opened — the table of §8.3."""
    me_d, opp_d = declared
    if me_d and opp_d:
        return _POINT_TABLE["both"][opened]
    if not me_d and not opp_d:
        return _POINT_TABLE["neither"][opened]
    if me_d:
        return _POINT_TABLE["me"][opened]
    give, get = _POINT_TABLE["me"][(opened[1], opened[0])]
    return get, give


def is_sweep(places: Sequence[int | None]) -> bool:
    """串三户: one team holds places 1, 2 and 3."""
    by_place = {p: s for s, p in enumerate(places) if p is not None}
    if not all(p in by_place for p in (1, 2, 3)):
        return False
    return len({team_of(by_place[p]) for p in (1, 2, 3)}) == 1


def place_points(places: list[int], sweep: bool) -> list[int]:
    """Each seat's place points (§8.6), doubled in a game that ended in 串三户."""
    factor = 2 if sweep else 1
    return [PLACE_POINTS[p] * factor for p in places]


def team_totals(seat_points: Sequence[int]) -> tuple[int, int]:
    """The two teams' totals: team 0 (seats 0 2 4) and team 1 (seats 1 3 5)."""
    return (
        sum(seat_points[s] for s in range(6) if team_of(s) == 0),
        sum(seat_points[s] for s in range(6) if team_of(s) == 1),
    )


def team_scores(seat_points: list[int]) -> list[int]:
    """Each player's score for a game: the sum of their team's three seat points."""
    team = team_totals(seat_points)
    return [team[team_of(s)] for s in range(6)]


def counts_as_open(opened: Sequence[bool], revolted: Sequence[bool], seat: int) -> bool:
    """An open (开点) that is the seat's own: it opened, and not because its opposite
    revolted (a revolutionary's opposite counts as opened without playing, §5 item 4)."""
    return opened[seat] and not revolted[opposite_of(seat)]


def tribute_owed(
    places: list[int],
    declared: list[bool],
    opened: list[bool],
    stifles: list[tuple[int, int]],
    burns: list[tuple[int, int]],
) -> list[TributeOwed]:
    """What a finished game leaves owing for the next game of a series, in payment order:
    闷贡, 烧贡, 点贡, 落贡; within a kind by payer seat, 大落's 落贡 before 二落's.
    ``stifles`` and ``burns`` are (payer, receiver) pairs in the order they happened.
    Nothing is owed after 串三户 (§8.5)."""
    if is_sweep(places):
        return []
    owed: list[TributeOwed] = []
    owed += sorted((TributeOwed(STIFLE, p, r, 1) for p, r in stifles), key=lambda t: t.payer)
    owed += sorted((TributeOwed(BURN, p, r, 1) for p, r in burns), key=lambda t: t.payer)
    for seat in range(6):
        opp = opposite_of(seat)
        give, _ = point_tribute((declared[seat], declared[opp]), (opened[seat], opened[opp]))
        if give:
            owed.append(TributeOwed(POINT, seat, opp, give))
    seat_at = {p: s for s, p in enumerate(places)}
    owed.append(TributeOwed(PLACE, seat_at[6], seat_at[1], 2))
    owed.append(TributeOwed(PLACE, seat_at[5], seat_at[2], 1))
    return owed


TITLES = [
    (-400, "菜不是错"),
    (-200, "有点菜"),
    (0, "新人报到"),
    (100, "略有进步"),
    (200, "初试身手"),
    (400, "暂露头角"),
    (600, "半斤八两"),
    (800, "小有所成"),
    (1600, "偶露峥嵘"),
    (3200, "轻车熟路"),
    (6400, "熟能生巧"),
    (12800, "小有名气"),
    (25600, "屡战屡胜"),
    (51200, "牌中豪杰"),
    (102400, "一流高手"),
    (204800, "名动天下"),
    (409600, "世外高人"),
    (819200, "天下第二"),
    (1638400, "牌神"),
]
LOWEST_TITLE = "菜有特色"  # below −400


def title_for(score: int) -> str:
    """The title for a running score (§8.6): the last row whose score has been reached.

    >>> title_for(-401), title_for(-400), title_for(1638400)
    ('菜有特色', '菜不是错', '牌神')
    """
    title = LOWEST_TITLE
    for threshold, name in TITLES:
        if score >= threshold:
            title = name
        else:
            break
    return title
