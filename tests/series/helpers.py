"""Building series records for the tests: scripted openings, then a quiet finish.

A game spec is a ``gouji-series/1`` game entry (hands as dealt, ``leader`` etc.) whose
``actions`` are only the scripted prefix; :func:`build_series` plays each game through a real
:class:`~engine.series.Series`, finishes it with :func:`quiet_action` and writes the full
actions back, so that the record it returns replays to the same series.

The quiet finish never opens (开点): the player with the lead plays their lowest single card
(in bie-san, when only 3s are left, all of them), every answer is ``pass``, every burn window
is ``noburn`` and nobody declares or revolts. So a game's opens are exactly those of its
scripted prefix, and the seats finish in play order from whoever leads.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from engine.actions import Action, Verb
from engine.game import Game, Options, Phase
from engine.record import SERIES_FORMAT
from engine.series import Series, SeriesGame


def quiet_action(game: Game) -> Action:
    """The next quiet action (see the module doc) of the first seat the game waits on."""
    seat = game.to_act[0]
    if game.phase == Phase.DECLARE:
        return Action(seat, Verb.NODECLARE)
    if game.phase == Phase.REVOLT:
        return Action(seat, Verb.NOREVOLT)
    if game.window is not None:
        return Action(seat, Verb.NOBURN)
    if game.standing is not None:
        return Action(seat, Verb.PASS)
    plays = game.legal_plays(seat)  # the lowest single; in bie-san maybe only the 3s
    singles = [p for p in plays if p.size == 1]
    return Action(seat, Verb.PLAY, min(singles or plays, key=lambda p: (p.size, p.normalised())))


def finish_quietly(game: Game, log: list[str], max_steps: int = 2000) -> None:
    """Play ``game`` to its end (or void) with quiet actions, appending them to ``log``."""
    for _ in range(max_steps):
        if game.phase in (Phase.FINISHED, Phase.VOID):
            return
        action = quiet_action(game)
        game.apply(action)
        log.append(str(action))
    raise AssertionError("the quiet finish did not end the game")


def fill_passes(game: Game, seat: int, log: list[str]) -> None:
    """Answer quietly for the other seats until ``game`` waits on ``seat`` — passes,
    ``noburn``, ``nodeclare`` and ``norevolt`` only, never a lead."""
    while game.phase not in (Phase.FINISHED, Phase.VOID) and seat not in game.to_act:
        action = quiet_action(game)
        if action.verb == Verb.PLAY:
            raise AssertionError(f"seat {action.seat} leads before seat {seat} acts: script it")
        game.apply(action)
        log.append(str(action))


def build_series(specs: Sequence[dict], *, bie_san: bool = False) -> tuple[Series, dict]:
    """Play every game spec through a :class:`Series` (returns as given, missing ones by
    default; the scripted actions, with the other seats' passes filled in by
    :func:`fill_passes`; then the quiet finish); return the series and its complete
    ``gouji-series/1`` record."""
    series = Series(Options(bie_san=bie_san))
    games: list[dict] = []
    record = {"format": SERIES_FORMAT, "options": {"bie_san": bie_san}, "games": games}
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
            series.apply(Action(giver, Verb.RETURN, series.default_return(giver)))
        actions: list[str] = []
        for text in entry.get("actions", []):
            action = Action.parse(text)
            if action.verb != "leave":  # a seat may leave at any time
                fill_passes(game_of(deal), action.seat, actions)
            series.apply(action)
            actions.append(text)
        finish_quietly(game_of(deal), actions)
        entry["actions"] = actions
        games.append(entry)
    return series, record


def game_of(deal: SeriesGame | None) -> Game:
    """The game of a deal that has one (its tribute and returns are over)."""
    assert deal is not None and deal.game is not None, "the deal has no game (yet)"
    return deal.game


def position(hands: Sequence[str], leader: int, actions: Sequence[str] = (), **fields) -> dict:
    """A series game entry given as a position: hands, the first leader, scripted actions."""
    return {"hands": list(hands), "leader": leader, "actions": list(actions), **fields}


def point_entries(paid: Sequence[dict], a: int, b: int) -> tuple[int, int]:
    """(cards ``a`` paid ``b``, cards ``b`` paid ``a``) as 点贡 in a game's ``paid`` list."""
    ab = sum(
        len(p["cards"]) for p in paid if p["kind"] == "point" and (p["from"], p["to"]) == (a, b)
    )
    ba = sum(
        len(p["cards"]) for p in paid if p["kind"] == "point" and (p["from"], p["to"]) == (b, a)
    )
    return ab, ba


def everyone_opens(extra: Sequence[str] = ("3",) * 6) -> dict:
    """A game-1 position in which all six seats open (so no 点贡 is owed when nobody
    declared) and then finish quietly from seat 5: places 5, 0, 1, 2, 3, 4 = 1st … 6th.

    Seat ``s`` holds KK, a single ``b`` to win the lead from seat ``s-1``'s single ``a``,
    its own ``a``, and ``extra[s]`` (low cards, kept for the quiet finish). Each seat wins a
    round with the single, leads KK, and its opposite passes."""
    a = "468TQ3"  # seat s leads a[s] after opening (seat 5's is unused)
    b = " 579JA"  # seat s beats a[s-1] with b[s]
    hands = [f"KK{a[s] if s < 5 else ''}{b[s].strip()}{extra[s]}" for s in range(6)]
    actions = ["0 play KK", "3 pass"]
    for s in range(5):
        actions.append(f"{s} play {a[s]}")
        n = s + 1
        actions.append(f"{n} play {b[n]}")
        actions += [f"{(n + k) % 6} pass" for k in range(1, 6)]
        actions += [f"{n} play KK", f"{(n + 3) % 6} pass"]
    return position(hands, 0, actions)
