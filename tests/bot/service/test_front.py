"""What a front end reads of a table: the question a seat faces, the public and private
views (and what they never carry), and listening to a table's changes."""

from __future__ import annotations

import json
import logging
import random
import re

import pytest

from bot.service.errors import UserError
from bot.service.presenter import Listener, Listeners, RecordingPresenter
from bot.service.questions import Prompt, yes_or_no
from bot.service.views import to_json
from engine.actions import VERBS_WITH_CARDS
from engine.options import Phase
from engine.state import QUESTION_PHASES

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    make_service,
    play_humans,
    seated_table,
    user_at,
)

SUITED = re.compile(r"\b[3-9TJQKA2][cdhs]\b")  # a card with its suit: only a hand shows it


def engine_verbs(live, seat: int) -> tuple[str, ...]:
    """The distinct verbs of the engine's legal actions, in the engine's order."""
    if live.current.game is None:
        return ("return",)
    return tuple(dict.fromkeys(a.verb for a in live.current.game.legal_actions(seat)))


async def tour(service, live, check) -> None:
    """Play the series by the hint, calling ``check()`` (under the lock) before each action."""
    while live.playing:
        await service.settle(live)
        if not live.playing:
            break
        async with live.lock:
            check()
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        await service.act_hint(live, user_at(live, seat))


async def test_the_question_is_the_engines_legal_answers_in_every_phase(store) -> None:
    """A seat's question says what the engine allows it, in every phase: its kind and token
    as the service checks them, the verbs, the plays (or burns), the cards to return and to
    whom, the standing play; a seat not asked, or answered for by the AI, has none."""
    service, _ = make_service(store, rng=random.Random(3))
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    seen: set[str] = set()

    def check() -> None:
        series = live.running
        for seat in range(6):
            question = service.views.question_locked(live, seat)
            if seat not in series.to_act or live.is_ai(seat):
                assert question is None, seat
                continue
            assert question is not None and question.seat == seat
            seen.add(question.kind)
            assert question.kind == service.views.question_kind(live)
            assert question.token == service.views.question_token(live)
            assert question.verbs == engine_verbs(live, seat)
            assert set(question.answers) == set(question.verbs) - VERBS_WITH_CARDS
            assert question.deadline == live.deadline
            game = live.game
            if question.kind == Prompt.RETURN:
                count, allowed = series.returnable(seat)
                assert (question.return_count, list(question.returnable)) == (count, allowed)
                assert live.current.pending_return is not None
                assert question.return_to == live.current.pending_return.taker
                continue
            assert game is not None
            legal = {a.cards for a in game.legal_actions(seat) if a.cards is not None}
            assert set(question.plays) == legal and len(question.plays) == len(legal)
            if question.kind in (Prompt.TURN, Prompt.BURN):
                assert (question.standing, question.standing_seat) == (
                    game.standing,
                    game.standing_seat,
                )
                assert question.leading == (question.kind == "turn" and game.standing is None)
                seconds = live.options.burn_time if question.kind == "burn" else 60
                assert question.seconds == seconds

    await tour(service, live, check)
    assert seen >= {"declare", "turn", "burn", "return"}, seen
    await service.close()


async def test_no_view_carries_a_card_of_another_seats_hand(store) -> None:
    """The public view shows no card of any hand; a seat's view shows its own hand and its
    own question, nothing of another's; every view is plain JSON."""
    service, _ = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    checked = 0

    def check() -> None:
        nonlocal checked
        public = json.dumps(to_json(service.views.public_view_locked(live)))
        assert not SUITED.search(public), public
        for seat in range(6):
            mine = to_json(service.views.private_view_locked(live, seat))
            assert mine["hand"] == service.views.hand_cards(live, seat)
            # the tribute it was paid: its own cards (the announcement names their ranks only)
            cur = live.series.current if live.series else None
            paid = [
                str(c) for p in (cur.paid if cur else []) if p.receiver == seat for c in p.cards
            ]
            assert mine["received"].split() == paid
            question = mine["question"]
            assert question is None or question["seat"] == seat
            rest = json.dumps({k: v for k, v in mine.items() if k not in ("hand", "received")})
            assert not SUITED.search(rest)
            assert json.loads(rest)["public"] == json.loads(public)
        checked += 1

    await tour(service, live, check)
    assert checked > 100
    await service.close()


async def test_the_public_view_follows_the_table(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service, {"counter": False})
    view = await service.views.public_view(live)
    assert (view.playing, view.number, view.phase, view.asking, view.to_act) == (
        False,
        None,
        None,
        None,
        (),
    )
    assert [s.user_id for s in view.info.seats] == [*HUMANS, None, None]
    assert [s.ai_plays for s in view.info.seats] == [False] * 4 + [True] * 2
    assert [s.team for s in view.info.seats] == [0, 1, 0, 1, 0, 1]
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    view = await service.views.public_view(live)
    assert (view.playing, view.number, view.deal, view.phase) == (True, 1, 1, "declare")
    assert view.asking == "declare" and view.to_act == tuple(live.running.to_act)
    assert view.deadline == live.deadline and view.deadline is not None
    assert view.card_counts() == (36,) * 6 and view.table.counter is None
    assert view.scoreboard is not None and view.scoreboard.total_games == 5
    await play_humans(service, live)
    view = await service.views.public_view(live)
    assert not view.playing and view.phase == "finished" and view.asking is None
    keys = [a.key for a in view.log]
    assert "ev_series_over" in keys and not any(k.startswith("ev_again") for k in keys)
    assert presenter.of("series_over") == [("series_over", live.id)]  # how to go on: theirs
    assert view.scoreboard is not None and len(view.scoreboard.games) == 5
    await service.close()


async def test_every_listener_hears_each_event_and_a_failing_one_stops_none(store, caplog) -> None:
    """Two front ends follow one table at once: each hears every event, in the order they
    listen; one that raises is logged and the others still hear; one that stops hears no
    more."""
    caplog.set_level(logging.ERROR, logger="gouji.bot")
    service, first = make_service(store)
    second = RecordingPresenter()

    class Broken(Listener):
        def table_changed(self, live) -> None:
            raise RuntimeError("a socket closed")

    broken = Broken()
    service.listen(broken)
    service.listen(second)
    service.listen(second)  # once only
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    assert first.events and first.events == second.events
    assert first.of("prompt") and first.of("table")
    assert any("a listener (Broken) failed on table_changed" in r.message for r in caplog.records)
    service.unlisten(second)
    heard = len(second.events)
    await service.act(live, HUMANS[0], "nodeclare")
    assert len(second.events) == heard and len(first.events) > heard
    await service.close()


def test_listeners_tell_in_order_and_forget_a_removed_one() -> None:
    told: list[str] = []

    class Named(Listener):
        def __init__(self, name: str) -> None:
            self.name = name

        def closed(self, live, key: str) -> None:
            told.append(f"{self.name} {key}")

    a, b = Named("a"), Named("b")
    listeners = Listeners(a, b)
    listeners.closed(None, "ended")  # type: ignore[arg-type]
    listeners.remove(a)
    listeners.closed(None, "ended_idle")  # type: ignore[arg-type]
    assert told == ["a ended", "b ended", "b ended_idle"]
    assert list(listeners) == [b]


async def test_finding_a_table_by_channel_and_listing_them(store) -> None:
    service, _ = make_service(store)
    assert service.tables.table_at(CHANNEL) is None and service.tables.open_tables() == []
    live = await seated_table(service)
    assert service.tables.table_at(CHANNEL) is live and service.tables.is_open(live)
    (info,) = service.tables.open_tables()
    assert (info.id, info.guild_id, info.channel_id, info.creator_id) == (
        live.id,
        GUILD,
        CHANNEL,
        HUMANS[0],
    )
    await service.set_table_message(live, 4242)
    assert service.tables.info(live).message_id == 4242
    assert (await store.get_table(live.id)).message_id == 4242
    await service.end(service.tables.table_in(CHANNEL), HUMANS[0], may_manage=True)
    assert service.tables.table_at(CHANNEL) is None and not service.tables.is_open(live)
    await service.close()


async def test_a_player_may_let_the_ai_play_for_them_until_they_come_back(store) -> None:
    """托管 on request: the AI of the chosen strength plays the seat (no question for it),
    until ``back``; an unknown AI or someone not seated is refused."""
    service, _ = make_service(store)
    live = await seated_table(service)
    with pytest.raises(UserError) as refused:
        await service.hand_over(service.tables.table_in(CHANNEL), HUMANS[1], "random")
    assert refused.value.key == "unknown_ai"
    with pytest.raises(UserError):
        await service.hand_over(service.tables.table_in(CHANNEL), 999)
    await service.hand_over(service.tables.table_in(CHANNEL), HUMANS[1], "hard")
    assert live.seats[1].standin and live.seats[1].ai_kind == "strong"
    seat = service.tables.info(live).seats[1]
    assert seat.ai_plays and seat.stood_in
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    assert 1 not in live.waiting and service.views.question_locked(live, 1) is None
    await service.back(service.tables.table_in(CHANNEL), HUMANS[1])
    assert not service.tables.info(live).seats[1].ai_plays
    await service.close()


def test_every_question_phase_of_the_engine_is_a_yes_or_no_question_kind() -> None:
    """A rule that adds a question phase (engine.state.QUESTIONS) is asked as that phase,
    answered by buttons of its two verbs; no other prompt is, and no prompt's name is a phase's
    (tokens and custom ids carry the name)."""
    assert all(yes_or_no(phase) for phase in QUESTION_PHASES)
    assert not any(yes_or_no(prompt) for prompt in Prompt)
    assert {str(prompt) for prompt in Prompt}.isdisjoint(str(phase) for phase in Phase)
