"""Cards as players read them: ``3 … 10 J Q K A 2 小王 大王``, never the T/B/R notation.

One place for every text that shows cards: a hand grouped by rank (:func:`hand_text`) and a
play in words (:func:`play_words`, its menu label :func:`play_label`: "三张 7 + 两张 2（五张）",
"一对 K", "小王"), wherever a player reads a play — the log, a refusal, a confirmation.
Typed input is the short notation (:func:`engine.cards.parse_cards`) or words
(:func:`read_cards`: "五个8两个2").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from bot.text.langs import has, text
from engine.cards import (
    BIG_JOKER,
    NUM_RANKS,
    RANK_LETTERS,
    SMALL_JOKER,
    TWO,
    Card,
    CardError,
    counts_of,
    parse_cards,
)
from engine.hands import HandError, Play, classify

_JOKERS = {SMALL_JOKER: "rank.small_joker", BIG_JOKER: "rank.big_joker"}


def rank_name(rank: int, lang: str) -> str:
    """``10`` for T, 小王/大王 (small/big joker), else the rank's letter."""
    if rank >= SMALL_JOKER:
        return text(lang, _JOKERS[rank])
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
            parts.append(name if n == 1 else name + text(lang, "cards.times", n=n))
    return " ".join(parts)


def cards_count(n: int, lang: str) -> str:
    """``13 张`` / ``1 card``, ``13 cards``."""
    return text(lang, "cards.count_one" if n == 1 else "cards.count", n=n)


def _several(rank: int, n: int, lang: str, alone: bool = True) -> str:
    """一对 K, 三张 7, 小王, 两张大王 / a pair of Ks, three 7s, small joker, two big jokers
    (``alone``: the whole play, where two of a number rank are a pair)."""
    name = rank_name(rank, lang)
    pair = n == 2 and alone and rank < SMALL_JOKER
    if n == 1:
        return name
    if pair:
        return text(lang, "cards.pair", name=name)
    key = "cards.several" if rank < SMALL_JOKER else "cards.several_jokers"
    return text(lang, key, count=text(lang, "count", n=n), name=name)


def play_label(play: Play, lang: str) -> str:
    """A play as a menu label: "三张 7 + 两张 2（五张）", "一对 K", "小王"."""
    groups = play.rank_counts()
    parts = [_several(rank, n, lang, len(groups) == 1) for rank, n in groups]
    label = " + ".join(parts)
    if len(parts) > 1:
        label += text(lang, "cards.size", n=play.size)
    return label


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


_ZH_DIGITS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_EN_NUMBERS = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen".split()
    )
}
_WORD = re.compile(
    r"(?P<skip>[(（][^)）]*[)）]|[\s,，、+\uff0b&和与\u52a0带\u53ca]+|\band\b|\bwith\b|\bplus\b|\ba\b(?= pair| small| big))"
    r"|(?P<pair>一?对|(?:a )?pair of)|(?P<hanzi>[一二两三四五六七八九十]+)\s*[个张只]?"
    r"|(?P<digits>\d+)(?:\s*[个张只]|(?=\s+(?:10|[2-9tjqka])'?s\b))"
    r"|(?P<en>" + "|".join(_EN_NUMBERS) + r")\b"
    r"|(?P<small>小王|小\u82b1|small jokers?)|(?P<big>大王|大\u82b1|big jokers?)"
    r"|(?P<rank>10|[2-9tjqkabr])(?:'?s\b)?(?:\s*[x×*]\s*(?P<times>\d+))?",
    re.IGNORECASE,
)
#: Text that is written in words (a count, a joker's name): read by :func:`read_cards`.
_WORDY = re.compile(
    r"[一二两三四五六七八九十个张只对×*+\uff0b(（]|joker|pair|\d\s*x\s*\d"
    r"|\d\s+(?:10|[2-9tjqka])'?s\b|\b(?:" + "|".join(_EN_NUMBERS) + r")\b",
    re.IGNORECASE,
)


def _zh_number(word: str) -> int:
    """一 … 九, 十, 十二, 二十: a Chinese count."""
    if "十" not in word:
        return _ZH_DIGITS.get(word, 0) if len(word) == 1 else 0
    tens, _, ones = word.partition("十")
    return (_ZH_DIGITS.get(tens, 0) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)


def read_cards(typed: str) -> str:
    """Cards typed in words as card notation; notation (or text that is not understood)
    comes back as it was, for the service to read or refuse.

    >>> [read_cards(t) for t in ("五个8两个2", "five 8s two 2s", "8 ×5 + 2×2", "三张 K 小王")]
    ['8888822', '8888822', '8888822', 'KKKB']
    >>> read_cards("10 10 10 10 小王"), read_cards("a pair of Ks and a big joker")
    ('10 10 10 10 小王', 'KKR')
    """
    if not _WORDY.search(typed):
        return typed
    out: list[int] = []
    count: int | None = None
    at = 0
    text_ = typed.strip()
    while at < len(text_):
        found = _WORD.match(text_, at)
        if found is None or found.end() == at:
            return typed
        at = found.end()
        kind = found.lastgroup if found.group("rank") is None else "rank"
        if kind == "skip":
            continue
        if kind in ("hanzi", "pair", "digits", "en"):
            if count is not None:
                return typed  # two counts in a row: not understood
            word = found.group(kind)
            if kind == "hanzi":
                count = _zh_number(word)
            elif kind == "pair":
                count = 2
            elif kind == "digits":
                count = int(word)
            else:
                count = _EN_NUMBERS[word.lower()]
            if not 0 < count <= 16:
                return typed
            continue
        if kind == "small":
            rank = SMALL_JOKER
        elif kind == "big":
            rank = BIG_JOKER
        else:
            letter = found.group("rank").upper()
            rank = 7 if letter == "10" else RANK_LETTERS.index(letter)
        n = count if count is not None else 1
        if found.group("times"):
            n *= int(found.group("times"))
        if n > 16:
            return typed
        out += [rank] * n
        count = None
    if count is not None or not out:
        return typed
    return "".join(RANK_LETTERS[r] for r in sorted(out))


#: How a verb is said (:func:`action_text`'s ``how``): the catalogs' ``HOW.VERB`` keys.
VERB_STYLES = {
    "act": "an action in words: 出 777 + 22 → 五张 7, 过牌, 还 K Q",
    "done": "what the player just did: 你出了 KK。, 你过牌了。",
    "verb": "the verb as its button names it: 烧牌, 不宣",
    "play.hint": "gouji play's hint: 烧 KK, 不宣 (what to type)",
}
#: A verb without words of its own in a style that answers with a sentence.
_UNKNOWN = {"done": "done"}


def action_text(
    lang: str,
    verb: str,
    cards: str | None = None,
    how: str = "act",
) -> str:
    """The one verb → words: an action ``verb`` (with ``cards``) said as ``how`` says it
    (:data:`VERB_STYLES`), its play in words: 出 三张 7 + 两张 2（五张）, 过牌; a returned
    tribute is a grouped hand (还 K Q). A verb without words: the verb itself (its cards
    after it).

    >>> action_text("zh", "pass"), action_text("en", "burn", how="verb")
    ('过牌', 'burn')
    >>> action_text("en", "play", "KK", how="done")
    'You played a pair of Ks.'
    """
    shown = play_words(cards, lang) if cards else ""
    if verb == "return" and cards:
        shown = hand_text(cards, lang)
    key = f"{how}.{verb}"
    if has(key):
        return text(lang, key, cards=shown)
    if how in _UNKNOWN:
        return text(lang, _UNKNOWN[how])
    return f"{verb} {shown}".strip()


def action_words(lang: str, action: Any) -> str:
    """An engine action (``verb``, ``cards``) in words, its play as a menu label: 出 四张 8
    + 两张 2（六张）, 过牌, 不宣点 (the review lists them so)."""
    cards = str(action.cards) if action.cards is not None else None
    return action_text(lang, action.verb, cards)


def readable_params(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """Refusal parameters with their cards in words (``cards``, ``standing``: plays;
    ``hand``: a grouped hand); text that is not card notation is left as it is."""
    out = dict(params)
    for name, show in (("cards", play_words), ("standing", play_words), ("hand", hand_text)):
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
    "read_cards",
    "cards_count",
    "hand_text",
    "play_label",
    "play_words",
    "rank_name",
]
