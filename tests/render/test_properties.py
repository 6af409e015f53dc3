"""Property tests: any hand from the shoe and any text as a name draw without error."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import new_shoe
from render.fonts import MAX_TEXT, clean_text, coverage, display_name, font
from render.hand import render_hand
from render.models import SeatView, TableView
from render.table import HEIGHT, WIDTH, render_table

SHOE = new_shoe()
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.lists(st.integers(0, len(SHOE) - 1), max_size=40, unique=True), st.data())
def test_any_hand_with_any_highlight_draws(indexes: list[int], data) -> None:
    hand = [SHOE[i] for i in indexes]
    lit = data.draw(st.lists(st.sampled_from(hand), unique=True) if hand else st.just([]))
    image = render_hand(hand, highlight=lit)
    assert image.mode == "RGB" and image.width <= 1600


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_becomes_drawable(text: str) -> None:
    cleaned = clean_text(text)
    assert len(cleaned) <= MAX_TEXT
    assert all(ord(ch) in coverage() for ch in cleaned.replace(" ", ""))
    assert font(28).getlength(display_name(text, font(28), 150)) <= 150


@FAST
@given(st.lists(st.text(max_size=120), min_size=6, max_size=6))
def test_any_names_keep_the_table_size(names: list[str]) -> None:
    view = TableView(seats=tuple(SeatView(name, cards_left=5) for name in names), to_act=(0,))
    assert render_table(view).size == (WIDTH, HEIGHT)
