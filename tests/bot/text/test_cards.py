"""Cards in words: 10, 小王, 大王, grouped hands, menu labels, wildcard plays."""

from __future__ import annotations

from bot.text.cards import action_text, cards_count, hand_text, play_label, play_words
from engine.hands import Play


def test_hands_are_grouped_by_rank_with_10_and_the_jokers_named() -> None:
    cards = "3333 4 55555 TT J Q K 222 B RR"
    assert hand_text(cards, "zh") == "3×4 4 5×5 10×2 J Q K 2×3 小王 大王×2"
    assert hand_text(cards, "en").endswith("2×3 small joker big joker×2")


def test_menu_labels_read_as_players_say_them() -> None:
    assert play_label(Play.parse("77722"), "zh") == "三张 7 + 两张 2（五张）"
    assert play_label(Play.parse("KK"), "zh") == "一对 K"
    assert play_label(Play.parse("B"), "zh") == "小王"
    assert play_label(Play.parse("TTTTT"), "zh") == "五张 10"
    assert play_label(Play.parse("77722"), "en") == "three 7s + two 2s (5 cards)"
    assert play_label(Play.parse("KK"), "en") == "a pair of Ks"
    assert play_label(Play.parse("R"), "en") == "big joker"


def test_a_play_reads_in_words_wherever_a_player_reads_it() -> None:
    """One wording of a play (the menu's), never the notation a player types."""
    assert play_words("22777", "zh") == "三张 7 + 两张 2（五张）"
    assert play_words("22777", "en") == "three 7s + two 2s (5 cards)"
    assert play_words("KK", "zh") == "一对 K"
    assert play_words("TTTTT", "zh") == "五张 10"
    assert play_words("BR", "zh") == "小王 + 大王（两张）"
    assert "T" not in play_words("TT2", "en") and "B" not in play_words("B", "zh")


def test_actions_and_counts_in_words() -> None:
    assert action_text("zh", "play", "22777") == "出 三张 7 + 两张 2（五张）"
    assert action_text("zh", "pass") == "过牌"
    assert action_text("en", "return", "KQ") == "return Q K"
    assert cards_count(1, "en") == "1 card" and cards_count(2, "en") == "2 cards"
    assert cards_count(13, "zh") == "13 张"
