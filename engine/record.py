"""Game records (``gouji-record/1``, docs/record.md): load, replay, and the replay's JSON.

>>> out = replay_record({"format": "gouji-record/1",
...     "hands": ["TTTTT6", "KK55", "AA44", "J2", "QQQ9", "889"], "leader": 0,
...     "actions": ["0 play TTTTT", "3 pass", "0 play 6"]})
>>> out["to_act"], out["places"][0], out["opened"][0]
([1], 1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, Verb
from .cards import Card, format_cards, parse_cards
from .game import Game, Options, Phase
from .series import Position, Series

JSON = dict[str, Any]

GAME_FORMAT = "gouji-record/1"
SERIES_FORMAT = "gouji-series/1"


class RecordError(ValueError):
    """A file that is not a valid record; the message names the field."""


class ReplayError(ValueError):
    """An action in a record that the rules refuse, with where it stands."""

    def __init__(self, index: int, action: str, reason: str, game: int | None = None) -> None:
        super().__init__(f"action {index} ({action!r}): {reason}")
        self.index, self.action, self.reason, self.game = index, action, reason, game

    def to_json(self) -> JSON:
        err: dict[str, Any] = {"index": self.index, "action": self.action, "reason": self.reason}
        if self.game is not None:
            err = {"game": self.game, **err}
        return {"ok": False, "error": err}


def _field(
    data: JSON,
    name: str,
    kind: type | tuple[type, ...],
    default: Any = None,
    required: bool = False,
) -> Any:
    if name not in data:
        if required:
            raise RecordError(f"field '{name}' is missing")
        return default
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"field '{name}' has the wrong type ({type(value).__name__})")
    return value


def parse_hands(hands: Any, field: str = "hands") -> list[list[Card]]:
    if not isinstance(hands, list) or len(hands) != 6 or not all(isinstance(h, str) for h in hands):
        raise RecordError(f"field '{field}' must be a list of six strings in card notation")
    out: list[list[Card]] = []
    for seat, text in enumerate(hands):
        try:
            out.append(parse_cards(text))
        except ValueError as e:
            raise RecordError(f"field '{field}', seat {seat}: {e}") from e
    return out


def parse_options(data: JSON) -> Options:
    try:
        return Options.from_json(_field(data, "options", dict, {}))
    except ValueError as e:
        raise RecordError(f"field 'options': {e}") from e


def game_from_record(
    data: JSON, options: Options | None = None, hands: list[list[Card]] | None = None
) -> Game:
    """The game a record sets up, before its actions (position or real-game form)."""
    if options is None:
        options = parse_options(data)
    if hands is None:
        hands = parse_hands(data.get("hands"))
    seed = _field(data, "seed", int)
    leader = _field(data, "leader", int)
    declared = _field(data, "declared", list)
    revolted = _field(data, "revolted", list, [])
    if declared is not None and (
        len(declared) != 6 or not all(isinstance(x, bool) for x in declared)
    ):
        raise RecordError("field 'declared' must be six true/false values")
    if not all(isinstance(s, int) and 0 <= s <= 5 for s in revolted):
        raise RecordError("field 'revolted' must list seats 0 to 5")
    if leader is None:
        if declared is not None or revolted:
            raise RecordError(
                "a record without 'leader' is a real game: give declare/revolt as actions, "
                "not the 'declared'/'revolted' fields"
            )
        try:
            return Game.from_hands(hands, options=options, seed=seed)
        except ValueError as e:
            raise RecordError(f"field 'hands': {e}") from e
    if not 0 <= leader <= 5:
        raise RecordError("field 'leader' must be a seat 0 to 5")
    for seat in revolted:
        if hands[seat]:
            raise RecordError(f"field 'hands', seat {seat}: a revolted seat's hand is \"\"")
    try:
        game = Game.from_position(
            hands, leader, declared=declared, revolted=revolted, options=options
        )
    except ValueError as e:
        raise RecordError(str(e)) from e
    game.seed = seed
    return game


def action_list(data: JSON, field: str = "actions") -> list[str]:
    actions = _field(data, field, list, [])
    if not all(isinstance(a, str) for a in actions):
        raise RecordError(f"field '{field}' must be a list of strings")
    return list(actions)


def play_actions(
    game: Game, actions: Sequence[str], offset: int = 0, game_no: int | None = None
) -> None:
    """Apply action strings in order; the first refused one raises :class:`ReplayError`."""
    for i, text in enumerate(actions):
        try:
            game.apply(Action.parse(text))
        except ValueError as e:
            raise ReplayError(offset + i, text, str(e), game_no) from e


def replay_record(data: Any) -> JSON:
    """Replay a ``gouji-record/1`` record and return docs/record.md's JSON object."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    fmt = data.get("format")
    if fmt != GAME_FORMAT:
        raise RecordError(f"field 'format' must be '{GAME_FORMAT}', not {fmt!r}")
    game = game_from_record(data)
    play_actions(game, action_list(data))
    return state_json(game)


def state_json(game: Game) -> JSON:
    """The state of a game as docs/record.md's replay object."""
    finished = game.phase == Phase.FINISHED
    tribute = game.tribute()
    out: JSON = {
        "ok": True,
        "finished": finished,
        "to_act": game.to_act,
        # a revolted seat sits the game out: its hand is "" (docs/record.md)
        "hands": ["" if game.revolted[s] else format_cards(h) for s, h in enumerate(game.cards)],
        "places": list(game.places),
        "opened": list(game.opened),
        "headless": [game.is_active(s) and game.is_headless(s) for s in range(6)],
        "melee": game.melee,
        "burns": [b.to_json() for b in game.burns],
        "stifled": [{"seat": s, "by": b} for s, b in game.stifled],
        "chuan_san_hu": game.sweep,
        "points": game.points(),
        "tribute": None if tribute is None else [t.to_json() for t in tribute],
    }
    if game.options.gou_si_ji:
        out["gou_si_ji"] = list(game.head_kept)
    return out


def series_from_record(data: Any, *, settle_returns: bool = False) -> Series:
    """Rebuild a live :class:`~engine.series.Series` from a ``gouji-series/1`` record (the
    bot restores tables this way). The last game may be unfinished. A missing return takes
    the default, as docs/record.md says — 头科's before a later one that is given, and every one
    of a game that has actions or is followed by another; with ``settle_returns`` (a
    replay) also those the last game still waits on."""
    if not isinstance(data, dict) or data.get("format") != SERIES_FORMAT:
        raise RecordError(f"field 'format' must be '{SERIES_FORMAT}'")
    options = parse_options(data)
    games = _field(data, "games", list, required=True)
    total = _field(data, "games_total", int, 5)
    # games_total counts games, not deals: a void deal in the list does not use one up
    series = Series(options, games=total, tribute=bool(data.get("tribute", True)))
    for g_no, entry in enumerate(games):
        if not isinstance(entry, dict):
            raise RecordError(f"games[{g_no}] must be an object")
        try:
            hands = parse_hands(entry.get("hands"), f"games[{g_no}].hands")
            position = _position_of(entry)
            seed = _field(entry, "seed", int)
            returns = action_list(entry, "returns")
            actions = action_list(entry, "actions")
        except RecordError as e:
            raise RecordError(f"games[{g_no}]: {e}") from e
        prev = series.current
        if prev is not None and not (prev.finished or prev.void):
            before = games[g_no - 1]
            done = len(before.get("returns", [])) + len(before.get("actions", []))
            waiting = ", ".join(map(str, series.to_act))
            raise ReplayError(
                done,
                "",
                f"the game is not over (waiting on seat(s) {waiting}) but games[{g_no}] follows",
                g_no - 1,
            )
        if series.finished:
            raise RecordError(
                f"field 'games': the series is over after {total} games; games[{g_no}] is one too many"
            )
        try:
            deal = series.start_game(hands, seed, position)
        except ValueError as e:  # a position that cannot be played (after tribute)
            raise RecordError(f"games[{g_no}]: {e}") from e
        index = 0
        for text in returns:
            try:
                action = Action.parse(text)
                if action.verb != Verb.RETURN:
                    raise ValueError(
                        f"'returns' holds only 'SEAT return CARDS', not '{action.verb}'"
                    )
                later = [r.giver for r in deal.returns[1:] if r.cards is None]
                due = deal.pending_return
                if due is not None and due.giver != action.seat and action.seat in later:
                    _default_returns(series, g_no, until=action.seat)
                series.apply(action)
            except ValueError as e:
                raise ReplayError(index, text, str(e), g_no) from e
            index += 1
        is_last = g_no == len(games) - 1
        if actions or not is_last or settle_returns:
            _default_returns(series, g_no)
        if deal.game is not None:
            play_actions(deal.game, actions, offset=index, game_no=g_no)
    return series


def _default_returns(series: Series, g_no: int, until: int | None = None) -> None:
    """Make the missing returns of the current deal with their defaults (docs/record.md), up to
    the first one ``until`` owes."""
    deal = series.current
    try:
        while deal is not None and (due := deal.pending_return) is not None:
            if due.giver == until:
                return
            series.apply(Action(due.giver, Verb.RETURN, series.default_return(due.giver)))
    except ValueError as e:  # a position that cannot be played (after tribute)
        raise RecordError(f"games[{g_no}]: {e}") from e


def replay_series(data: Any) -> JSON:
    """Replay a ``gouji-series/1`` record and return docs/record.md's series JSON object."""
    series = series_from_record(data, settle_returns=True)
    out_games = []
    for deal in series.deals:
        if deal.game is None:
            continue
        g = state_json(deal.game)
        g["void"] = deal.void  # a void deal (two revolted) is dealt again
        g["paid"] = [p.to_json() for p in deal.paid]
        g["returned"] = [r.to_json() for r in deal.returns if r.cards]  # as "paid": cards moved
        g["score"] = deal.score()
        out_games.append(g)
    return {
        "ok": True,
        "games": out_games,
        "totals": series.totals(),
        "team_totals": series.team_totals(),
        "penalties": series.penalties(),
    }


def _position_of(entry: JSON) -> Position | None:
    leader = _field(entry, "leader", int)
    declared = _field(entry, "declared", list)
    revolted = _field(entry, "revolted", list, [])
    if leader is None:
        if declared is not None or revolted:
            raise RecordError("a game without 'leader' gives declare/revolt as actions")
        return None
    if not 0 <= leader <= 5:
        raise RecordError("field 'leader' must be a seat 0 to 5")
    if declared is not None and (
        len(declared) != 6 or not all(isinstance(x, bool) for x in declared)
    ):
        raise RecordError("field 'declared' must be six true/false values")
    if not all(isinstance(s, int) and 0 <= s <= 5 for s in revolted):
        raise RecordError("field 'revolted' must list seats 0 to 5")
    return (leader, declared, revolted)


def replay(data: Any) -> JSON:
    """Replay a game or series record, by its ``format``."""
    if isinstance(data, dict) and data.get("format") == SERIES_FORMAT:
        return replay_series(data)
    return replay_record(data)
