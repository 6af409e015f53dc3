"""Tickets: the signed links one front end gives a person to another (bot/service/tickets.py)."""

from __future__ import annotations

import pytest

from bot.service.errors import UserError
from bot.service.tickets import LINK_LIFE, Tickets, WebLinks


def test_a_ticket_names_its_table_and_user_and_a_spectator_has_none() -> None:
    tickets = Tickets(b"k")
    held = tickets.check(tickets.issue(12, 345, expires=0))
    assert (held.table_id, held.user_id, held.expires) == (12, 345, 0)
    assert tickets.check(tickets.issue(12, None, expires=0)).user_id is None


@pytest.mark.parametrize("change", ["12.346", "13.345", "12.s"])
def test_a_ticket_pointed_at_another_seat_or_table_is_refused(change: str) -> None:
    tickets = Tickets(b"k")
    token = tickets.issue(12, 345, expires=0)
    forged = token.replace("12.345", change, 1)
    with pytest.raises(UserError) as refused:
        tickets.check(forged)
    assert refused.value.key == "bad_link"


@pytest.mark.parametrize("token", ["", "nonsense", "1.2.3", "1.2.3.4.5", "a.b.c.d"])
def test_a_malformed_ticket_is_refused(token: str) -> None:
    with pytest.raises(UserError) as refused:
        Tickets(b"k").check(token)
    assert refused.value.key == "bad_link"


def test_a_ticket_of_another_secret_is_refused() -> None:
    with pytest.raises(UserError) as refused:
        Tickets(b"other").check(Tickets(b"k").issue(1, 2, expires=0))
    assert refused.value.key == "bad_link"


def test_a_ticket_expires_after_its_life() -> None:
    tickets = Tickets(b"k")
    token = tickets.issue(1, 2, expires=1000)
    assert tickets.check(token, now=999).user_id == 2
    with pytest.raises(UserError) as refused:
        tickets.check(token, now=1001)
    assert refused.value.key == "link_expired"
    default = tickets.check(tickets.issue(1, 2), now=0)
    assert default.expires > LINK_LIFE


def test_a_personal_web_link_carries_the_ticket_in_its_fragment_and_the_language() -> None:
    tickets = Tickets(b"k")
    link = WebLinks("https://gouji.example/", tickets).personal(7, 42, "zh")
    address, ticket = link.split("#")
    assert address == "https://gouji.example/?lang=zh"
    held = tickets.check(ticket)
    assert (held.table_id, held.user_id) == (7, 42)
    assert "?" not in WebLinks("https://gouji.example", tickets).personal(7, 42, "xx")
