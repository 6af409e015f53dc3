"""A table as the bot holds it in memory: the store's rows, the engine's series, the lock.

:class:`TableOptions` are the per-table settings (stored as the table's ``options`` JSON);
:class:`LiveTable` is rebuilt from the store at start-up and changed only by
:class:`bot.service.tables.TableService` while holding ``lock``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, fields
from typing import Any

from bot.service.errors import UserError
from data import Seat, Table
from engine.game import Game, Options
from engine.hands import Play
from engine.series import Series, SeriesGame

#: The seconds a person may choose for a turn and for a burn window: the bounds /gouji new
#: and config declare to Discord, checked again here (a forged interaction skips Discord's
#: checks). Stored options may hold shorter ones (tests, an operator): ``SANE_SECONDS``.
TURN_TIME = (5, 600)
BURN_TIME = (3, 120)
SANE_SECONDS = (1, 600)
#: The longest piece of a refused value a refusal quotes back.
ECHO = 60


def echo(value: object) -> str:
    """A value as a refusal may quote it: cut to :data:`ECHO` characters."""
    text = str(value)
    return text if len(text) <= ECHO else text[: ECHO - 1] + "…"


def _bad(what: str) -> UserError:
    return UserError("bad_option", what=echo(what))


#: The house rules' names (:class:`engine.options.Options`): in a table's options JSON they
#: sit beside the table's own settings.
RULES = tuple(Options().to_json())


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Per-table options: the house rules (``rules``, the engine's :class:`Options`: 憋三,
    不还单张, 贡牌, 够死级, 烧牌条件, 开点), a five-game tribute series (else one game), the
    turn time and the burn-window time in seconds, automatic 要不起 passes, the 记牌器 card
    counter, and a channel mention for each turn. Stored as one flat JSON object:

    >>> TableOptions.from_json({"bie_san": True, "turn_time": 30}).rules.bie_san
    True
    >>> TableOptions().to_json()["open_rule"], TableOptions().to_json()["series"]
    ('strict', True)
    """

    rules: Options = Options()
    series: bool = True
    turn_time: int = 60
    burn_time: int = 15
    auto_pass: bool = True
    counter: bool = True
    mention: bool = False  # one kept channel mention per turn (else the DM controller only)
    series_games: int = 5  # games in a series (``gouji demo --games``; Discord: five)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TableOptions:
        """Options from JSON; unknown keys are ignored, bad values raise ``UserError``."""
        data = dict(data or {})
        own = {f.name for f in fields(cls)} - {"rules"}
        try:
            rules = Options.from_json({k: v for k, v in data.items() if k in RULES})
        except (ValueError, TypeError) as exc:
            raise _bad(str(exc)) from None
        opts = cls(rules, **{k: v for k, v in data.items() if k in own})
        opts.check()
        return opts

    @classmethod
    def check_choices(cls, chosen: dict[str, Any]) -> None:
        """What a person chose for a table (/gouji new, the server's defaults in config):
        known options, each of its type, the times within :data:`TURN_TIME` and
        :data:`BURN_TIME` — ``UserError('bad_option')`` otherwise, whatever Discord let by."""
        defaults = cls().to_json()
        for name, value in chosen.items():
            if name not in defaults:
                raise _bad(f"unknown option {name}")
            if isinstance(defaults[name], bool) and type(value) is not bool:
                raise _bad(f"{name} is on or off, not {value}")
        for name, (low, high) in (("turn_time", TURN_TIME), ("burn_time", BURN_TIME)):
            value = chosen.get(name, low)
            if type(value) is not int or not low <= value <= high:
                raise _bad(f"{name} {low}–{high} s, not {value}")
        cls.from_json(chosen)

    def check(self) -> None:
        """``UserError('bad_option')`` unless the switches are on or off and the times are
        whole seconds within :data:`SANE_SECONDS` (the house rules check themselves)."""
        for name in ("series", "auto_pass", "counter", "mention"):
            if type(getattr(self, name)) is not bool:
                raise _bad(f"{name} is on or off, not {getattr(self, name)}")
        low, high = SANE_SECONDS
        for name in ("turn_time", "burn_time"):
            value = getattr(self, name)
            if type(value) is not int or not low <= value <= high:
                raise _bad(f"{name} {low}–{high} s, not {value}")
        games = self.series_games
        if type(games) is not int or not 1 <= games <= 10:
            raise _bad(f"series_games 1–10, not {games}")

    def to_json(self) -> dict[str, Any]:
        """One flat object: the house rules, then the table's own settings."""
        own = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "rules"}
        return {**self.rules.to_json(), **own}

    @property
    def games(self) -> int:
        return self.series_games if self.series else 1


@dataclass(slots=True)
class LiveTable:
    """One open table: its rows, the engine series being played and the ids of its rows."""

    table: Table
    seats: list[Seat]
    options: TableOptions
    series: Series | None = None
    series_id: int | None = None
    game_id: int | None = None  # the store's id of the current deal
    games_finished: int = 0  # finished deals of the current series already recorded
    deal_voided: bool = False  # the current deal's row is marked void (a redeal is due)
    series_closed: bool = False  # the current series' row is closed (finished or abandoned)
    closing_told: int | None = None  # the series whose close was announced (kept by a resync)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    players: dict[tuple[int, str], Any] = field(default_factory=dict)  # (seat, kind) -> AI
    pending_joins: dict[int, int] = field(default_factory=dict)  # seat -> user, next game
    leavers: dict[int, int] = field(default_factory=dict)  # seat -> user who left this game
    deadline: float | None = None
    waiting: frozenset[int] = frozenset()  # the human seats the clock runs for
    clock_key: tuple[int, str] | None = None  # (deal, question) the clock runs for
    last_activity: float = 0.0
    ended: bool = False
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    # the plays each seat asked may make, most useful first, worked out once per question:
    # (the game, the question's token, seat -> its ranked plays) (TableService.ranked_plays)
    ranked: tuple[Game, str, dict[int, list[Play]]] | None = None
    # (series id, per seat: its rating's change over that series and the figure after it)
    # once a series is over, for its scoreboard (bot.service.standing.seat_changes)
    series_ratings: tuple[int, tuple[tuple[float, float] | None, ...]] | None = None
    # (series id, per seat: the title its player holds after it, None for an AI seat)
    series_titles: tuple[int, tuple[str | None, ...]] | None = None
    # waiting for its database (bot/service/recovery.py): since when, how many tries so far
    stalled_since: float | None = None
    stall_tries: int = 0
    # the last wait's (since, tries) and when the table came back from it
    relapse: tuple[float, int, float] | None = None
    failures: int = 0  # background failures in a row that were not the database's (bugs)
    # a game's result held before the next deal (GameFlow, RESULT_HOLD): each seat's pages
    # open on the table now (a front end says so: TableService.look), the deals whose result
    # was held already, and the seats still to press go on (None: no result is held)
    lookers: dict[int, int] = field(default_factory=dict)
    result_held_deal: int = 0
    result_waiting: frozenset[int] | None = None
    # each seat's pages open and shown now (the Page Visibility API; TableService.show):
    # its questions notify nobody through Discord meanwhile (one notification a question)
    shown_pages: dict[int, int] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.table.id

    @property
    def playing(self) -> bool:
        """A series is being played (not finished)."""
        return self.series is not None and not self.series.finished

    @property
    def game(self) -> Game | None:
        """The engine game of the current deal, or None."""
        cur = self.series.current if self.series else None
        return cur.game if cur else None

    # Where the caller knows a series is on (checked by ``playing`` or the flow): the series,
    # its current deal and their rows. Reaching one that is not there is a bug.
    @property
    def running(self) -> Series:
        """The table's series."""
        if self.series is None:
            raise RuntimeError(f"table {self.id} has no series")
        return self.series

    @property
    def current(self) -> SeriesGame:
        """The current deal of the table's series."""
        cur = self.running.current
        if cur is None:
            raise RuntimeError(f"table {self.id}: its series has no deal yet")
        return cur

    @property
    def running_game(self) -> Game:
        """The engine game of the current deal (not during tribute returns)."""
        game = self.current.game
        if game is None:
            raise RuntimeError(f"table {self.id}: tribute is being returned, no game yet")
        return game

    @property
    def series_row(self) -> int:
        if self.series_id is None:
            raise RuntimeError(f"table {self.id} has no series row")
        return self.series_id

    @property
    def game_row(self) -> int:
        if self.game_id is None:
            raise RuntimeError(f"table {self.id} has no game row")
        return self.game_id

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds, or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def is_ai(self, seat: int) -> bool:
        """The AI decides for this seat: an AI seat, or an AI standing in (托管)."""
        s = self.seats[seat]
        return s.user_id is None or s.standin or seat in self.leavers

    def ai_kind(self, seat: int) -> str:
        return self.seats[seat].ai_kind or "hint"

    def empty_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.is_empty]

    def users(self) -> list[int | None]:
        return [s.user_id for s in self.seats]
