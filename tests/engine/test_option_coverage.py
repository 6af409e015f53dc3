"""Random play draws every table option: each field of :class:`engine.options.Options`, at
each of its values other than the default, is in an option set of
``tests.game.randomplay`` (its random games, series and AI tests run under them). The fields
are read from ``Options``, so a new option fails here until random play sets it."""

from __future__ import annotations

import pytest

from engine.ai.sim import BETWEEN_GAMES_OPTIONS
from engine.options import Options, option_values
from tests.engine.option_sets import option_names
from tests.game.randomplay import GAME_OPTION_SETS, OPTION_SETS


@pytest.mark.parametrize("name", option_names())
def test_every_option_has_its_values(name: str) -> None:
    values = option_values(name)
    assert values[0] == getattr(Options(), name) and len(set(values)) == len(values) > 1
    for value in values:
        assert getattr(Options(**{name: value}), name) == value


@pytest.mark.parametrize("name", option_names())
def test_random_play_sets_every_option(name: str) -> None:
    for value in option_values(name)[1:]:
        assert any(getattr(o, name) == value for o in OPTION_SETS.values()), (name, value)
    if name not in BETWEEN_GAMES_OPTIONS:  # an option that changes a game: its random games
        assert any(getattr(o, name) != getattr(Options(), name) for o in GAME_OPTION_SETS.values())


def test_random_play_sets_all_options_at_once() -> None:
    assert any(set(o.changed()) == set(option_names()) for o in OPTION_SETS.values())
