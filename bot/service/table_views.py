"""The read side of a live table: a view of it taken under its lock (everyone's, or one
seat's with its hand and question), the question a seat faces, the plays it may make.

A front end holds a table as a :class:`~bot.service.live.LiveTable` *handle* — it passes it
back to the service and reads nothing of it but ``id`` — and learns everything else from
views (:mod:`bot.service.views`)::

    view = await service.views.public_view(live)  # everyone's view
    mine = await service.views.private_view(live, seat)  # a seat's: hand, question, public
    service.views.question_token(live)  # names the question asked now

Part of :class:`~bot.service.tables.TableService` (its ``views``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from bot.pictures import views as models
from bot.service.flow import next_step
from bot.service.live import LiveTable
from bot.service.questions import (
    Prompt,
    Question,
    QuestionKind,
    question_kind,
    question_token,
    turn_verbs,
    yes_or_no,
)
from bot.service.registry import Registry
from bot.service.views import PrivateView, PublicView, RecentLog, TableInfo
from engine.actions import Verb
from engine.ai import rank_plays
from engine.events import tribute_paid
from engine.hands import Play
from render.models import SeatView, SeriesView, TableView

NO_NAMES = ("",) * 6


class TableViews:
    """What a table shows, to everyone and to each seat (see the module doc)."""

    def __init__(self, tables: Registry, recent: RecentLog) -> None:
        self.tables = tables
        self.recent = recent  # the announcements its views show

    # ----------------------------------------------------------------- views
    async def public_view(self, live: LiveTable) -> PublicView:
        """Everyone's view of the table, taken under its lock."""
        async with live.lock:
            return self.public_view_locked(live)

    async def private_view(self, live: LiveTable, seat: int) -> PrivateView:
        """``seat``'s view (its hand, its question, the public view), under the lock."""
        async with live.lock:
            return self.private_view_locked(live, seat)

    @staticmethod
    def question_kind(live: LiveTable) -> QuestionKind:
        """What the table asks now (a series with a deal is on)."""
        return question_kind(live)

    @staticmethod
    def question_token(live: LiveTable) -> str:
        """Names the question the table asks now (:func:`bot.service.questions.question_token`):
        an answer given with an older token is refused."""
        return question_token(live)

    def public_view_locked(self, live: LiveTable) -> PublicView:
        """:meth:`public_view` while the lock is held (in a listener's callback)."""
        info = self.tables.info(live)
        series = live.series
        cur = series.current if series is not None else None
        game = cur.game if cur is not None else None
        to_act = tuple(series.to_act) if series is not None else ()
        if cur is None:
            phase = None
        else:
            phase = str(game.phase) if game is not None else str(Prompt.RETURN)
        return PublicView(
            info=info,
            playing=live.playing,
            deal=len(series.deals) if series is not None else 0,
            number=cur.number if cur is not None else None,
            games_total=series.games_total if series is not None else live.options.games,
            phase=phase,
            asking=question_kind(live) if to_act else None,
            to_act=to_act,
            deadline=live.deadline if live.waiting else None,
            burn_window=game is not None and game.window is not None,
            standing=game.standing if game is not None else None,
            standing_seat=game.standing_seat if game is not None else None,
            table=self._table_model(live, info),
            scoreboard=self._scoreboard(live),
            log=self.recent.of(live.id),
            result_waiting=tuple(sorted(live.result_waiting or ())),
            paid=tuple(tribute_paid(cur)) if cur is not None else (),
            titles=live.series_titles[1]
            if live.series_titles is not None and live.series_titles[0] == live.series_id
            else (),
            returns=tuple((r.giver, r.taker, r.count, r.cards is not None) for r in cur.returns)
            if cur is not None
            else (),
        )

    @staticmethod
    def _scoreboard(live: LiveTable) -> SeriesView | None:
        """The current (or last) series' scoreboard; once it is over, with what it did to
        each seat's skill rating."""
        if live.series is None:
            return None
        shown = live.series_ratings
        ratings = shown[1] if shown is not None and shown[0] == live.series_id else ()
        return models.series_view(live.series, NO_NAMES, ratings=ratings)

    def private_view_locked(self, live: LiveTable, seat: int) -> PrivateView:
        """:meth:`private_view` while the lock is held (in a listener's callback)."""
        return PrivateView(
            seat=seat,
            hand=self.hand_cards(live, seat),
            question=self.question_locked(live, seat),
            public=self.public_view_locked(live),
            received=self.received_cards(live, seat),
        )

    async def seat_views(
        self, live: LiveTable, seats: Iterable[int]
    ) -> tuple[PublicView, dict[int, PrivateView]]:
        """The public view and the private views of ``seats``, all of one moment (one
        lock), sharing one public view: what a front end showing a table to several seats
        at once (a browser's sockets) sends after a change."""
        async with live.lock:
            public = self.public_view_locked(live)
            return public, {
                seat: PrivateView(
                    seat=seat,
                    hand=self.hand_cards(live, seat),
                    question=self.question_locked(live, seat),
                    public=public,
                    received=self.received_cards(live, seat),
                )
                for seat in seats
            }

    def still_asked(self, live: LiveTable, seat: int, token: str) -> bool:
        """Whether ``seat`` is still asked the question ``token`` (:meth:`question_token`):
        a front end about to notify of it late may drop what nobody needs any more. Cheap;
        any time (it reads, between two awaits, what the lock's holders write at once)."""
        return _asks(live, seat) and question_token(live) == token

    def question_locked(self, live: LiveTable, seat: int) -> Question | None:
        """The question ``seat`` is asked now, or None (it is not asked, or the AI answers
        for it, or the table passes for it: 要不起 with automatic passes). Call it while the lock is held; :meth:`private_view` anywhere else."""
        if not _asks(live, seat):
            return None
        step = next_step(live)
        if step is not None and step.seat == seat:  # the table answers for it (要不起: pass)
            return None
        kind = question_kind(live)
        asked = Question(
            kind=kind,
            token=question_token(live),
            seat=seat,
            verbs=(),
            deadline=live.deadline,
            seconds=live.options.burn_time if kind == Prompt.BURN else live.options.turn_time,
        )
        if kind == Prompt.RETURN:
            count, allowed = live.running.returnable(seat)
            due = live.current.pending_return
            return dataclasses.replace(
                asked,
                verbs=(Verb.RETURN,),
                return_count=count,
                returnable=tuple(allowed),
                return_to=due.taker if due is not None else None,
            )
        game = live.running_game
        if yes_or_no(kind):
            verbs = tuple(action.verb for action in game.legal_actions(seat))
            return dataclasses.replace(asked, verbs=verbs)
        plays = self.ranked_plays(live, seat)
        return dataclasses.replace(
            asked,
            verbs=turn_verbs(live, seat, plays),
            plays=tuple(plays),
            standing=game.standing,
            standing_seat=game.standing_seat,
        )

    def ranked_plays(self, live: LiveTable, seat: int) -> list[Play]:
        """Every play (or burn, in a burn window) the seat may make now, most useful first
        (worked out once per question: the controller and the autocomplete share it)."""
        game = live.game
        if game is None or seat not in game.to_act:
            return []
        token = question_token(live)
        held = live.ranked
        if held is None or held[0] is not game or held[1] != token:
            held = live.ranked = (game, token, {})
        plays = held[2].get(seat)
        if plays is None:
            if game.window is not None:
                plays = game.burn_plays(seat)
            else:
                plays = rank_plays(game.observe(seat))
            held[2][seat] = plays
        return plays

    @staticmethod
    def received_cards(live: LiveTable, seat: int) -> str:
        """The cards (with suits) the seat was paid as tribute this deal, "" for none."""
        cur = live.series.current if live.series else None
        paid = [c for p in cur.paid if p.receiver == seat for c in p.cards] if cur else []
        return " ".join(str(c) for c in paid)

    def hand_cards(self, live: LiveTable, seat: int) -> str:
        """The seat's cards now, with suits (during tribute returns too)."""
        cur = live.series.current if live.series else None
        if cur is None:
            return ""
        cards = cur.game.cards[seat] if cur.game else cur.hands[seat]
        return " ".join(str(c) for c in cards)

    def _table_model(self, live: LiveTable, info: TableInfo) -> TableView:
        """The render model of the table as everyone sees it, without names: while tribute
        is returned the seats and their cards, else the game as a seat that is not asked
        anything observes it (nothing of its own shows: ``public``), seat 0 at the bottom.
        A burn window's seats stay hidden: who is asked can burn."""
        series = live.series
        cur = series.current if series is not None else None
        stood_in = [seat.stood_in for seat in info.seats]
        counter = live.options.counter
        game = cur.game if cur is not None else None
        if game is None:
            seats = tuple(
                SeatView(cards_left=min(len(cur.hands[s]) if cur else 0, 216), ai=stood_in[s])
                for s in range(6)
            )
            return TableView(
                seats=seats,
                to_act=tuple(series.to_act) if series is not None else (),
                counter=models.card_counter([0] * 15) if counter else None,
            )
        viewer = next((s for s in range(6) if s not in game.to_act), 0)  # no plays to list
        view = models.table_view(
            game.observe(viewer), NO_NAMES, ai=stood_in, show_counter=counter, public=True
        )
        view = dataclasses.replace(view, bottom_seat=0)
        if game.window is not None:
            view = dataclasses.replace(view, to_act=())
        return view


def _asks(live: LiveTable, seat: int) -> bool:
    """Whether the table waits on ``seat`` and a person answers for it (not the AI)."""
    return live.playing and seat in live.running.to_act and not live.is_ai(seat)
