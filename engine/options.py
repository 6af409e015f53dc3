"""Table options (house rules, docs/rules.en.md §9) and the phases of a game.

Kept apart from :mod:`engine.game` so that the modules a game is built from (and the
observation a seat gets) can name them without importing the game.

>>> Options.from_json({"bie_san": True}).changed()
{'bie_san': True}
>>> Phase.DECLARE == "declare"
True
>>> option_values("no_single_return"), option_values("open_rule")
((True, False), ('strict', 'wide'))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """Where a game stands. The values are the strings records and JSON have always used."""

    DECLARE = "declare"  # 宣点
    REVOLT = "revolt"  # 革命
    HEAD = "head"  # 要头 / 无头: the revolutionary's opposite chooses (够死级 on)
    PLAY = "play"
    FINISHED = "finished"
    VOID = "void"  # two or more revolted: the deal is void


# The choices of the options that are not on/off, the default first (docs/rules.en.md §9).
CHOICES: dict[str, tuple[str, ...]] = {
    "tribute_cards": ("jokers_and_twos", "biggest"),  # 贡牌
    "burn_check": ("completable", "seeds"),  # 烧牌条件
    "open_rule": ("strict", "wide"),  # 开点
}


@dataclass(frozen=True, slots=True)
class Options:
    """The table options (house rules) of docs/rules.en.md §9, with their defaults.

    - ``bie_san``: the 憋三 variant (§7).
    - ``no_single_return``: 不还单张 (§8.4) — a return to an opponent only in ranks the
      payer holds; off: any card.
    - ``tribute_cards``: 贡牌 (§8) — ``"jokers_and_twos"`` (大王, 小王, 2s) or ``"biggest"``
      (the payer's biggest cards of any rank).
    - ``gou_si_ji``: 够死级 (§3.4) — 要头 after a revolution and the finisher's opposite's
      够死级.
    - ``burn_check``: 烧牌条件 (§4) — ``"completable"`` or ``"seeds"`` (001's count; a
      lead without a joker fails the burn).
    - ``open_rule``: 开点 (§3.2) — ``"strict"`` (not a single, no joker) or ``"wide"`` (any
      gouji hand that wins its round).

    >>> Options.from_json({"open_rule": "wide"}).open_rule
    'wide'
    >>> Options.from_json({"burn_check": "any"})
    Traceback (most recent call last):
    ...
    ValueError: option 'burn_check' must be one of 'completable', 'seeds', not 'any'
    """

    bie_san: bool = False
    no_single_return: bool = True
    tribute_cards: str = "jokers_and_twos"
    gou_si_ji: bool = False
    burn_check: str = "completable"
    open_rule: str = "strict"

    def __post_init__(self) -> None:
        for name, choices in CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                listed = ", ".join(repr(c) for c in choices)
                raise ValueError(f"option '{name}' must be one of {listed}, not {value!r}")

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Options:
        """Options from a record's ``options`` object: each optional, with its default; an
        unknown option or value is an error naming it."""
        data = data or {}
        known = cls().to_json()
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)}")
        for name, value in data.items():
            if isinstance(known[name], bool) and not isinstance(value, bool):
                raise ValueError(f"option '{name}' must be true or false, not {value!r}")
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults (what a table shows as its house rules)."""
        default = Options().to_json()
        return {n: v for n, v in self.to_json().items() if v != default[n]}


def option_values(name: str) -> tuple[Any, ...]:
    """Every value the option ``name`` (a field of :class:`Options`) may take, its default
    first: both for an on/off option, its :data:`CHOICES` for the others."""
    default = {f.name: f.default for f in fields(Options)}[name]
    if isinstance(default, bool):
        return (default, not default)
    choices = CHOICES.get(name)
    if choices is None or choices[0] != default:
        raise ValueError(f"option '{name}' has no list of values, its default first, in CHOICES")
    return choices
