"""Table options (house rules, RULES.md §9) and the phases of a game.

Kept apart from :mod:`engine.game` so that the modules a game is built from (and the
observation a seat gets) can name them without importing the game.

>>> Options.from_json({"bie_san": True}).to_json()
{'bie_san': True}
>>> Phase.DECLARE == "declare"
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """Where a game stands. The values are the strings records and JSON have always used."""

    DECLARE = "declare"  # 宣点
    REVOLT = "revolt"  # 革命
    PLAY = "play"
    FINISHED = "finished"
    VOID = "void"  # two or more revolted: the deal is void


@dataclass(frozen=True, slots=True)
class Options:
    """Table options that change the rules. ``bie_san``: the 憋三 variant (§7)."""

    bie_san: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Options:
        data = data or {}
        unknown = set(data) - {"bie_san"}
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(bie_san=bool(data.get("bie_san", False)))

    def to_json(self) -> dict[str, Any]:
        return {"bie_san": self.bie_san}
