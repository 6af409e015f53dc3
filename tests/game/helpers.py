"""Scenario helpers: rule tests are written as records (docs/record.md)."""

from __future__ import annotations

import pytest

from engine.game import Game, Options
from engine.record import ReplayError, replay_record


def record(hands, actions, leader=0, **extra) -> dict:
    return {
        "format": "gouji-record/1",
        "hands": hands,
        "leader": leader,
        "actions": actions,
        **extra,
    }


def run(hands, actions, leader=0, **extra) -> dict:
    """Replay a position record; the replay object of docs/record.md."""
    return replay_record(record(hands, actions, leader, **extra))


def refused(hands, actions, bad, leader=0, **extra) -> str:
    """Replay ``actions``, then check that ``bad`` is refused; return the reason."""
    with pytest.raises(ReplayError) as err:
        replay_record(record(hands, actions + [bad], leader, **extra))
    assert err.value.index == len(actions), err.value
    return err.value.reason


def game(hands, actions=(), leader=0, bie_san=False, **kw) -> Game:
    g = Game.from_position(hands, leader, options=Options(bie_san=bie_san), **kw)
    for a in actions:
        g.apply_text(a)
    return g
