"""The perft table of legal-play counts (like chess's perft), in ``perft.json``.

For ``deal(seed)``, seeds 1–20, every seat: how many distinct leads the hand has (normal
and bie-san), and how many distinct answers to each of a fixed list of standing hands.
``test_movegen.py`` compares :func:`compute_table` with the checked-in file exactly, and
cross-checks some of its numbers by brute force.

Regenerate (only when a rule change is meant to change the counts)::

    python -m tests.engine.perft > tests/engine/perft.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine import deal, format_cards, legal_plays

SEEDS = range(1, 21)
STANDINGS = ["3", "KK", "22", "BB777", "TTTTT", "B", "R2", "22777", "QQQ", "9999999"]
PATH = Path(__file__).with_name("perft.json")
COMMAND = "python -m tests.engine.perft > tests/engine/perft.json"


def hand_entry(hand) -> dict:
    """The counts for one 36-card hand."""
    return {
        "hand": format_cards(hand),
        "leads": len(legal_plays(hand)),
        "leads_bie_san": len(legal_plays(hand, bie_san=True)),
        "answers": {s: len(legal_plays(hand, s)) for s in STANDINGS},
    }


def compute_table() -> dict:
    """The whole table, as stored in perft.json."""
    return {
        "about": f"legal_plays counts for deal(seed) seat hands; regenerate with: {COMMAND}",
        "standings": STANDINGS,
        "deals": {str(seed): [hand_entry(h) for h in deal(seed)] for seed in SEEDS},
    }


def load_table() -> dict:
    """The checked-in table."""
    return json.loads(PATH.read_text(encoding="utf-8"))


def dumps(table: dict) -> str:
    """JSON with one line per seat hand, so that a diff shows which hand changed."""
    lines = ["{", f' "about": {json.dumps(table["about"])},']
    lines.append(f' "standings": {json.dumps(table["standings"])},')
    lines.append(' "deals": {')
    for i, (seed, entries) in enumerate(table["deals"].items()):
        lines.append(f"  {json.dumps(seed)}: [")
        lines += [f"   {json.dumps(e)}" + ("," if j < 5 else "") for j, e in enumerate(entries)]
        lines.append("  ]" + ("," if i < len(table["deals"]) - 1 else ""))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def main() -> int:
    """Print the table as JSON (redirect it into perft.json)."""
    sys.stdout.write(dumps(compute_table()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
