"""The result card's words: each tribute owed named by its kind (点贡 and 落贡 between the
same seats told apart), and titles in the reader's language."""

from __future__ import annotations

from bot.text.params import OwedLine, RatingLine, SeatNumbers, TitleLine, Who, param_text
from engine.scoring import LOWEST_TITLE, TITLES


def test_two_payments_between_the_same_seats_say_which_is_point_and_which_place_tribute():
    point, place = OwedLine(Who(5), Who(0), 1, "point"), OwedLine(Who(5), Who(0), 2, "place")
    zh = [param_text(line, "zh", SeatNumbers()) for line in (point, place)]
    assert zh == ["点贡 5 (5) → 0 (0) ×1", "落贡 5 (5) → 0 (0) ×2"]
    en = [param_text(line, "en", SeatNumbers()) for line in (point, place)]
    assert en[0].startswith("point tribute (点贡)") and en[1].startswith("place tribute (落贡)")


def test_every_title_has_an_english_name_for_english_readers():
    for title in (LOWEST_TITLE, *(t for _, t in TITLES)):
        line = TitleLine(Who(2), title)
        assert param_text(line, "zh", SeatNumbers()).endswith(title)
        english = param_text(line, "en", SeatNumbers())
        assert title not in english and english.isascii(), english


def test_the_ratings_line_names_each_player_with_their_own_change():
    """Each player's change and rating follow their name; only players are separated
    (the line once read "0 (0)、+8.3 → 8.3、1 (1)、−1.7 → −1.7")."""
    lines = [RatingLine(Who(0), "+8.3 → 8.3"), RatingLine(Who(1), "−1.7 → −1.7")]
    assert param_text(lines, "zh", SeatNumbers()) == "0 (0) +8.3 → 8.3、1 (1) −1.7 → −1.7"
    assert param_text(lines, "en", SeatNumbers()) == "0 (0) +8.3 → 8.3, 1 (1) −1.7 → −1.7"
