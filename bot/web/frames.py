"""The socket's frames, one typed definition each: what the server sends, what a client asks.

Every frame is one JSON object with its kind in ``t``. The server builds each as its type
here (mypy checks every field) and writes it with :func:`encode`; a client's request is read
in one place (:func:`bot.web.protocol.read_request`) into its type here, or refused. The
table client has the same definitions as JSDoc typedefs (``static/frames.js``):
``tests/web/test_frames.py`` checks the two against each other, and both against the frames
of a real game (``tests/web/frames.golden.json``).
"""

from __future__ import annotations

import json
from typing import Generic, Literal, NotRequired, TypeAlias, TypedDict, TypeVar

#: a request's id, repeated by its answer (None: the request had none that could be read)
Ref: TypeAlias = int | str | None
Part = TypeVar("Part")

# ---------------------------------------------------------------------- hello


class Words(TypedDict):
    """How the language puts the client's words together."""

    list: str  # between the names of a list ("、", ", ")
    dot: str  # between the parts of a line (" · ")
    times: str  # how many of a card ("×{n}")


class Faces(TypedDict):
    """What a card face shows (the pictures' faces, :mod:`render.cards`)."""

    letters: str  # the rank letters of the notation, by rank ("3456789TJQKA2BR")
    ranks: list[str]  # each rank's index on a face ("10", "小王")
    suits: dict[str, str]  # suit letter → its glyph, in the hand's order
    joker: str  # the word across a joker
    underlined: list[int]  # the ranks underlined upside down (6 and 9)


class Hello(TypedDict):
    """A connection's first frame (and one per language switch): who it is and its words."""

    t: Literal["hello"]
    seat: int | None
    watching: bool
    lang: str
    langs: list[str]  # the languages the server speaks (the language button goes round)
    tag: str  # the language's tag for the page
    strings: dict[str, str]  # the client's texts by key, placeholders ({n}) left in
    words: Words
    faces: Faces


# ---------------------------------------------------------------------- state


class LastPart(TypedDict):
    """A seat's last action: its verb and the cards it played ("" for none)."""

    verb: str
    cards: str


class SeatPart(TypedDict):
    """One seat as everyone sees it: its card count, never its cards."""

    name: str
    team: int
    cards: int
    place: int | None
    marks: list[str]
    last: LastPart | None
    empty: bool
    person: bool


class CounterPart(TypedDict):
    """The 记牌器: the jokers and 2s not yet played."""

    big: int
    small: int
    twos: int


class GameScore(TypedDict):
    """One game of the series: each seat's place (0: still playing) and points, whether its
    place points were doubled (串三户)."""

    places: list[int]
    points: list[int]
    doubled: bool
    finished: bool


class ScorePart(TypedDict):
    """The series' score: each seat's (penalties in) and each team's points, the games
    played; each game's places and points, the penalties, each player's series score (their
    team's seat points and their own penalties: what their profile counts) and, once the
    series is over, each seat's rating change and the figure after it (null for a seat not
    rated) and its player's title ("" for an AI seat; empty lists before)."""

    totals: list[int]
    teams: list[int]
    played: int
    games: list[GameScore]
    penalties: list[int]
    scores: list[int]
    ratingChange: list[float | None]
    ratingAfter: list[float | None]
    titles: list[str]


class EventLine(TypedDict):
    """One player's line of a tournament's standings: the mark ("" or out/left, worded)."""

    rank: int
    name: str
    points: int
    rounds: int
    mark: str


class EventPart(TypedDict):
    """The tournament (比赛) a round's table belongs to: its name, the bar's words (the
    round of how many) and the standings, worded in one language."""

    name: str
    round: int
    rounds: int
    title: str
    lines: list[EventLine]


class ResultPart(TypedDict):
    """A finished game's result, on the table until the next deal: each seat's place and
    points, the teams' points, each seat's marks ("opened" 开点, "burn_won" 烧成, "stifled"
    被闷), and while the next deal waits, the seats still to press go on and until when."""

    number: int
    places: list[int]
    points: list[int]
    teams: list[int]
    marks: list[list[str]]
    waiting: list[int]
    deadline: float | None


class PaidPart(TypedDict):
    """A tribute payment (进贡): its kind (``kindText``: 点贡, 烧贡, 落贡, 闷贡 worded), who paid
    whom, the cards (their ranks, as announced)."""

    kind: str
    kindText: str
    payer: int
    receiver: int
    cards: str


class ReturnPart(TypedDict):
    """A return due (还贡): ``giver`` gives ``count`` cards back to ``taker``; ``done``: made."""

    giver: int
    taker: int
    count: int
    done: bool


class TributePart(TypedDict):
    """The deal's tribute: the payments, the returns due and the table's return rule in words
    ("" when it does not apply)."""

    paid: list[PaidPart]
    returns: list[ReturnPart]
    rule: str


class TablePart(TypedDict):
    """The table as everyone may see it, worded in one language; ``event`` only at a
    tournament's table."""

    table: int
    open: bool
    playing: bool
    started: bool
    number: int | None
    games: int
    phase: str | None
    asking: str | None
    toAct: list[int]
    deadline: float | None
    burn: bool
    standing: str | None
    standingSeat: int | None
    standingText: str
    melee: bool
    counter: CounterPart | None
    seats: list[SeatPart]
    log: list[str]
    score: ScorePart | None
    result: ResultPart | None
    tribute: TributePart | None
    event: NotRequired[EventPart]


class QuestionPart(TypedDict):
    """What a seat is asked: its answers, the legal plays as canonical notation, what to
    return, the clock and the question in words."""

    kind: str
    token: str
    verbs: list[str]
    answers: list[str]
    plays: list[str]
    returnCount: int
    returnable: list[int]
    deadline: float | None
    seconds: int
    leading: bool
    text: str


class MePart(TypedDict):
    """What only one seat is sent: its hand, its question and the cards it was paid as
    tribute this deal (with suits: marked in its hand)."""

    seat: int
    hand: list[str]
    question: QuestionPart | None
    received: list[str]


class State(TypedDict):
    """The table after a change (``v`` counts them): the public part, and the socket's seat's
    part (null: a spectator)."""

    t: Literal["state"]
    v: int
    now: float
    table: TablePart
    me: MePart | None


# ---------------------------------------------------------------------- answers and words


class Ok(TypedDict):
    """A request done."""

    t: Literal["ok"]
    id: Ref


class Refused(TypedDict):
    """A request refused, in the socket's language: nothing changed."""

    t: Literal["refused"]
    id: Ref
    text: str


class Hint(TypedDict):
    """The hint now: its verb and cards (notation), in words."""

    t: Literal["hint"]
    id: Ref
    verb: str
    cards: str
    text: str


class Described(TypedDict):
    """A selection in words, and whether it is a legal play now."""

    t: Literal["described"]
    id: Ref
    cards: str
    text: str
    legal: bool


class Pong(TypedDict):
    """The answer to a ping."""

    t: Literal["pong"]
    id: Ref


class Gone(TypedDict):
    """The table ended, or the link or the person was refused: the client stops there."""

    t: Literal["gone"]
    text: str


class Wait(TypedDict):
    """Not now (the table is coming back, the server is full): the client comes back."""

    t: Literal["wait"]
    text: str


#: every frame the server sends
Frame: TypeAlias = Hello | State | Ok | Refused | Hint | Described | Pong | Gone | Wait


def encode(frame: Frame) -> str:
    """A frame as the socket sends it: compact JSON, non-ASCII as it is."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


class Encoded(Generic[Part]):
    """A part of a state already written as the socket sends it: the public part is written
    once per language and goes into the state of every socket of that language."""

    __slots__ = ("text",)

    def __init__(self, part: Part) -> None:
        self.text = json.dumps(part, ensure_ascii=False, separators=(",", ":"))


def encode_state(v: int, now: float, table: Encoded[TablePart], me: Encoded[MePart | None]) -> str:
    """A :class:`State` frame as :func:`encode` writes it, from its parts written already."""
    return f'{{"t":"state","v":{v},"now":{now:.3f},"table":{table.text},"me":{me.text}}}'


# ---------------------------------------------------------------------- requests


class ActRequest(TypedDict):
    """Play CARDS, pass, yield, burn CARDS, noburn, an answer (declare, nodeclare, …), return
    CARDS: answered ``ok`` or ``refused``. ``token``: the question answered."""

    t: Literal["act"]
    id: NotRequired[int | str]
    verb: str
    cards: NotRequired[str | None]
    token: NotRequired[str | None]


class HintRequest(TypedDict):
    """The hint now: answered ``hint``."""

    t: Literal["hint"]
    id: NotRequired[int | str]


class DescribeRequest(TypedDict):
    """A selection (card notation) in words: answered ``described``."""

    t: Literal["describe"]
    id: NotRequired[int | str]
    cards: str


class BackRequest(TypedDict):
    """Take the seat back from 托管: ``ok`` or ``refused``."""

    t: Literal["back"]
    id: NotRequired[int | str]


class AutoRequest(TypedDict):
    """托管 on request: ``ok`` or ``refused``."""

    t: Literal["auto"]
    id: NotRequired[int | str]


class AgainRequest(TypedDict):
    """Another series once one is over: ``ok`` or ``refused``."""

    t: Literal["again"]
    id: NotRequired[int | str]


class GoOnRequest(TypedDict):
    """继续: the seat has seen the game's result (the next deal waits for it): ``ok``."""

    t: Literal["goon"]
    id: NotRequired[int | str]


class ShownRequest(TypedDict):
    """The page is shown (``true``) or hidden (the Page Visibility API), said at each
    ``hello`` and each change: while shown, its seat's questions notify nobody through
    Discord. Not answered."""

    t: Literal["shown"]
    id: NotRequired[int | str]
    shown: bool


class LangRequest(TypedDict):
    """Switch language: a new ``hello`` and ``state``."""

    t: Literal["lang"]
    id: NotRequired[int | str]
    lang: str


class PingRequest(TypedDict):
    """The client's heartbeat: answered ``pong``."""

    t: Literal["ping"]
    id: NotRequired[int | str]


#: every request a client may send
Request: TypeAlias = (
    ActRequest
    | HintRequest
    | DescribeRequest
    | BackRequest
    | AutoRequest
    | AgainRequest
    | GoOnRequest
    | ShownRequest
    | LangRequest
    | PingRequest
)
