"""The typed parameters of announcements and refusals, and their wording.

The table service says *what* happened with these (``announce(live, "ev_burn",
user=Who(2), victim=Who(5))``); a front end words them in a language with
:func:`param_text`, naming seats and users its own way (:class:`Namer`: Discord display
names and ``<@id>``, a browser's player names). Small frozen dataclasses, so that a log of
announcements is plain data (JSON: ``bot.service.views.to_json``).

>>> param_text(OwedLine(Who(0), Who(5), 2), "en", SeatNumbers())
'0 (0) → 5 (5) ×2'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.text.cards import action_text, hand_text, play_words
from bot.text.catalog import place_name, tribute_kind
from bot.text.langs import text
from engine.hands import Play
from render.titles import title_name


class Namer(Protocol):
    """How a front end names the people of a table."""

    def seat(self, seat: int) -> str:
        """The player of ``seat`` ("济南", "AI 3", a display name)."""
        ...

    def user(self, user_id: int) -> str:
        """A user by id (on Discord a mention that does not notify)."""
        ...


class SeatNumbers:
    """A :class:`Namer` for texts without a table: seats and users by number."""

    def seat(self, seat: int) -> str:
        return str(seat)

    def user(self, user_id: int) -> str:
        return f"#{user_id}"


class SeatNamer:
    """A :class:`Namer` over a table's six seat names (users by name, else ``#id``).

    >>> Who(3).words("en", SeatNamer(["a", "b", "c", "d", "e", "f"]))
    'd (3)'
    """

    def __init__(self, names: Sequence[str], users: dict[int, str] | None = None) -> None:
        self.names, self.users = names, users or {}

    def seat(self, seat: int) -> str:
        return self.names[seat]

    def user(self, user_id: int) -> str:
        return self.users.get(user_id, f"#{user_id}")


class Param:
    """A parameter that words itself."""

    __slots__ = ()

    def words(self, lang: str, names: Namer) -> str:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Who(Param):
    """A seat, named by its player: ``济南 (3)``."""

    seat: int

    def words(self, lang: str, names: Namer) -> str:
        return f"{names.seat(self.seat)} ({self.seat})"


@dataclass(frozen=True, slots=True)
class Mention(Param):
    """A user by id (named without a notification)."""

    user_id: int

    def words(self, lang: str, names: Namer) -> str:
        return names.user(self.user_id)


@dataclass(frozen=True, slots=True)
class Place(Param):
    """A place 1 (头科) … 6 (大落)."""

    place: int

    def words(self, lang: str, names: Namer) -> str:
        return place_name(lang, self.place)


@dataclass(frozen=True, slots=True)
class Acted(Param):
    """An action (its verb and cards), worded: "出 三张 7 + 两张 2（五张）", "过牌"."""

    verb: str
    cards: str | None = None

    def words(self, lang: str, names: Namer) -> str:
        return action_text(lang, self.verb, self.cards)


@dataclass(frozen=True, slots=True)
class Cards(Param):
    """A play, in words: "一对 K", "three 7s + two 2s (5 cards)"."""

    cards: Play | str

    def words(self, lang: str, names: Namer) -> str:
        return play_words(self.cards, lang)


@dataclass(frozen=True, slots=True)
class PlaceLine(Param):
    """A seat and the place it took: ``济南 (3) 头科``."""

    who: Who
    place: Place

    def words(self, lang: str, names: Namer) -> str:
        return f"{self.who.words(lang, names)} {self.place.words(lang, names)}"


@dataclass(frozen=True, slots=True)
class TributeLine(Param):
    """Tribute paid (进贡): ``payer`` gave ``cards`` to ``receiver``, the cards in words.

    >>> TributeLine(Who(0), Who(5), "BR").words("zh", SeatNumbers())
    '0 (0) → 5 (5) 小王 大王'
    """

    payer: Who
    receiver: Who
    cards: str

    def words(self, lang: str, names: Namer) -> str:
        paid = hand_text(self.cards, lang) if self.cards else ""
        return f"{self.payer.words(lang, names)} → {self.receiver.words(lang, names)} {paid}"


@dataclass(frozen=True, slots=True)
class OwedLine(Param):
    """Tribute owed next game: ``count`` cards from ``payer`` to ``receiver``, of ``kind``
    (engine.scoring: stifle 闷贡, burn 烧贡, point 点贡, place 落贡), named as such."""

    payer: Who
    receiver: Who
    count: int
    kind: str = ""

    def words(self, lang: str, names: Namer) -> str:
        what = f"{tribute_kind(lang, self.kind)} " if self.kind else ""
        return (
            f"{what}{self.payer.words(lang, names)} → "
            f"{self.receiver.words(lang, names)} ×{self.count}"
        )


@dataclass(frozen=True, slots=True)
class ScoreLine(Param):
    """A seat's score: ``济南 (3) +4``."""

    who: Who
    score: int

    def words(self, lang: str, names: Namer) -> str:
        return f"{self.who.words(lang, names)} {self.score:+d}"


@dataclass(frozen=True, slots=True)
class TitleLine(Param):
    """A player's title (称号) after a series: ``济南 (3) 牌神``."""

    who: Who
    title: str

    def words(self, lang: str, names: Namer) -> str:
        return f"{self.who.words(lang, names)} {title_name(self.title, lang)}"


@dataclass(frozen=True, slots=True)
class RatingLine(Param):
    """A player's rating (技术分) after a series, its change first: ``济南 (3) +1.8 → 19.4``."""

    who: Who
    change: str  # :func:`bot.service.standing.change_line`

    def words(self, lang: str, names: Namer) -> str:
        return f"{self.who.words(lang, names)} {self.change}"


@dataclass(frozen=True, slots=True)
class TeamPoints(Param):
    """The two teams' points of a game: seats 0·2·4 and 1·3·5."""

    even: int
    odd: int

    def words(self, lang: str, names: Namer) -> str:
        return f"0·2·4 {self.even:+d} · 1·3·5 {self.odd:+d}"


def param_text(value: Any, lang: str, names: Namer) -> str:
    """One parameter as text: a :class:`Param` words itself, a list is joined ("、" in
    Chinese), anything else is shown as it is."""
    if isinstance(value, Param):
        return value.words(lang, names)
    if isinstance(value, list | tuple):
        return list_text([param_text(v, lang, names) for v in value], lang)
    return str(value)


def list_text(items: Sequence[str], lang: str) -> str:
    """Items in a row: ``甲、乙`` / ``a, b``."""
    return text(lang, "sep.list").join(items)


def params_text(params: dict[str, Any], lang: str, names: Namer) -> dict[str, str]:
    """Every parameter of a message as text (what :func:`bot.text.catalog.text` takes)."""
    return {key: param_text(value, lang, names) for key, value in params.items()}
