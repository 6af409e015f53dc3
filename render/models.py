"""The plain data the pictures are drawn from: small frozen dataclasses, no engine or discord
objects. Each validates itself on creation and raises :class:`RenderInputError` with a message
saying what to fix.

A table view can be filled straight from a replay (docs/record.md): ``hands[s]`` gives
``cards_left``, ``places[s]`` the place, ``opened`` / ``headless`` / ``melee`` the flags,
``to_act`` the seats awaited, the last action of each seat this round its
:class:`LastAction` (``LastAction.parse("play TTTTT")``), an ongoing entry of ``burns`` the
:class:`Burn`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.scoring import team_totals

from .errors import RenderInputError

SEATS = 6
VERBS = ("play", "pass", "yield", "burn", "noburn")


def _check_seat(seat: int | None, what: str, allow_none: bool = True) -> None:
    if seat is None and allow_none:
        return
    if not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RenderInputError(f"{what} must be a seat number 0-5, not {seat!r}")


def _check_place(place: int | None, what: str) -> None:
    if place is not None and (not isinstance(place, int) or not 1 <= place <= 6):
        raise RenderInputError(f"{what} must be a place 1-6 (头科..大落) or None, not {place!r}")


def _check_six(values: tuple[object, ...], what: str) -> None:
    if len(values) != SEATS:
        raise RenderInputError(f"{what} needs exactly six entries (seats 0-5), got {len(values)}")


@dataclass(frozen=True, slots=True)
class LastAction:
    """What a seat last did this round, as the table picture shows it: ``verb`` is play, pass, yield, burn or noburn;
    ``cards`` the card notation of the hand played (play and burn only)."""

    verb: str
    cards: str = ""

    def __post_init__(self) -> None:
        if self.verb not in VERBS:
            raise RenderInputError(f"unknown action {self.verb!r}: use one of {', '.join(VERBS)}")
        if (self.verb in ("play", "burn")) != bool(self.cards.strip()):
            raise RenderInputError(f"action {self.verb!r} needs cards exactly when it plays some")

    @classmethod
    def parse(cls, text: str) -> LastAction:
        """``LastAction.parse("play TTTTT")``, ``LastAction.parse("pass")`` (record verbs)."""
        verb, _, cards = text.strip().partition(" ")
        return cls(verb, cards.strip())


@dataclass(frozen=True, slots=True)
class Burn:
    """A burn (烧牌) in progress: ``burner`` took over the gouji hand of ``burned``."""

    burner: int
    burned: int

    def __post_init__(self) -> None:
        _check_seat(self.burner, "Burn.burner", allow_none=False)
        _check_seat(self.burned, "Burn.burned", allow_none=False)


@dataclass(frozen=True, slots=True)
class CardCounter:
    """记牌器: how many big jokers, small jokers and 2s have not been played yet."""

    big_jokers: int = 4
    small_jokers: int = 4
    twos: int = 16

    def __post_init__(self) -> None:
        for name, value, most in (
            ("big_jokers", self.big_jokers, 4),
            ("small_jokers", self.small_jokers, 4),
            ("twos", self.twos, 16),
        ):
            if not 0 <= value <= most:
                raise RenderInputError(f"CardCounter.{name} must be 0-{most}, not {value}")


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at the table. ``name`` is any display name (cleaned when drawn); ``place``
    1..6 once finished; ``ai`` when the bot plays for the seat (托管); ``last_action`` what
    the seat did last this round, None if nothing yet."""

    name: str = ""
    cards_left: int = 36
    place: int | None = None
    declared: bool = False
    opened: bool = False
    headless: bool = False
    revolted: bool = False
    ai: bool = False
    last_action: LastAction | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.cards_left <= 216:
            raise RenderInputError(f"SeatView.cards_left must be 0-216, not {self.cards_left}")
        _check_place(self.place, "SeatView.place")


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table: six seats in play order (seat s+3 is opposite seat s), the standing
    hand and who played it, the seats the game waits on, a burn in progress, melee (四户乱缠),
    the card counter (None: not shown), a caption, and which seat is drawn at the bottom.

    ``viewer``: the seat the picture is drawn for (a private picture: drawn at the bottom,
    "you", its opposite seat 对家 marked, the legend says "your team"); None: a public
    picture (the legend names the teams by colour). ``clock``: the seconds left to the seats
    awaited when the picture was drawn (None: no clock runs).

    ``hands``: every seat's cards in card notation (seats 0-5), for a finished game's replay
    (录像); given, they are drawn in a panel under the table. Empty (the default): not shown,
    as in every live game."""

    seats: tuple[SeatView, ...]
    standing: str = ""
    standing_seat: int | None = None
    to_act: tuple[int, ...] = ()
    burn: Burn | None = None
    melee: bool = False
    counter: CardCounter | None = None
    caption: str = ""
    bottom_seat: int = 0
    hands: tuple[str, ...] = ()
    viewer: int | None = None
    clock: int | None = None

    def __post_init__(self) -> None:
        _check_six(tuple(self.seats), "TableView.seats")
        if self.hands:
            _check_six(tuple(self.hands), "TableView.hands")
        _check_seat(self.standing_seat, "TableView.standing_seat")
        if bool(self.standing.strip()) != (self.standing_seat is not None):
            raise RenderInputError(
                "TableView.standing and standing_seat go together: give both or neither"
            )
        for seat in self.to_act:
            _check_seat(seat, "TableView.to_act entries", allow_none=False)
        _check_seat(self.bottom_seat, "TableView.bottom_seat", allow_none=False)
        _check_seat(self.viewer, "TableView.viewer")
        if self.viewer is not None and self.viewer != self.bottom_seat:
            raise RenderInputError("TableView.viewer is drawn at the bottom: bottom_seat=viewer")
        if self.clock is not None and self.clock < 0:
            raise RenderInputError(f"TableView.clock: seconds left, not {self.clock}")


MARKS = ("opened", "burn_won", "stifled")  # what a SeriesGame may mark a seat with
# the kinds of tribute owed (engine.scoring): 闷贡, 烧贡, 点贡, 落贡
TRIBUTE_KINDS = ("stifle", "burn", "point", "place")


@dataclass(frozen=True, slots=True)
class SeriesGame:
    """One game of a series: each seat's place (None: still playing), points for the game
    (place points, doubled in a sweep game, plus tribute, docs/rules.en.md §8.6), net tribute cards
    paid at its start (received minus paid), and whether this game was a sweep (串三户: one
    team took 头科, 二科 and 三科: its place points are doubled and the next game has no
    tribute).
    ``finished`` False: the game is still being played."""

    places: tuple[int | None, ...]
    points: tuple[int, ...] = (0,) * SEATS
    tribute: tuple[int, ...] = (0,) * SEATS
    chuan_san_hu: bool = False
    finished: bool = True
    # per seat, what it did of note this game: "opened" (开点), "burn_won" (烧成), "stifled" (被闷)
    marks: tuple[tuple[str, ...], ...] = ((),) * SEATS

    def __post_init__(self) -> None:
        for what, values in (
            ("places", self.places),
            ("points", self.points),
            ("tribute", self.tribute),
            ("marks", self.marks),
        ):
            _check_six(tuple(values), f"SeriesGame.{what}")
        for place in self.places:
            _check_place(place, "SeriesGame.places entries")
        for marks in self.marks:
            if not set(marks) <= set(MARKS):
                raise RenderInputError(f"SeriesGame.marks: each one of {MARKS}, not {marks}")


@dataclass(frozen=True, slots=True)
class SeriesView:
    """A tribute series (进贡局): six names (seats 0-5), the games so far (up to
    ``total_games``), penalties (−10 per game left early) and a caption."""

    names: tuple[str, ...]
    games: tuple[SeriesGame, ...] = ()
    total_games: int = 5
    penalties: tuple[int, ...] = (0,) * SEATS
    caption: str = ""
    # tribute next game: (payer, receiver, cards, kind), kind one of TRIBUTE_KINDS
    owed: tuple[tuple[int, int, int, str], ...] = ()
    # once the series is over: per seat (the change of its rating over the series, the
    # rating after it), None for a seat not rated; empty: not shown
    ratings: tuple[tuple[float, float] | None, ...] = ()

    def __post_init__(self) -> None:
        _check_six(tuple(self.names), "SeriesView.names")
        if self.ratings:
            _check_six(tuple(self.ratings), "SeriesView.ratings")
        _check_six(tuple(self.penalties), "SeriesView.penalties")
        if not 1 <= self.total_games <= 10:
            raise RenderInputError(f"SeriesView.total_games must be 1-10, not {self.total_games}")
        for payer, receiver, count, kind in self.owed:
            _check_seat(payer, "SeriesView.owed payer")
            _check_seat(receiver, "SeriesView.owed receiver")
            if count < 1:
                raise RenderInputError(f"SeriesView.owed: a positive count, not {count}")
            if kind not in TRIBUTE_KINDS:
                raise RenderInputError(f"SeriesView.owed: a kind of {TRIBUTE_KINDS}, not {kind!r}")
        if len(self.games) > self.total_games:
            raise RenderInputError(
                f"SeriesView has {len(self.games)} games, more than total_games={self.total_games}"
            )

    def doubled(self, index: int) -> bool:
        """Whether game ``index`` (0-based) had its place points doubled: the sweep game
        (串三户) itself (docs/rules.en.md §8.5; the next game has no tribute)."""
        return 0 <= index < len(self.games) and self.games[index].chuan_san_hu

    def totals(self) -> tuple[int, ...]:
        """Each seat's points over the series, penalties included."""
        return tuple(sum(g.points[s] for g in self.games) + self.penalties[s] for s in range(SEATS))

    def team_totals(self) -> tuple[int, int]:
        """Points of the team of seats 0, 2, 4 and of seats 1, 3, 5."""
        return team_totals(self.totals())


@dataclass(frozen=True, slots=True)
class RatingView:
    """A skill rating (技术分) as shown: the conservative ``figure`` (mu − 3 sigma), ``mu``
    ± ``sigma``, the ``rank`` among the server's ``players`` rated, and whether it is still
    ``provisional`` (few games)."""

    figure: float
    mu: float
    sigma: float
    rank: int
    players: int
    provisional: bool = False

    def __post_init__(self) -> None:
        if self.sigma < 0 or not 1 <= self.rank <= max(self.players, 1):
            raise RenderInputError(
                f"RatingView needs sigma ≥ 0 and a rank 1-{self.players}, not "
                f"sigma={self.sigma}, rank={self.rank}"
            )


@dataclass(frozen=True, slots=True)
class ProfileView:
    """A player's profile: score (running total), title (None: from the score, docs/rules.en.md §8.6),
    games played, how often each place 1..6 was taken, opens (开点), successful burns and
    the skill rating (技术分)."""

    name: str
    score: int = 0
    title: str | None = None
    games: int = 0
    places: tuple[int, ...] = (0,) * SEATS
    opens: int = 0
    burns: int = 0
    server: str = ""
    position: int | None = None
    rating: RatingView | None = None  # None: no rated game yet (its tile says so)

    def __post_init__(self) -> None:
        _check_six(tuple(self.places), "ProfileView.places")
        if min(self.places) < 0 or self.games < 0 or self.opens < 0 or self.burns < 0:
            raise RenderInputError(
                "ProfileView counts (games, places, opens, burns) cannot be negative"
            )


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a server's leaderboard; ``position`` None means its line number."""

    name: str
    score: int
    title: str | None = None
    games: int = 0
    position: int | None = None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One line of a server's rating board (技术分): a person or an AI level (``ai``)."""

    name: str
    figure: float
    mu: float
    sigma: float
    games: int
    position: int
    provisional: bool = False
    ai: bool = False


__all__ = [
    "LastAction",
    "Burn",
    "CardCounter",
    "LeaderboardRow",
    "ProfileView",
    "RatingRow",
    "RatingView",
    "SeatView",
    "SeriesGame",
    "SeriesView",
    "TableView",
]
