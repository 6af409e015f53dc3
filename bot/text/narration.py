"""The one narrator of the engine's events (:mod:`engine.events`): what an action changed, as
catalog keys with typed parameters, for every front end to word in its players' language.

The table service announces the table's moments (:func:`narration`: gouji hands, 宣点, 革命,
要头, 开点, burns and how they end, 闷, places, the melee) to Discord's table log and the
browser's; the terminal (``gouji play``, ``gouji replay``) tells every action as well
(``every_action``: each play, pass and yield, and who leads), with the same keys.

>>> from engine.events import Opened, Passed
>>> narration([Passed(1), Opened(0, own=True)])
[Said(key='ev_open', params={'user': Who(seat=0)})]
>>> narration([Passed(1), Opened(0, own=True)], every_action=True)[0]
Said(key='ev_pass', params={'user': Who(seat=1)})
"""

from __future__ import annotations

from typing import Any, NamedTuple

from bot.text.params import Cards, Place, Who
from engine.events import (
    BurnEnded,
    BurnStarted,
    Declared,
    Event,
    HeadChosen,
    Lead,
    MeleeBegan,
    Opened,
    Passed,
    Placed,
    Played,
    Revolted,
    Stifled,
    Yielded,
    of_kind,
)

__all__ = ["Said", "narration"]


class Said(NamedTuple):
    """One line of narration: a catalog ``key`` and its typed ``params``."""

    key: str
    params: dict[str, Any]


def narration(events: list[Event], *, every_action: bool = False) -> list[Said]:
    """What ``events`` tell, in order: the table's moments, and with ``every_action`` every
    play, pass and yield, nobody declaring, the automatic revolts, every place given (not
    only those who went out) and each new lead."""
    said: list[Said] = []
    for played in of_kind(events, Played):
        if played.gouji or every_action:
            key = "ev_gouji" if played.gouji else "ev_play"
            said.append(Said(key, {"user": Who(played.seat), "cards": Cards(played.cards)}))
    if every_action:
        said += [Said("ev_pass", {"user": Who(p.seat)}) for p in of_kind(events, Passed)]
        said += [Said("ev_yield", {"user": Who(y.seat)}) for y in of_kind(events, Yielded)]
    for declared in of_kind(events, Declared):
        if declared.seats:
            said.append(Said("ev_declared", {"users": [Who(s) for s in declared.seats]}))
        elif every_action:
            said.append(Said("ev_nobody_declared", {}))
    for revolted in of_kind(events, Revolted):
        for s in revolted.seats:
            if every_action or s not in revolted.auto:
                said.append(Said("ev_revolt", {"user": Who(s)}))
    for head in of_kind(events, HeadChosen):
        key = "ev_keephead" if head.kept else "ev_nokeephead"
        said.append(Said(key, {"user": Who(head.seat)}))
    for opened in of_kind(events, Opened):
        if opened.own:
            said.append(Said("ev_open", {"user": Who(opened.seat)}))
    for burn in of_kind(events, BurnStarted):
        params = {"user": Who(burn.burner), "victim": Who(burn.burned)}
        if burn.cards:
            said.append(Said("ev_burn_with", {**params, "cards": Cards(burn.cards)}))
        else:
            said.append(Said("ev_burn", params))
    for ended in of_kind(events, BurnEnded):  # success, broken (解烧) or failed (烧失败)
        said.append(Said(f"ev_burn_{ended.result}", {"user": Who(ended.burner)}))
    for stifled in of_kind(events, Stifled):
        said.append(Said("ev_stifle", {"user": Who(stifled.seat), "by": Who(stifled.by)}))
    for placed in sorted(of_kind(events, Placed), key=lambda p: p.place):
        if placed.went_out or every_action:
            said.append(Said("ev_finish", {"user": Who(placed.seat), "place": Place(placed.place)}))
    if of_kind(events, MeleeBegan):
        said.append(Said("ev_melee", {}))
    if every_action:
        for lead in of_kind(events, Lead):
            said.append(Said(f"ev_lead_{lead.how}", {"user": Who(lead.seat)}))
    return said
