"""Cards as players read them: ``3 … 10 J Q K A 2 小王 大王``, never the T/B/R notation.

One place for every text that shows cards: a hand grouped by rank (:func:`hand_text`), a
play's menu label (:func:`play_label`: "三张 7 + 两张 2（五张）", "一对 K", "小王") and a play
in a sentence (:func:`play_text`: "777 + 22 → 五张 7"). Typed input keeps the short notation
(:func:`engine.cards.parse_cards`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.text.catalog import text
from engine.cards import (
    BIG_JOKER,
    NUM_RANKS,
    SMALL_JOKER,
    TWO,
    Card,
    CardError,
    counts_of,
    parse_cards,
)
from engine.hands import HandError, Play, classify

_ZH_COUNTS = ("", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十")
_EN_COUNTS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_JOKERS = {
    "zh": {SMALL_JOKER: "小王", BIG_JOKER: "大王"},
    "en": {SMALL_JOKER: "small joker", BIG_JOKER: "big joker"},
}


def rank_name(rank: int, lang: str) -> str:
    """``10`` for T, 小王/大王 (small/big joker), else the rank's letter."""
    if rank >= SMALL_JOKER:
        return _JOKERS["zh" if lang == "zh" else "en"][rank]
    return "3456789TJQKA2"[rank].replace("T", "10")


def _counts(cards: Iterable[Card] | Play | str) -> list[int]:
    if isinstance(cards, Play):
        return cards.counts()
    return counts_of(parse_cards(cards) if isinstance(cards, str) else cards)


def hand_text(cards: Iterable[Card] | Play | str, lang: str) -> str:
    """A hand grouped by rank, low to high: ``3×4 4 5×5 … 2×3 小王 大王×2``."""
    counts = _counts(cards)
    parts = []
    for rank in range(NUM_RANKS):
        n = counts[rank]
        if n:
            name = rank_name(rank, lang)
            parts.append(name if n == 1 else f"{name}×{n}")
    return " ".join(parts)


def cards_count(n: int, lang: str) -> str:
    """``13 张`` / ``1 card``, ``13 cards``."""
    if lang == "zh":
        return f"{n} 张"
    return f"{n} card" if n == 1 else f"{n} cards"


def _group(rank: int, n: int, lang: str) -> str:
    """``777``, ``22``, ``10×5``, ``小王``: one rank's cards written out."""
    name = rank_name(rank, lang)
    if len(name) == 1 and n <= 4:
        return name * n
    return name if n == 1 else f"{name}×{n}"


def _count_word(n: int, lang: str) -> str:
    words = _ZH_COUNTS if lang == "zh" else _EN_COUNTS
    return words[n] if n < len(words) else str(n)


def _several(rank: int, n: int, lang: str, alone: bool = True) -> str:
    """一对 K, 三张 7, 小王, 两张大王 / a pair of Ks, three 7s, small joker, two big jokers
    (``alone``: the whole play, where two of a number rank are a pair)."""
    name = rank_name(rank, lang)
    pair = n == 2 and alone and rank < SMALL_JOKER
    if n == 1:
        return name
    if lang == "zh":
        space = " " if rank < SMALL_JOKER else ""
        return f"一对 {name}" if pair else f"{_count_word(n, lang)}张{space}{name}"
    return f"a pair of {name}s" if pair else f"{_count_word(n, lang)} {name}s"


def play_label(play: Play, lang: str) -> str:
    """A play as a menu label: "三张 7 + 两张 2（五张）", "一对 K", "小王"."""
    groups = play.rank_counts()
    parts = [_several(rank, n, lang, len(groups) == 1) for rank, n in groups]
    label = " + ".join(parts)
    if len(parts) > 1:
        size = play.size
        label += f"（{_count_word(size, lang)}张）" if lang == "zh" else f" ({size} cards)"
    return label


def play_text(cards: Play | Iterable[Card] | str, lang: str) -> str:
    """A play in a sentence: ``KK``, ``10×5``, with wildcards what it counts as:
    ``777 + 22 → 五张 7``; cards that make no hand are shown grouped."""
    try:
        play = classify(cards if not isinstance(cards, str) else parse_cards(cards))
    except HandError:
        return hand_text(cards, lang)
    groups = [_group(rank, n, lang) for rank, n in play.rank_counts()]
    written = " + ".join(groups)
    if not play.twos or play.rank < 0:
        return written
    counted = [_several(play.number_rank, play.number_count, lang)]
    counted += [_several(r, n, lang) for r, n in play.rank_counts() if r >= SMALL_JOKER]
    return f"{written} → {' + '.join(counted)}"


def play_words(cards: Play | Iterable[Card] | str, lang: str) -> str:
    """A play in words, as its menu label (:func:`play_label`: "四张 8 + 两张 2（六张）",
    "four 8s + two 2s (6 cards)"); cards that make no hand are shown grouped."""
    try:
        play = (
            cards
            if isinstance(cards, Play)
            else classify(parse_cards(cards) if isinstance(cards, str) else cards)
        )
    except (HandError, CardError):
        return hand_text(cards, lang)
    return play_label(play, lang)


ACTION_KEYS = {
    "pass": "hint_pass",
    "play": "hint_play",
    "yield": "hint_yield",
    "burn": "hint_burn",
    "noburn": "hint_noburn",
}


def action_text(
    lang: str, verb: str, cards: str | None = None, show: Callable[[str, str], str] = play_text
) -> str:
    """An action in words: 出 777 + 22 → 五张 7, 过牌, 还 K Q (the verb itself if unknown);
    ``show=play_words``: 出 三张 7 + 两张 2（五张）."""
    shown = show(cards, lang) if cards else ""
    if verb == "return" and cards:
        shown = hand_text(cards, lang)
    key = ACTION_KEYS.get(verb, f"act_{verb}")
    try:
        return text(lang, key, cards=shown)
    except KeyError:
        return f"{verb} {shown}".strip()


def action_words(lang: str, action: Any) -> str:
    """An engine action (``verb``, ``cards``) in words, its play as a menu label: 出 四张 8
    + 两张 2（六张）, 过牌, 不宣点 (the review lists them so)."""
    cards = str(action.cards) if action.cards is not None else None
    return action_text(lang, action.verb, cards, show=play_words)


def readable_params(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """Refusal parameters with their cards in words (``cards``, ``standing``: plays;
    ``hand``: a grouped hand); text that is not card notation is left as it is."""
    out = dict(params)
    for name, show in (("cards", play_text), ("standing", play_text), ("hand", hand_text)):
        value = out.get(name)
        if isinstance(value, str) and value:
            try:
                out[name] = show(value, lang)
            except CardError:
                pass
    return out


__all__ = [
    "TWO",
    "action_text",
    "action_words",
    "cards_count",
    "hand_text",
    "play_label",
    "play_text",
    "play_words",
    "rank_name",
]
