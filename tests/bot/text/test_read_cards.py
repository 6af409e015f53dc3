"""Cards typed in words (the cards modal, /gouji play, burn and return): read as the
notation the service validates, in both languages; the bot's own labels read back."""

from __future__ import annotations

import pytest

from bot.text.cards import play_label, read_cards
from engine.cards import counts_of, deal
from engine.hands import Play
from engine.movegen import lead_plays


@pytest.mark.parametrize(
    ("typed", "cards"),
    [
        ("五个8两个2", "8888822"),
        ("五张 8 + 两张 2", "8888822"),
        ("five 8s two 2s", "8888822"),
        ("five 8s and two 2s", "8888822"),
        ("8 ×5 + 2×2", "8888822"),
        ("四个A一个大王", "AAAAR"),
        ("三张K小王", "KKKB"),
        ("一对 K", "KK"),
        ("a pair of Ks and a big joker", "KKR"),
        ("两张小王两张大王", "BBRR"),
        ("十二个9", "999999999999"),
        ("12 9s", "999999999999"),
    ],
)
def test_cards_in_words_are_read_as_notation(typed: str, cards: str) -> None:
    assert read_cards(typed) == cards


@pytest.mark.parametrize("typed", ["8888822", "10 10 10 10 小王", "KKB", "22777", "4h 4s"])
def test_notation_is_left_as_it_is(typed: str) -> None:
    assert read_cards(typed) == typed


@pytest.mark.parametrize("typed", ["五个", "five", "两个三个8", "seventeen 8s", "五个8 x"])
def test_words_not_understood_come_back_for_the_service_to_refuse(typed: str) -> None:
    assert read_cards(typed) == typed


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_menu_label_reads_back_as_its_play(lang: str) -> None:
    for seed in range(3):
        for hand in deal(seed)[:2]:
            for play in lead_plays(counts_of(hand))[::7]:
                label = play_label(play, lang)
                assert Play.parse(read_cards(label)) == play, (label, read_cards(label))
