"""录像 (replay): a finished game, step by step, and the key moments to jump to.

Step 0 is the game as dealt (after tribute and returns, in a series); step N is the game
after its N-th action (pre-play verbs included, as in the record). States are rebuilt from
a keyframe kept every :data:`KEYFRAME_EVERY` steps, so any step costs at most that many
``Game.apply`` calls (a full game replays in ~15 ms; a step in ~1 ms).

Only finished games can be replayed: a record of a game in progress (or of a void deal)
raises :class:`NotFinishedError`, so a replay never shows the hands of a game still played.

>>> rec = {"format": "gouji-record/1", "leader": 0,
...        "hands": ["TTTTT6", "KK55", "AA44", "J2", "QQQ9", "889"],
...        "actions": ["0 play TTTTT", "3 pass", "0 play 6", "1 play K", "2 play A",
...            "3 play 2", "4 pass", "5 pass", "1 pass", "2 pass", "3 play J", "4 play Q",
...            "5 pass", "1 play K", "2 play A", "4 pass", "5 pass", "1 pass", "2 play 44",
...            "4 pass", "5 play 88", "1 pass", "4 play QQ", "5 pass", "1 pass", "4 play 9"]}
>>> r = Replay.from_record(rec)
>>> r.steps, r.game_at(2).hand_text(0), str(r.action(2))
(26, '6', '3 pass')
>>> [(m.kind, m.step, m.seat) for m in r.moments][:7]
[('round', 0, 0), ('open', 2, 0), ('round', 2, 0), ('finish', 3, 0), ('round', 10, 3), ('finish', 11, 3), ('melee', 12, None)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, Verb
from .game import Game, Phase
from .record import (
    SERIES_FORMAT,
    RecordError,
    ReplayError,
    action_list,
    game_from_record,
    series_from_record,
)

KEYFRAME_EVERY = 16

# kinds of key moments
ROUND = "round"  # a new round: the table is empty and ``seat`` leads (发牌)
OPEN = "open"  # ``seat`` opened the point (开点)
BURN = "burn"  # ``seat`` burns the gouji hand of ``other`` (烧牌)
BURN_END = "burn_end"  # the burn of ``seat`` on ``other`` ended with ``result``
FINISH = "finish"  # ``seat`` went out (走科) and took ``place``
MELEE = "melee"  # the four-way melee (四户乱缠) began
KINDS = (ROUND, OPEN, BURN, BURN_END, FINISH, MELEE)


class NotFinishedError(RecordError):
    """The record's game is not finished (or was void): it cannot be replayed."""


@dataclass(frozen=True, slots=True)
class KeyMoment:
    """A moment worth jumping to. ``number`` counts moments of the same kind from 1 (round
    3, burn 2); ``other`` is the burned seat of a burn, ``place`` the place of a finish,
    ``result`` how a burn ended (``success``, ``broken`` or ``failed``)."""

    kind: str
    step: int
    seat: int | None
    number: int
    other: int | None = None
    place: int | None = None
    result: str | None = None


class Replay:
    """A finished game as a sequence of states: ``game_at(step)`` for 0 ≤ step ≤ ``steps``."""

    def __init__(self, initial: Game, actions: Sequence[Action]) -> None:
        """Replay ``actions`` from ``initial`` (which is not changed); raises
        :class:`~engine.record.ReplayError` on an illegal action and
        :class:`NotFinishedError` when the game does not end finished."""
        self.actions: tuple[Action, ...] = tuple(actions)
        self._snapshots: list[Game] = []
        self.moments: tuple[KeyMoment, ...] = ()
        game = initial.copy()
        found: list[KeyMoment] = []
        counts = dict.fromkeys(KINDS, 0)

        def note(kind: str, step: int, seat: int | None, **extra: Any) -> None:
            counts[kind] += 1
            found.append(KeyMoment(kind, step, seat, counts[kind], **extra))

        before = _Facts.of(game)
        _moments(None, after=before, step=0, action=None, note=note)
        for step, action in enumerate(self.actions, start=1):
            if (step - 1) % KEYFRAME_EVERY == 0:
                self._snapshots.append(game.copy())
            try:
                game.apply(action)
            except ValueError as e:
                raise ReplayError(step - 1, str(action), str(e)) from e
            after = _Facts.of(game)
            _moments(before, after, step, action, note)
            before = after
        if game.phase != Phase.FINISHED:
            raise NotFinishedError(
                "only a finished game can be replayed: this record's game "
                + ("was void (two or more revolted)" if game.phase == Phase.VOID else "is not over")
            )
        if not self._snapshots:
            self._snapshots.append(initial.copy())
        self.final = game
        self.moments = tuple(found)

    @classmethod
    def from_record(cls, data: Any, game: int | None = None) -> Replay:
        """The replay of a ``gouji-record/1`` record, or of game ``game`` (1-based, void
        deals not counted; default the last finished one) of a ``gouji-series/1`` record."""
        if isinstance(data, dict) and data.get("format") == SERIES_FORMAT:
            return cls._from_series(data, game)
        from .record import GAME_FORMAT

        if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
            fmt = data.get("format") if isinstance(data, dict) else None
            raise RecordError(f"field 'format' must be '{GAME_FORMAT}', not {fmt!r}")
        if game is not None:
            raise RecordError("a game record holds one game: choose a game only in a series")
        initial = game_from_record(data)
        try:
            actions = [Action.parse(a) for a in action_list(data)]
        except ValueError as e:
            raise RecordError(f"field 'actions': {e}") from e
        return cls(initial, actions)

    @classmethod
    def _from_series(cls, data: dict[str, Any], number: int | None) -> Replay:
        series = series_from_record(data)
        finished = [d for d in series.deals if d.finished]
        if not finished:
            raise NotFinishedError("only a finished game can be replayed: no game is over yet")
        chosen = finished[-1] if number is None else None
        if number is not None:
            chosen = next((d for d in finished if d.number == number), None)
            if chosen is None:
                done = ", ".join(str(d.number) for d in finished)
                raise NotFinishedError(
                    f"game {number} of this series is not a finished game (finished: {done})"
                )
        deal = chosen
        assert deal is not None and deal.game is not None
        if deal.position is None:
            initial = Game(deal.game.dealt, options=series.options, seed=deal.seed)
        else:
            leader, declared, revolted = deal.position
            initial = Game.from_position(
                deal.game.dealt,
                leader,
                declared=declared,
                revolted=revolted,
                options=series.options,
                buy_threes=True,
            )
        return cls(initial, deal.game.actions)

    @property
    def steps(self) -> int:
        """The last step (the number of actions)."""
        return len(self.actions)

    def game_at(self, step: int) -> Game:
        """The game after ``step`` actions (a fresh copy: change it freely)."""
        if not 0 <= step <= self.steps:
            raise IndexError(f"step {step} is not in 0..{self.steps}")
        if step == self.steps:
            return self.final.copy()
        base = min(step // KEYFRAME_EVERY, len(self._snapshots) - 1)
        game = self._snapshots[base].copy()
        for action in self.actions[base * KEYFRAME_EVERY : step]:
            game.apply(action)
        return game

    def action(self, step: int) -> Action:
        """The action that led to ``step`` (1 ≤ step ≤ ``steps``)."""
        if not 1 <= step <= self.steps:
            raise IndexError(f"step {step} has no action: steps with one are 1..{self.steps}")
        return self.actions[step - 1]

    def moments_of(self, kind: str) -> list[KeyMoment]:
        """The key moments of one kind, in order."""
        return [m for m in self.moments if m.kind == kind]


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the key moments are read from, at one step."""

    round_open: bool  # in play, no standing hand, no window
    leader: int | None
    opened: tuple[bool, ...]
    burns: tuple[tuple[int, int | None, str], ...]
    finish_order: tuple[int, ...]
    places: tuple[int | None, ...]
    melee: bool

    @classmethod
    def of(cls, game: Game) -> _Facts:
        return cls(
            round_open=game.phase == Phase.PLAY and game.standing is None and game.window is None,
            leader=game.turn,
            opened=tuple(game.opened),
            burns=tuple((b.burner, b.burned, b.result) for b in game.burns),
            finish_order=tuple(game.finish_order),
            places=tuple(game.places),
            melee=game.melee,
        )


def _moments(
    before: _Facts | None, after: _Facts, step: int, action: Action | None, note: Any
) -> None:
    """Note the key moments that ``action`` brought at ``step`` (``before`` None: step 0)."""
    if before is not None:
        for s in range(6):
            if after.opened[s] and not before.opened[s]:
                note(OPEN, step, s)
        for i, (burner, burned, result) in enumerate(after.burns):
            if i >= len(before.burns):
                note(BURN, step, burner, other=burned)
            if result != "ongoing" and (i >= len(before.burns) or before.burns[i][2] == "ongoing"):
                note(BURN_END, step, burner, other=burned, result=result)
        for s in after.finish_order[len(before.finish_order) :]:
            note(FINISH, step, s, place=after.places[s])
        if after.melee and not before.melee:
            note(MELEE, step, None)
    # a lead nobody may answer wins its round at once: the table is empty before and after
    played = action is not None and action.verb in (Verb.PLAY, Verb.BURN)
    if after.round_open and (before is None or not before.round_open or played):
        note(ROUND, step, after.leader)
