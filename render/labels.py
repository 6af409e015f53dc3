"""Every word the pictures show, in Chinese and English (``lang`` is 'zh' or 'en')."""

from __future__ import annotations

from .errors import RenderInputError

LANGS = ("zh", "en")

PLACE_NAMES = {
    "zh": {1: "头科", 2: "二科", 3: "三科", 4: "四科", 5: "二落", 6: "大落"},
    "en": {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th"},
}

_WORDS: dict[str, tuple[str, str]] = {
    # key: (zh, en)
    "hand": ("手牌", "Hand"),
    "cards": ("张", "cards"),
    "no_cards": ("没有牌了", "No cards"),
    "declared": ("宣点", "Declared"),
    "opened": ("开点", "Opened"),
    "headless": ("无头", "Headless"),
    "revolted": ("革命", "Revolt"),
    "ai": ("托管", "Auto"),
    "pass": ("过", "Pass"),
    "yield": ("让", "Yield"),
    "burn": ("烧", "Burn"),
    "noburn": ("不烧", "No burn"),
    "burning": ("烧牌", "Burning"),
    "burned": ("被烧", "Burned"),
    "melee": ("四户乱缠", "Melee"),
    "counter": ("记牌器", "Card counter"),
    "big_joker": ("大王", "Big joker"),
    "small_joker": ("小王", "Small joker"),
    "twos": ("2", "2s"),
    "to_play": ("轮到", "To play"),
    "lead": ("发牌", "Lead"),
    "standing": ("当前牌", "On the table"),
    "by": ("出牌", "played by"),
    "seat": ("座", "Seat"),
    "team_a": ("红队", "Red team"),
    "team_b": ("蓝队", "Blue team"),
    "series": ("进贡局", "Tribute series"),
    "game": ("第{n}局", "Game {n}"),
    "total": ("总分", "Total"),
    "player": ("玩家", "Player"),
    "tribute": ("贡", "trib."),
    "sweep": ("串三户", "Sweep"),
    "playing": ("进行中", "playing"),
    "score": ("积分", "Score"),
    "games": ("局数", "Games"),
    "opens": ("开点", "Opens"),
    "burns": ("烧牌", "Burns"),
    "places": ("名次", "Places"),
    "leaderboard": ("排行榜", "Leaderboard"),
    "rank": ("名次", "#"),
    "title": ("称号", "Title"),
    "empty_board": ("还没有人上榜", "Nobody on the board yet"),
    "penalty": ("罚分", "Penalty"),
}


# words drawn in the regular face only (the bold one has just the labels above)
_PLAIN_WORDS: dict[str, tuple[str, str]] = {
    "burn_won": ("烧成", "Burn won"),
    "stifled": ("被闷", "Stifled"),
    "owed": ("下一局进贡", "Tribute next game"),
    "rating": ("技术分", "Rating"),
    "provisional": ("定级中", "provisional"),
    "no_rating": ("还没有技术分", "No rating yet"),
    "rating_board": ("技术分排行", "by rating"),
    "opposite": ("对家", "Opposite"),
    "you": ("你", "You"),
    "our_team": ("本队", "Your team"),
    "their_team": ("对手", "Opponents"),
    "seconds_left": ("{n}秒", "{n}s"),
    "tribute_stifle": ("闷贡", "stifle tribute"),
    "tribute_burn": ("烧贡", "burn tribute"),
    "tribute_point": ("点贡", "point tribute"),
    "tribute_place": ("落贡", "place tribute"),
}


def check_lang(lang: str) -> str:
    """Return ``lang`` if it is 'zh' or 'en', else raise :class:`RenderInputError`."""
    if lang not in LANGS:
        raise RenderInputError(f"unknown language {lang!r}: use 'zh' or 'en'")
    return lang


def word(key: str, lang: str, **fmt: object) -> str:
    """The label ``key`` in ``lang``, formatted with ``fmt``."""
    text = _WORDS[key][LANGS.index(check_lang(lang))]
    return text.format(**fmt) if fmt else text


def plain_word(key: str, lang: str) -> str:
    """A word drawn in the regular face (a seat's marks on the scoreboard): its own, or a
    label's."""
    pair = _PLAIN_WORDS[key] if key in _PLAIN_WORDS else _WORDS[key]
    return pair[LANGS.index(check_lang(lang))]


def all_plain_text() -> str:
    """Every word drawn only in the regular face, in both languages (the font tests)."""
    return "".join(t for pair in _PLAIN_WORDS.values() for t in pair)


def place_name(place: int, lang: str) -> str:
    """头科 .. 大落 (or 1st .. 6th) for places 1..6."""
    return PLACE_NAMES[check_lang(lang)][place]


def all_label_text() -> str:
    """Every label in both languages (used by the font tests)."""
    parts = [t for pair in _WORDS.values() for t in pair]
    parts += [n for names in PLACE_NAMES.values() for n in names.values()]
    return "".join(parts)
