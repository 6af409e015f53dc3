"""A readable account of a replayed record, for ``gouji replay`` without ``--json``.

The account is built by replaying the actions again and describing what each one changed
(:mod:`engine.events`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import Action, Verb
from .burning import BROKEN, FAILED, SUCCESS
from .events import (
    BurnEnded,
    BurnStarted,
    Event,
    MeleeBegan,
    Opened,
    PhaseChanged,
    Placed,
    Stifled,
    changes,
    of_kind,
    snapshot,
)
from .game import Game
from .hands import Play

_VERB_TEXT = {
    Verb.PASS: "passes",
    Verb.YIELD: "yields (让牌)",
    Verb.NOBURN: "does not burn",
    Verb.DECLARE: "declares (宣点)",
    Verb.NODECLARE: "does not declare",
    Verb.REVOLT: "revolts (革命)",
    Verb.NOREVOLT: "does not revolt",
    Verb.KEEPHEAD: "keeps the head (要头)",
    Verb.NOKEEPHEAD: "goes headless (无头)",
    Verb.LEAVE: "leaves the game (−10)",
}


def _place(place: int) -> str:
    return f"place {place}"


def narrate(game: Game, actions: list[str], place_name: Callable[[int], str] = _place) -> list[str]:
    """Apply ``actions`` to ``game`` and describe each step and what it changed (places named
    by ``place_name``: the caller's words, e.g. 头科)."""
    lines = []
    for text in actions:
        before = snapshot(game)
        action = Action.parse(text)
        game.apply(action)
        if action.verb == Verb.PLAY:
            tag = " (gouji)" if isinstance(action.cards, Play) and action.cards.is_gouji else ""
            line = f"seat {action.seat} plays {action.cards}{tag}"
        elif action.verb == Verb.BURN:
            line = f"seat {action.seat} offers to burn with {action.cards} (烧牌)"
        else:
            line = f"seat {action.seat} {_VERB_TEXT.get(action.verb, action.verb)}"
        lines.append("  " + line + "".join(_changes(changes(before, game), place_name)))
    return lines


_OUTCOMES = {SUCCESS: "succeeds", BROKEN: "is broken (解烧)", FAILED: "fails (烧失败)"}


def _outcome(end: BurnEnded) -> str:
    return _OUTCOMES[end.result]


def _changes(events: list[Event], place_name: Callable[[int], str]) -> list[str]:
    notes = []
    started = of_kind(events, BurnStarted)
    new = {burn.index for burn in started}
    ended = of_kind(events, BurnEnded)
    for end in [e for e in ended if e.index not in new]:
        notes.append(f"; burn {end.index + 1} {_outcome(end)}")
    for burn in started:
        notes.append(f"; seat {burn.burner} burns seat {burn.burned}'s hand")
    for end in [e for e in ended if e.index in new]:  # decided by the action that began it
        notes.append(f"; burn {end.index + 1} {_outcome(end)}")
    for opened in of_kind(events, Opened):
        notes.append(f"; seat {opened.seat} opens (开点)")
    for placed in of_kind(events, Placed):
        notes.append(f"; seat {placed.seat} is {place_name(placed.place)}")
    for stifled in of_kind(events, Stifled):
        notes.append(f"; seat {stifled.seat} is stifled (闷) by seat {stifled.by}")
    if of_kind(events, MeleeBegan):
        notes.append("; four-way melee (四户乱缠) begins")
    for phase in of_kind(events, PhaseChanged):
        notes.append(f"; phase: {phase.after}")
    return notes


def summary(
    result: dict[str, Any], next_game: bool = True, place_name: Callable[[int], str] = _place
) -> list[str]:
    """Places, opens, burns, points and (when a game follows) the tribute it leaves owing."""
    lines = []
    if result["finished"]:
        order = sorted(range(6), key=lambda s: result["places"][s])
        lines.append(
            "  places: " + ", ".join(f"{place_name(result['places'][s])} seat {s}" for s in order)
        )
        if result["chuan_san_hu"]:
            lines.append("  串三户 (sweep): place points doubled, no tribute next game")
        lines.append(f"  points: {result['points']}")
        owed = result["tribute"] or []
        if owed and next_game:
            lines.append(
                "  owes next game: "
                + ", ".join(f"{t['kind']} {t['from']}→{t['to']} ×{t['count']}" for t in owed)
            )
    elif not result["to_act"]:
        lines.append("  the deal is void (two or more revolted): deal again")
    else:
        lines.append(f"  in progress: waiting on seat(s) {result['to_act']}")
        for s, h in enumerate(result["hands"]):
            lines.append(f"    seat {s}: {h or '-'}")
    opened = [s for s in range(6) if result["opened"][s]]
    if opened:
        lines.append(f"  opened (开点): seats {opened}")
    for b in result["burns"]:
        lines.append(f"  burn: seat {b['burner']} burned seat {b['burned']} — {b['result']}")
    for st in result["stifled"]:
        lines.append(f"  stifled (闷): seat {st['seat']} by seat {st['by']}")
    return lines


def describe(
    data: dict[str, Any], result: dict[str, Any], place_name: Callable[[int], str] = _place
) -> str:
    """The whole account of a game or series record and its replay result (places named by
    ``place_name``)."""
    from .record import SERIES_FORMAT, game_from_record

    if data.get("format") != SERIES_FORMAT:
        game = game_from_record(data)
        lines = (
            ["Game"]
            + narrate(game, data.get("actions", []), place_name)
            + summary(result, place_name=place_name)
        )
        return "\n".join(lines)
    lines = []
    number = 1
    games = result["games"]
    for i, g in enumerate(games):
        void = not g["finished"] and not g["to_act"]
        lines.append(f"Game {number}" + (" (void deal: dealt again)" if void else ""))
        if g["finished"]:
            number += 1
        for p in g["paid"]:
            lines.append(
                f"  tribute ({p['kind']}): seat {p['from']} pays {p['cards']} to seat {p['to']}"
            )
        for r in g["returned"]:
            lines.append(f"  return: seat {r['from']} gives {r['cards']} back to seat {r['to']}")
        lines += summary(g, next_game=i + 1 < len(games), place_name=place_name)
        lines.append(f"  score: {g['score']}")
    lines.append(f"Totals (seat points): {result['totals']}")
    lines.append(
        f"Team totals: seats 0/2/4 {result['team_totals'][0]}, seats 1/3/5 {result['team_totals'][1]}"
    )
    if any(result["penalties"]):
        lines.append(f"Penalties: {result['penalties']}")
    return "\n".join(lines)
