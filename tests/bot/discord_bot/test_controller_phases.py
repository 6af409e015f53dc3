"""The hand controller shows the cards left per seat in play, not while a question before
play is asked (engine.state.QUESTIONS: 宣点, 革命, 要头)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord_bot.components import controller
from bot.discord_bot.people import People
from bot.service.views import PrivateView
from bot.text.catalog import text
from engine.options import Phase
from engine.state import QUESTIONS

from ..service.helpers import CHANNEL, HUMANS, make_service, seated_table


@pytest.fixture
async def view(store: Any) -> PrivateView:
    service, _ = make_service(store)
    live = await seated_table(service)
    await service.start(service.tables.table_in(CHANNEL), HUMANS[0])
    return await service.views.private_view(live, 0)


def _shows_counts(view: PrivateView, phase: str) -> bool:
    people = People(SimpleNamespace(get_user=lambda user_id: None))  # type: ignore[arg-type]
    seen = replace(view, question=None, public=replace(view.public, phase=phase, playing=False))
    content, _ = controller(people, seen, "en", "DM")
    prefix = text("en", "ctl_left", counts="")
    return any(line.startswith(prefix) for line in content.splitlines())


def test_the_cards_left_show_in_play_and_after_it_not_before(view: PrivateView) -> None:
    before = {
        Phase.DECLARE: False,
        Phase.REVOLT: False,
        Phase.HEAD: False,
        Phase.PLAY: True,
        Phase.FINISHED: True,
        Phase.VOID: True,
    }
    assert {phase: _shows_counts(view, phase) for phase in before} == before


def test_no_question_phase_shows_the_cards_left(view: PrivateView) -> None:
    assert QUESTIONS
    assert not any(_shows_counts(view, phase) for phase in QUESTIONS)
    assert all(_shows_counts(view, phase) for phase in set(Phase) - set(QUESTIONS))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_revolutionarys_controller_says_they_sit_the_game_out(
    view: PrivateView, lang: str
) -> None:
    """革命: the game is played without them (四科); their controller says so, not "waiting
    for AI 4", until the game is over."""
    people = People(SimpleNamespace(get_user=lambda user_id: None))  # type: ignore[arg-type]
    table = view.public.table
    assert table is not None
    seats = [replace(s, revolted=i == 0) for i, s in enumerate(table.seats)]
    public = replace(view.public, phase=Phase.PLAY, playing=True, to_act=(4,))
    public = replace(public, table=replace(table, seats=tuple(seats)))
    content, _ = controller(people, replace(view, question=None, public=public), lang, "DM")
    assert text(lang, "revolted_out") in content.splitlines()
    over = replace(public, phase=Phase.FINISHED, playing=False)
    content, _ = controller(people, replace(view, question=None, public=over), lang, "DM")
    assert text(lang, "revolted_out") not in content
