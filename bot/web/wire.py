"""What a socket is sent: the service's views as the table client's JSON.

Two parts, so that a table's update is worded once per language and only the seat's own
part is made per socket:

- :func:`public_part`: the table as everyone may see it (:class:`PublicView`), its seats
  named and its log worded in one language — the same for every socket of that language;
- :func:`seat_part`: one seat's hand and the question it is asked
  (:class:`~bot.service.questions.Question`: its verbs, the legal plays as card multisets,
  the cards it may return). Never another seat's cards: the hand is the seat's own and the
  public part has card counts only.

The legal plays are sent as their canonical notation (``"8888822"``: the cards sorted by
rank), so the client tells a legal selection by looking its sorted cards up — no rule of the
game in the browser; the words of a selection come from the server (``describe``). Each part
is its type in :mod:`bot.web.frames`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.service.questions import Question
from bot.service.tournaments import TableStandings
from bot.service.views import Announcement, PrivateView, PublicView
from bot.text.cards import play_words
from bot.text.catalog import text
from bot.text.params import Namer, SeatNamer, params_text
from bot.text.questions import question_text
from bot.web.frames import (
    CounterPart,
    EventLine,
    EventPart,
    GameScore,
    LastPart,
    MePart,
    PaidPart,
    QuestionPart,
    ResultPart,
    ReturnPart,
    ScorePart,
    SeatPart,
    TablePart,
    TributePart,
)
from engine.scoring import team_of, team_totals
from engine.tournament.standings import LEFT, OUT
from render.labels import title_name
from render.models import SeriesView

#: Log lines a socket is sent (the newest last), as in the Discord table message.
LOG_LINES = 6
MARKS = ("declared", "opened", "headless", "revolted", "ai")


def log_lines(log: Sequence[Announcement], lang: str, namer: Namer) -> list[str]:
    """The last :data:`LOG_LINES` announcements worded in ``lang`` (only those are worded:
    the log may hold the whole game)."""
    lines: list[str] = []
    for said in reversed(log):
        if len(lines) == LOG_LINES:
            break
        try:
            lines.append(text(lang, said.key, **params_text(said.params, lang, namer)))
        except (KeyError, IndexError):  # a key without a text: nothing to show
            continue
    return lines[::-1]


def public_part(
    view: PublicView, names: Sequence[str], lang: str, users: dict[int, str] | None = None
) -> TablePart:
    """The table as everyone sees it, named and worded in ``lang``."""
    table = view.table
    namer = SeatNamer(names, users or {})
    seats: list[SeatPart] = []
    for shown, sitting in zip(table.seats, view.info.seats, strict=True):
        last = shown.last_action
        seats.append(
            SeatPart(
                name=names[sitting.seat],
                team=team_of(sitting.seat),
                cards=shown.cards_left,
                place=shown.place,
                marks=[mark for mark in MARKS if getattr(shown, mark)],
                last=None if last is None else LastPart(verb=last.verb, cards=last.cards),
                empty=sitting.empty,
                person=sitting.user_id is not None,
            )
        )
    counter = table.counter
    board = view.scoreboard
    standing = str(view.standing) if view.standing is not None else None
    return TablePart(
        table=view.id,
        open=view.info.open,
        playing=view.playing,
        started=view.deal > 0,
        number=view.number,
        games=view.games_total,
        phase=view.phase,
        asking=view.asking.value if view.asking is not None else None,
        toAct=list(table.to_act) if view.burn_window else list(view.to_act),
        deadline=view.deadline,
        burn=view.burn_window,
        standing=standing,
        standingSeat=view.standing_seat,
        standingText=play_words(standing, lang) if standing else "",
        melee=table.melee,
        counter=None
        if counter is None
        else CounterPart(big=counter.big_jokers, small=counter.small_jokers, twos=counter.twos),
        seats=seats,
        log=log_lines(view.log, lang, namer),
        score=None if board is None else score_part(board, view.titles, lang),
        result=result_part(view),
        tribute=tribute_part(view, lang),
    )


def tribute_part(view: PublicView, lang: str) -> TributePart | None:
    """The deal's tribute as everyone saw it announced: each payment (its kind named, the
    cards' ranks), each return due (还贡: who gives how many back to whom, made yet — not
    which cards) and the return rule of the table (不还单张) in words."""
    if not view.paid:
        return None
    single = view.info.options.rules.no_single_return
    return TributePart(
        paid=[
            PaidPart(
                kind=p.kind,
                kindText=text(lang, f"tribute.{p.kind}"),
                payer=p.payer,
                receiver=p.receiver,
                cards=p.cards.replace(" ", ""),
            )
            for p in view.paid
        ],
        returns=[
            ReturnPart(giver=giver, taker=taker, count=count, done=done)
            for giver, taker, count, done in view.returns
        ],
        rule=text(lang, "web_return_rule_single") if single and view.returns else "",
    )


def score_part(board: SeriesView, titles: Sequence[str | None], lang: str) -> ScorePart:
    """The series so far: each seat's and team's points, and for the scoreboard each game's
    places and points, each player's series score (their team's seat points and their own
    penalties: what their profile counts) and, once it is over, each seat's rating change and
    its player's title, worded in ``lang``."""
    seat_points = [sum(g.points[s] for g in board.games) for s in range(6)]
    teams = team_totals(seat_points)
    return ScorePart(
        totals=list(board.totals()),
        teams=list(board.team_totals()),
        played=sum(1 for g in board.games if g.finished),
        games=[
            GameScore(
                places=[place or 0 for place in g.places],
                points=list(g.points),
                doubled=g.chuan_san_hu,
                finished=g.finished,
            )
            for g in board.games
        ],
        penalties=list(board.penalties),
        scores=[teams[team_of(s)] + board.penalties[s] for s in range(6)],
        ratingChange=[None if r is None else round(r[0], 1) for r in board.ratings],
        ratingAfter=[None if r is None else round(r[1], 1) for r in board.ratings],
        titles=[title_name(t, lang) if t else "" for t in titles],
    )


def result_part(view: PublicView) -> ResultPart | None:
    """The finished game's result while it is on the table (until the next deal): from the
    series' scoreboard, with the seats the next deal waits on to press go on."""
    board = view.scoreboard
    if view.phase != "finished" or view.number is None or board is None or not board.games:
        return None
    game = board.games[-1]
    if not game.finished:
        return None
    return ResultPart(
        number=view.number,
        places=[place or 0 for place in game.places],  # a finished game: all six placed
        points=list(game.points),
        teams=list(team_totals(game.points)),
        marks=[list(marks) for marks in game.marks],
        waiting=list(view.result_waiting),
        deadline=view.deadline if view.result_waiting else None,
    )


#: a standings line's mark, as the standings picture words it
EVENT_MARKS = {OUT: "tournament_pic_out", LEFT: "tournament_pic_left"}


def event_part(event: TableStandings, lang: str, name_of: Callable[[int], str]) -> EventPart:
    """A round's table's tournament: its name, "round 2 of 4" and its standings (people
    named by ``name_of``, as the table's seats are), worded in ``lang``."""
    return EventPart(
        name=event.name,
        round=event.round,
        rounds=event.rounds,
        title=text(lang, "web_event_bar", round=event.round, rounds=event.rounds),
        lines=[
            EventLine(
                rank=s.rank,
                name=name_of(s.player),
                points=s.points,
                rounds=s.rounds,
                mark=text(lang, EVENT_MARKS[s.status]) if s.status in EVENT_MARKS else "",
            )
            for s in event.lines
        ],
    )


def question_part(asked: Question | None, lang: str, namer: Namer) -> QuestionPart | None:
    """The question as the client shows it: its kind, token, the answers without cards (one
    button each), the legal plays (a turn's or the burning plays) as canonical notation, what
    to return and to whom, the clock, and the question in words."""
    if asked is None:
        return None
    return QuestionPart(
        kind=asked.kind.value,
        token=asked.token,
        verbs=[verb.value for verb in asked.verbs],
        answers=[verb.value for verb in asked.answers],
        plays=[play.canonical for play in asked.plays],
        returnCount=asked.return_count,
        returnable=list(asked.returnable),
        deadline=asked.deadline,
        seconds=asked.seconds,
        leading=asked.leading,
        text=question_text(asked, lang, namer),
    )


def seat_part(view: PrivateView, lang: str, namer: Namer) -> MePart:
    """What only ``view.seat`` is sent: its hand (cards with suits) and its question."""
    return MePart(
        seat=view.seat,
        hand=view.hand.split(),
        question=question_part(view.question, lang, namer),
        received=view.received.split(),
    )
