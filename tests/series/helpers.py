"""Building series records for the tests: scripted openings, then a quiet finish.

A game spec is a ``gouji-series/1`` game entry (hands as dealt, ``leader`` etc.) whose
``actions`` are only the scripted prefix; :func:`build_series` plays each game through a real
:class:`~engine.series.Series`, finishes it with :func:`quiet_action` and writes the full
actions back, so that the record it returns replays to the same series.

The quiet finish never opens (开点): the player with the lead plays their lowest single card,
every answer is ``pass``, every burn window is ``noburn`` and nobody declares or revolts. So a
game's opens are exactly those of its scripted prefix, and the seats finish in play order
from whoever leads.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from engine.actions import NOBURN, NODECLARE, NOREVOLT, PASS, Action
from engine.cards import RANK_LETTERS
from engine.game import DECLARE_PHASE, FINISHED, REVOLT_PHASE, VOID, Game
from engine.record import SERIES_FORMAT
from engine.series import Series

FILLER = "3456789"  # low cards that never open, burn or count as tribute


def quiet_action(game: Game) -> Action:
    """The next quiet action (see the module doc) of the first seat the game waits on."""
    seat = game.to_act[0]
    if game.phase == DECLARE_PHASE:
        return Action(seat, NODECLARE)
    if game.phase == REVOLT_PHASE:
        return Action(seat, NOREVOLT)
    if game.window is not None:
        return Action(seat, NOBURN)
    if game.standing is not None:
        return Action(seat, PASS)
    return Action.parse(f"{seat} play {RANK_LETTERS[game.cards[seat][0].rank]}")


def finish_quietly(game: Game, log: list[str], max_steps: int = 2000) -> None:
    """Play ``game`` to its end (or void) with quiet actions, appending them to ``log``."""
    for _ in range(max_steps):
        if game.phase in (FINISHED, VOID):
            return
        action = quiet_action(game)
        game.apply(action)
        log.append(str(action))
    raise AssertionError("the quiet finish did not end the game")


def build_series(specs: Sequence[dict], *, bie_san: bool = False) -> tuple[Series, dict]:
    """Play every game spec through a :class:`Series` (returns and scripted actions as given,
    then the quiet finish); return the series and its complete ``gouji-series/1`` record."""
    from engine.game import Options

    series = Series(Options(bie_san=bie_san))
    record = {"format": SERIES_FORMAT, "options": {"bie_san": bie_san}, "games": []}
    for spec in specs:
        entry = copy.deepcopy(spec)
        position = None
        if "leader" in entry:
            position = (entry["leader"], entry.get("declared"), entry.get("revolted", []))
        deal = series.start_game(entry["hands"], entry.get("seed"), position)
        for text in entry.get("returns", []):
            series.apply(Action.parse(text))
        while deal.pending_return is not None:
            giver = deal.pending_return.giver
            series.apply(Action(giver, "return", series.default_return(giver)))
        actions = list(entry.get("actions", []))
        for text in actions:
            series.apply(Action.parse(text))
        finish_quietly(deal.game, actions)
        entry["actions"] = actions
        record["games"].append(entry)
    return series, record


def position(hands: Sequence[str], leader: int, actions: Sequence[str] = (), **fields) -> dict:
    """A series game entry given as a position: hands, the first leader, scripted actions."""
    return {"hands": list(hands), "leader": leader, "actions": list(actions), **fields}


def point_entries(paid: Sequence[dict], a: int, b: int) -> tuple[int, int]:
    """(cards ``a`` paid ``b``, cards ``b`` paid ``a``) as 点贡 in a game's ``paid`` list."""
    ab = sum(len(p["cards"]) for p in paid if p["kind"] == "point" and (p["from"], p["to"]) == (a, b))
    ba = sum(len(p["cards"]) for p in paid if p["kind"] == "point" and (p["from"], p["to"]) == (b, a))
    return ab, ba
