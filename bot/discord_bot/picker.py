"""The card picker's logic: which menus lead to which plays, so that any legal play is at
most three picks away from the hand controller. Pure (plays in, menus out; no Discord, no
words): :mod:`bot.discord_bot.components` turns the menus into select menus.

Pick 1, on the controller: a **rank** (a play's :func:`lead_rank`: its number rank, or 2
for 2s with jokers, or the joker for jokers alone). Pick 2, on the rank's **page**: the
play — or, when the rank has more plays than a page holds (4 menus × 25 options), a
**group** (same count of the rank and of 2s; or, for hands too rich even for that, a run of
plays). Pick 3, on the group's page: the play. The plain menu of the controller
(:func:`plain_menu`) is one pick, cut to 25.

>>> plays = [Play.parse(p) for p in ("8", "88", "82", "882", "3", "2", "B")]
>>> sorted(ranks(plays))
[0, 5, 12, 13]
>>> [str(p) for p in rank_page(plays, 5)[0]]
['88', '882', '8', '82']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import BIG_JOKER, SMALL_JOKER, TWO
from engine.hands import Play

#: Discord's limits: options per select menu, rows per message (one row is for buttons).
OPTIONS = 25
MENUS = 4
#: The entries one page holds.
PAGE = OPTIONS * MENUS


@dataclass(frozen=True, slots=True)
class Group:
    """Plays shown together on a page of their own: ``key`` names it in a custom id
    (``n5t2``: five of the rank and two 2s; ``c3``: the fourth run of plays); ``sample``
    is a play that stands for it in a label (its cards without the jokers, or its first)."""

    key: str
    plays: tuple[Play, ...]
    sample: Play
    ranged: bool = False  # a run of plays: labelled by its first and last


Entry = Play | Group
#: A page: up to :data:`MENUS` menus of up to :data:`OPTIONS` entries each.
Page = tuple[tuple[Entry, ...], ...]


def lead_rank(play: Play) -> int:
    """The rank a play is found under: its number rank; 2 for 2s (with jokers or not);
    the small joker for jokers with a small one, else the big joker."""
    if play.naturals:
        return play.rank
    if play.twos:
        return TWO
    return SMALL_JOKER if play.small else BIG_JOKER


def ranks(plays: Sequence[Play]) -> dict[int, list[Play]]:
    """The plays under each rank, ranks low to high, each rank's plays in page order
    (:func:`page_order`)."""
    out: dict[int, list[Play]] = {}
    for play in plays:
        out.setdefault(lead_rank(play), []).append(play)
    return {rank: page_order(out[rank]) for rank in sorted(out)}


def page_order(plays: Sequence[Play]) -> list[Play]:
    """One rank's plays as its page lists them: the full stack first (all of the rank),
    then it "+ 2s" (all the 2s too), "+ 王" (all the jokers) and with both; then the
    rest, plain sets before those with 2s before those with jokers, small before big."""
    if not plays:
        return []
    most = max(p.naturals for p in plays)
    full = [p for p in plays if p.naturals == most]
    twos = max(p.twos for p in full)
    small = max(p.small for p in full)
    big = max(p.big for p in full)
    wanted = [
        Play(full[0].rank, most, 0, 0, 0),
        Play(full[0].rank, most, twos, 0, 0),
        Play(full[0].rank, most, 0, small, big),
        Play(full[0].rank, most, twos, small, big),
    ]
    legal = set(plays)
    first = [p for p in dict.fromkeys(wanted) if p in legal]
    rest = sorted(legal.difference(first), key=lambda p: (p.jokers, p.twos, p.naturals, p.big))
    return first + rest


def _menus(entries: Sequence[Entry]) -> Page:
    return tuple(tuple(entries[i : i + OPTIONS]) for i in range(0, len(entries), OPTIONS))


def groups(plays: Sequence[Play]) -> list[Group]:
    """One rank's plays (in page order) in groups for a second page, at most :data:`PAGE`
    groups of at most :data:`PAGE` plays: by the count of the rank and of 2s (jokers vary
    within, so a group has at most 5 × 5 plays) while that makes few enough groups, else
    in runs of :data:`PAGE` plays (enough for any hand of 4 decks: 16 × 17 × 25 <
    :data:`PAGE` ²)."""
    by: dict[tuple[int, int], list[Play]] = {}
    for play in plays:
        by.setdefault((play.naturals, play.twos), []).append(play)
    if len(by) <= PAGE and all(len(g) <= PAGE for g in by.values()):
        return [
            Group(f"n{n}t{t}", tuple(g), Play(g[0].rank if n else -1, n, t, 0, 0))
            for (n, t), g in by.items()
        ]
    runs = [tuple(plays[i : i + PAGE]) for i in range(0, len(plays), PAGE)]
    return [Group(f"c{i}", run, run[0], ranged=True) for i, run in enumerate(runs)]


def rank_page(plays: Sequence[Play], rank: int) -> Page:
    """The page of ``rank``: its plays, or (more than a page) its groups."""
    return _page_of(page_order([p for p in plays if lead_rank(p) == rank]))


def _page_of(mine: Sequence[Play]) -> Page:
    """The page of one rank's plays, in page order."""
    entries: Sequence[Entry] = mine if len(mine) <= PAGE else groups(mine)
    return _menus(entries)


def group_page(plays: Sequence[Play], rank: int, key: str) -> Page:
    """The page of group ``key`` of ``rank``: its plays (empty if there is no such group —
    the question changed meanwhile)."""
    mine = page_order([p for p in plays if lead_rank(p) == rank])
    found = next((g for g in groups(mine) if g.key == key), None)
    return _menus(found.plays) if found is not None else ()


def plain_menu(plays: Sequence[Play]) -> list[Play]:
    """The controller's plain menu, at most :data:`OPTIONS` plays: the first (the hint's),
    then the full stack of each rank, then their "+ 2s" and "+ 王" variants (as on the
    ranks' pages), then the rest as ranked."""
    if not plays:
        return []
    pages = list(ranks(plays).values())
    featured: list[Play] = [plays[0]]
    for place in range(3):
        featured += [mine[place] for mine in pages if len(mine) > place]
    return list(dict.fromkeys([*featured, *plays]))[:OPTIONS]


def paths(plays: Sequence[Play]) -> dict[Play, list[str]]:
    """The picks that reach each play from the controller: ``["plain"]`` when the plain
    menu has it, else ``[rank, play]`` or ``[rank, group, play]`` (named for a count)."""
    out: dict[Play, list[str]] = {p: ["plain"] for p in plain_menu(plays)}
    for rank, mine in ranks(plays).items():
        for menu in _page_of(mine):
            for entry in menu:
                if isinstance(entry, Group):
                    for play in entry.plays:
                        out.setdefault(play, [f"rank {rank}", entry.key, str(play)])
                else:
                    out.setdefault(entry, [f"rank {rank}", str(entry)])
    return out


def path_to(plays: Sequence[Play], wanted: Play) -> list[str]:
    """The picks that reach ``wanted`` (:func:`paths`; an empty list when ``wanted`` is not
    among ``plays``)."""
    return paths(plays).get(wanted, []) if wanted in plays else []
