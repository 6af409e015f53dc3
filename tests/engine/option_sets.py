"""Option sets derived from the fields of :class:`engine.options.Options` (never a hand list):
each option alone at each of its values other than the default, all of them away from it at
once, and every combination. A new field of ``Options`` appears in them by itself."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import fields

from engine.options import Options, option_values


def option_names() -> list[str]:
    """Every field of ``Options``, in their order."""
    return [f.name for f in fields(Options)]


def _chosen(names: Iterable[str]) -> list[str]:
    wanted = set(names)
    return [n for n in option_names() if n in wanted]


def single_option_sets(names: Iterable[str]) -> dict[str, Options]:
    """Each option of ``names`` alone at each value other than its default, named
    ``name=value``, in the order of the fields."""
    return {
        f"{name}={value}": Options(**{name: value})
        for name in _chosen(names)
        for value in option_values(name)[1:]
    }


def all_changed(names: Iterable[str]) -> Options:
    """Every option of ``names`` at its first value other than the default."""
    return Options(**{name: option_values(name)[1] for name in _chosen(names)})


def every_combination(names: Iterable[str]) -> list[Options]:
    """Every combination of the values of the options of ``names`` (the others at their
    defaults)."""
    chosen = _chosen(names)
    return [
        Options(**dict(zip(chosen, values, strict=True)))
        for values in itertools.product(*(option_values(n) for n in chosen))
    ]
