"""A readable account of a replayed record, for ``gouji replay`` without ``--json``.

The account is built by replaying the actions again and describing what each one changed.
"""

from __future__ import annotations

from .actions import Action
from .game import Game
from .scoring import PLACE_NAMES

_VERB_TEXT = {
    "pass": "passes",
    "yield": "yields (让牌)",
    "noburn": "does not burn",
    "declare": "declares (宣点)",
    "nodeclare": "does not declare",
    "revolt": "revolts (革命)",
    "norevolt": "does not revolt",
    "leave": "leaves the game (−10)",
}


def narrate(game: Game, actions: list[str]) -> list[str]:
    """Apply ``actions`` to ``game`` and describe each step and what it changed."""
    lines = []
    for text in actions:
        before = _snapshot(game)
        action = Action.parse(text)
        game.apply(action)
        if action.verb == "play":
            tag = " (gouji)" if action.cards.is_gouji else ""
            line = f"seat {action.seat} plays {action.cards}{tag}"
        elif action.verb == "burn":
            line = f"seat {action.seat} offers to burn with {action.cards} (烧牌)"
        else:
            line = f"seat {action.seat} {_VERB_TEXT.get(action.verb, action.verb)}"
        lines.append("  " + line + "".join(_changes(before, game)))
    return lines


def _snapshot(game: Game) -> dict:
    return {
        "places": list(game.places),
        "opened": list(game.opened),
        "burns": [(b.burner, b.burned, b.result) for b in game.burns],
        "melee": game.melee,
        "stifled": list(game.stifled),
        "phase": game.phase,
    }


def _changes(before: dict, game: Game) -> list[str]:
    notes = []
    after = _snapshot(game)
    for i, (old, new) in enumerate(zip(before["burns"], after["burns"], strict=False)):
        if old[2] != new[2]:
            notes.append(
                f"; burn {i + 1} {'succeeds' if new[2] == 'success' else 'is broken (解烧)'}"
            )
    for b in after["burns"][len(before["burns"]) :]:
        notes.append(f"; seat {b[0]} burns seat {b[1]}'s hand")
    for s in range(6):
        if after["opened"][s] and not before["opened"][s]:
            notes.append(f"; seat {s} opens (开点)")
    for s in range(6):
        if after["places"][s] and not before["places"][s]:
            notes.append(f"; seat {s} is {PLACE_NAMES[after['places'][s]]}")
    for seat, by in after["stifled"][len(before["stifled"]) :]:
        notes.append(f"; seat {seat} is stifled (闷) by seat {by}")
    if after["melee"] and not before["melee"]:
        notes.append("; four-way melee (四户乱缠) begins")
    if after["phase"] != before["phase"]:
        notes.append(f"; phase: {after['phase']}")
    return notes


def summary(result: dict, next_game: bool = True) -> list[str]:
    """Places, opens, burns, points and (when a game follows) the tribute it leaves owing."""
    lines = []
    if result["finished"]:
        order = sorted(range(6), key=lambda s: result["places"][s])
        lines.append(
            "  places: " + ", ".join(f"{PLACE_NAMES[result['places'][s]]} seat {s}" for s in order)
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


def describe(data: dict, result: dict) -> str:
    """The whole account of a game or series record and its replay result."""
    from .record import SERIES_FORMAT, game_from_record

    if data.get("format") != SERIES_FORMAT:
        game = game_from_record(data)
        lines = ["Game"] + narrate(game, data.get("actions", [])) + summary(result)
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
        lines += summary(g, next_game=i + 1 < len(games))
        lines.append(f"  score: {g['score']}")
    lines.append(f"Totals (seat points): {result['totals']}")
    lines.append(
        f"Team totals: seats 0/2/4 {result['team_totals'][0]}, seats 1/3/5 {result['team_totals'][1]}"
    )
    if any(result["penalties"]):
        lines.append(f"Penalties: {result['penalties']}")
    return "\n".join(lines)
