"""Acting at a table: refusals change nothing, the log holds every accepted action,
automatic passes, hints and the autocomplete list, leaving, and the turn clock."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service.errors import UserError
from engine.actions import IllegalActionError

from .helpers import (
    CHANNEL,
    GUILD,
    HUMANS,
    clocked_table,
    make_service,
    play_humans,
    run_clock,
    seated_table,
    user_at,
)


async def _to_play_phase(service, live) -> None:
    """Everyone declines to declare (and to revolt) until play begins."""
    while live.running_game.phase != "play":
        await service.settle(live)
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        verb = "nodeclare" if live.running_game.phase == "declare" else "norevolt"
        await service.act(live, user_at(live, seat), verb)
    await service.settle(live)


async def _human_turn(service, live) -> int:
    """Play hints until a human seat has a play turn; return that seat."""
    while True:
        await service.settle(live)
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        if live.running_game.window is None and any(
            a.verb == "play" for a in live.running_game.legal_actions(seat)
        ):
            return seat
        await service.act_hint(live, user_at(live, seat))


async def _log(store, live) -> list[str]:
    return await store.get_actions(live.game_id)


@pytest.fixture
async def playing(store):
    service, presenter = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await _to_play_phase(service, live)
    yield service, presenter, live
    await service.close()


async def test_bad_input_is_refused_with_a_reason_and_changes_nothing(store, playing) -> None:
    service, _, live = playing
    seat = await _human_turn(service, live)
    user = user_at(live, seat)
    other = next(u for u in HUMANS if u != user)
    before = await _log(store, live)
    hand = service.views.hand_cards(live, seat)
    cases = [
        (user, "play", "XYZ", "bad_cards"),
        (user, "play", "", "bad_cards"),
        (user, "play", "RRRRR", "not_held"),
        (other, "play", "3", "not_your_turn"),
        (999, "play", "3", "not_seated"),
    ]
    for who, verb, cards, key in cases:
        with pytest.raises(UserError) as err:
            await service.act(live, who, verb, cards)
        assert err.value.key == key, (cards, err.value)
    if live.running_game.standing is not None:  # a hand that does not beat the standing hand
        with pytest.raises(IllegalActionError):
            low = min(hand.split(), key=lambda c: "3456789TJQKA2BR".index(c[0]))
            await service.act(live, user, "play", low)
    assert await _log(store, live) == before
    assert service.views.hand_cards(live, seat) == hand


async def test_an_accepted_action_is_in_the_log_when_act_returns(store, playing) -> None:
    service, _, live = playing
    seat = await _human_turn(service, live)
    before = len(await _log(store, live))
    action = await service.act_hint(live, user_at(live, seat))
    log = await _log(store, live)
    assert log[before] == str(action)


async def test_autocomplete_offers_the_ranked_legal_plays_filtered_by_what_is_typed(
    playing,
) -> None:
    service, _, live = playing
    seat = await _human_turn(service, live)
    user = user_at(live, seat)
    legal = {str(a.cards) for a in live.running_game.legal_actions(seat) if a.verb == "play"}
    offered = [p.canonical for p in service.choices(live, user)]
    assert offered and len(offered) <= 25 and set(offered) <= legal
    letter = offered[-1][0]
    assert all(letter in p.canonical for p in service.choices(live, user, letter))
    assert service.choices(live, user, "not cards") == []
    other = next(u for u in HUMANS if u != user)
    assert service.choices(live, other) == []


async def test_a_seat_that_cannot_beat_passes_at_once_and_the_pass_is_logged(
    store, playing
) -> None:
    service, _, live = playing
    for _ in range(200):
        await _human_turn(service, live)
        log = await _log(store, live)
        if any(a.endswith(" pass") and int(a.split()[0]) < 4 for a in log):
            break
        seat = next(s for s in live.running.to_act if not live.is_ai(s))
        await service.act_hint(live, user_at(live, seat))
    passes = [a for a in await _log(store, live) if a.endswith(" pass") and int(a.split()[0]) < 4]
    assert passes, "some human seat passed (automatically or by its hint)"
    # no human seat is ever left waiting with nothing to do but pass
    for s in live.running.to_act:
        legal = live.running_game.legal_actions(s)
        assert not (not live.is_ai(s) and len(legal) == 1 and legal[0].verb == "pass")


async def test_leaving_a_game_costs_ten_and_the_ai_plays_on(store) -> None:
    service, presenter = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await _to_play_phase(service, live)
    _, seat, in_game = await service.leave(service.tables.table_in(CHANNEL), HUMANS[2])
    assert in_game and seat == 2 and live.is_ai(2)
    assert "2 leave" in await _log(store, live)
    while live.running.number_of_next_game == 1:
        await service.settle(live)
        waiting = [s for s in live.running.to_act if not live.is_ai(s)]
        if waiting:
            await service.act_hint(live, user_at(live, waiting[0]))
    profile = await store.get_profile(GUILD, HUMANS[2])
    assert profile.leaves == 1 and profile.games == 1
    points = live.running.deals[0].score()
    assert profile.score == sum(points[s] for s in (0, 2, 4)) - 10
    assert live.seats[2].user_id is None and live.seats[2].ai_kind == "hint"
    await service.close()


async def test_timeouts_let_the_ai_play_and_two_in_a_row_keep_it_until_back(store) -> None:
    service, presenter, live, clock = await clocked_table(store, turn_time=5, warn_before=0)
    await _to_play_phase(service, live)
    seat = await _human_turn(service, live)
    table_row = await store.get_table(live.id)
    assert table_row.turn_deadline is not None  # stored, so a restart can restore it
    user = user_at(live, seat)
    before = len(await _log(store, live))
    for _ in range(100):
        await run_clock(clock, service, live, 5)
        if live.seats[seat].standin:
            break
    assert live.seats[seat].standin, "two timeouts in a row: the AI keeps the seat"
    assert len(await _log(store, live)) > before
    assert "timeout_standin" in presenter.announced()
    await service.back(service.tables.table_in(CHANNEL), user)
    assert not live.seats[seat].standin and live.seats[seat].timeouts == 0
    with pytest.raises(UserError) as err:
        await service.back(service.tables.table_in(CHANNEL), user)
    assert err.value.key == "not_standin"
    await service.close()


async def test_dm_refusal_is_remembered_once(store, playing) -> None:
    service, _, live = playing
    assert await service.set_dm_refused(live, 1) is True
    assert await service.set_dm_refused(live, 1) is False
    assert (await store.get_seats(live.id))[1].dm_refused


async def test_an_unanswered_question_takes_its_default_and_is_no_timeout(store) -> None:
    service, presenter, live, clock = await clocked_table(store, turn_time=5, warn_before=0)
    await service.settle(live)
    assert live.running_game.phase == "declare"
    await run_clock(clock, service, live, 5)
    assert live.running_game.phase != "declare"
    log = await _log(store, live)
    assert {f"{s} nodeclare" for s in range(4)} <= set(log)
    assert all(s.timeouts == 0 and not s.standin for s in await store.get_seats(live.id))
    await service.close()


async def test_a_button_of_an_answered_question_is_refused(store, playing) -> None:
    service, _, live = playing
    seat = await _human_turn(service, live)
    user = user_at(live, seat)
    token = service.views.question_token(live)
    await service.act_hint(live, user, token=token)
    while True:  # the same seat's next turn: the old button must not act on it
        await service.settle(live)
        now = next(s for s in live.running.to_act if not live.is_ai(s))
        if now == seat and live.running_game.window is None:
            break
        await service.act_hint(live, user_at(live, now))
    assert service.views.question_token(live) != token
    before = await _log(store, live)
    with pytest.raises(UserError) as err:
        await service.act(live, user, "pass", token=token)
    assert err.value.key == "stale_prompt"
    assert await _log(store, live) == before
    await service.act_hint(live, user, token=service.views.question_token(live))
    assert len(await _log(store, live)) > len(before)


async def test_two_clicks_at_once_apply_once(store, playing) -> None:
    service, _, live = playing
    seat = await _human_turn(service, live)
    user = user_at(live, seat)
    before = len(await _log(store, live))
    token = service.views.question_token(live)
    results = await asyncio.gather(
        service.act_hint(live, user, token=token),
        service.act_hint(live, user, token=token),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert any(isinstance(r, UserError) for r in results)
    log = await _log(store, live)
    assert log[before] == str(next(r for r in results if not isinstance(r, Exception)))


async def test_an_action_the_store_could_not_log_is_undone(store, playing, monkeypatch) -> None:
    """The press is refused ("the table is waiting for its database"), and once the store
    answers again the table is what its log says: the action is not there, the seat is
    asked again."""
    service, presenter, live = playing
    seat = await _human_turn(service, live)
    user = user_at(live, seat)
    hand = service.views.hand_cards(live, seat)
    before = await _log(store, live)

    async def disk_full(game_id, action, expected_index=None):
        raise OSError("disk full")

    monkeypatch.setattr(store, "append_action", disk_full)
    with pytest.raises(UserError) as err:
        await service.act_hint(live, user)
    assert err.value.key == "db_waiting" and live.stalled_since is not None
    monkeypatch.undo()
    await asyncio.wait({live.tasks["recovery"]})
    assert live.stalled_since is None
    assert await _log(store, live) == before
    assert service.views.hand_cards(live, seat) == hand and seat in live.running.to_act
    assert presenter.of("prompt")[-1][2] == seat, "asked again"


async def test_a_player_who_left_can_no_longer_play_hint_or_see_the_hand(store) -> None:
    """中途强退: the leaver keeps the −10 and loses the seat: no play, no hint, no hand (the
    /gouji hand controller), no autocomplete — even while the AI has not yet played it."""
    service, presenter = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await _to_play_phase(service, live)
    seat = await _human_turn(service, live)
    user = user_at(live, seat)
    kicks = service.flow.kick
    service.flow.kick = lambda live: None  # type: ignore[method-assign]  # the AI sits only when told
    await service.leave(service.tables.table_in(CHANNEL), user)
    assert seat in live.running.to_act, "the seat is still to play (by the AI, soon)"
    before = await _log(store, live)
    for attempt in (
        lambda: service.act(live, user, "pass"),
        lambda: service.act_hint(live, user),
        lambda: service.act(live, user, "play", service.views.hand_cards(live, seat).split()[0]),
    ):
        with pytest.raises(UserError) as err:
            await attempt()
        assert err.value.key == "left_table"
    with pytest.raises(UserError) as err:
        service.hint(live, user)
    assert err.value.key == "left_table"
    with pytest.raises(UserError) as err:  # /gouji hand and the DM controller go through it
        service.tables.seat_for(live, user)
    assert err.value.key == "left_table"
    assert service.choices(live, user) == []
    assert await _log(store, live) == before, "nothing the leaver tried was logged"
    service.flow.kick = kicks  # type: ignore[method-assign]
    service.flow.kick(live)
    await service.settle(live)
    assert seat not in live.running.to_act or live.running_game.window is not None
    await service.close()


async def test_forged_option_values_are_refused_by_the_service(store) -> None:
    """What Discord checks (the declared ranges and choices) is checked again here: a forged
    interaction skips Discord's checks. Refused with a reason, nothing stored."""
    service, _ = make_service(store)
    for forged in (
        {"turn_time": 1},
        {"turn_time": 601},
        {"burn_time": 2},
        {"turn_time": "60"},
        {"turn_time": True},
        {"series": "yes"},
        {"tribute_cards": "x" * 6000},
        {"colour": "red"},
    ):
        with pytest.raises(UserError) as err:
            await service.open_table(GUILD, CHANNEL, HUMANS[0], forged)
        assert err.value.key == "bad_option", forged
        assert len(str(err.value.params["what"])) <= 60, "the refusal quotes it cut"
    assert await store.tables_in_channel(GUILD, CHANNEL) == []
    live = await service.open_table(GUILD, CHANNEL, HUMANS[0], {"turn_time": 5, "burn_time": 3})
    not_seats: tuple[Any, ...] = (6, -1, 7, "0", True)  # bad input on purpose
    for seat in not_seats:
        for attempt in (
            service.join(service.tables.table_in(CHANNEL), HUMANS[1], seat),
            service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0], seat),
            service.remove_ai(service.tables.table_in(CHANNEL), HUMANS[0], seat),
        ):
            with pytest.raises(UserError) as err:
                await attempt
            assert err.value.key == "bad_seat", seat
    with pytest.raises(UserError) as err:
        await service.add_ai(service.tables.table_in(CHANNEL), HUMANS[0], None, "k" * 6000)
    assert err.value.key == "unknown_ai" and len(err.value.params["name"]) <= 60
    assert [s.user_id for s in await store.get_seats(live.id)] == [HUMANS[0]] + [None] * 5
    await service.close()


async def test_a_long_echo_is_cut(store, playing) -> None:
    """6,000 characters of cards: refused, quoted back cut (a reply must fit Discord)."""
    service, _, live = playing
    seat = await _human_turn(service, live)
    user = user_at(live, seat)
    for cards in ("3" * 6000, "x" * 6000, "3" * 150):
        with pytest.raises(UserError) as err:
            await service.act(live, user, "play", cards)
        assert err.value.key in ("bad_cards", "not_held")
        assert all(len(str(v)) <= 60 for v in err.value.params.values())


async def test_a_control_of_an_earlier_series_does_not_act_in_the_next(store) -> None:
    """Question tokens are unique for the table's life: the first question of a new series
    is not the first question of the last one (an old DM's button is refused)."""
    service, _ = make_service(store)
    live = await seated_table(service, {"series": False})
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    await service.settle(live)
    first = service.views.question_token(live)
    asked = next(s for s in live.running.to_act if not live.is_ai(s))
    await play_humans(service, live)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[1], again=True)
    await service.settle(live)
    assert live.running.to_act and asked in live.running.to_act
    assert service.views.question_token(live) != first
    before = await _log(store, live)
    with pytest.raises(UserError) as err:
        await service.act(live, user_at(live, asked), "nodeclare", token=first)
    assert err.value.key == "stale_prompt"
    assert await _log(store, live) == before
    await service.close()
