"""Every word the pictures show, one :class:`Labels` per language in :data:`LABELS` — a third
language is one more entry here (and its glyphs in the fonts, render/assets/make_font_subset.py).

>>> word("game", "en", n=2), place_name(1, "zh"), title_name("牌神", "en")
('Game 2', '头科', 'Card god')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import RenderInputError


@dataclass(frozen=True)
class Labels:
    """A language's words for the pictures: ``bold`` the labels (drawn in either face),
    ``plain`` the words drawn in the regular face only, ``places`` 1..6, and ``titles`` the
    rule book's titles (docs/rules.en.md §8.6) in this language (absent: as the rules name
    them)."""

    bold: dict[str, str]
    plain: dict[str, str]
    places: dict[int, str]
    titles: dict[str, str] = field(default_factory=dict)


LABELS: dict[str, Labels] = {
    "zh": Labels(
        bold={
            "hand": "手牌",
            "cards": "张",
            "no_cards": "没有牌了",
            "declared": "宣点",
            "opened": "开点",
            "headless": "无头",
            "revolted": "革命",
            "ai": "托管",
            "pass": "过",
            "yield": "让",
            "burn": "烧",
            "noburn": "不烧",
            "burning": "烧牌",
            "burned": "被烧",
            "melee": "四户乱缠",
            "counter": "记牌器",
            "big_joker": "大王",
            "small_joker": "小王",
            "twos": "2",
            "to_play": "轮到",
            "lead": "发牌",
            "standing": "当前牌",
            "seat": "座",
            "team_a": "红队",
            "team_b": "蓝队",
            "series": "进贡局",
            "game": "第{n}局",
            "total": "座总分",
            "player": "玩家",
            "tribute": "贡",
            "sweep": "串三户",
            "playing": "进行中",
            "score": "积分",
            "games": "局数",
            "opens": "开点",
            "burns": "烧牌",
            "places": "名次",
            "leaderboard": "排行榜",
            "rank": "名次",
            "title": "称号",
            "empty_board": "还没有人上榜",
            "penalty": "罚分",
            "played_by": "{who} · 出牌",
            "games_count": "{n} 局",
        },
        plain={
            "burn_won": "烧成",
            "stifled": "被闷",
            "owed": "下一局进贡",
            "rating": "技术分",
            "provisional": "定级中",
            "no_rating": "还没有技术分",
            "rating_board": "技术分排行",
            "opposite": "对家",
            "you": "你",
            "our_team": "本队",
            "their_team": "对手",
            "seconds_left": "{n}秒",
            "tribute_stifle": "闷贡",
            "tribute_burn": "烧贡",
            "tribute_point": "点贡",
            "tribute_place": "落贡",
            "owed_line": "下一局进贡：{owed}",
        },
        places={1: "头科", 2: "二科", 3: "三科", 4: "四科", 5: "二落", 6: "大落"},
    ),
    "en": Labels(
        bold={
            "hand": "Hand",
            "cards": "cards",
            "no_cards": "No cards",
            "declared": "Declared",
            "opened": "Opened",
            "headless": "Headless",
            "revolted": "Revolt",
            "ai": "Auto",
            "pass": "Pass",
            "yield": "Yield",
            "burn": "Burn",
            "noburn": "No burn",
            "burning": "Burning",
            "burned": "Burned",
            "melee": "Melee",
            "counter": "Card counter",
            "big_joker": "Big joker",
            "small_joker": "Small joker",
            "twos": "2s",
            "to_play": "To play",
            "lead": "Lead",
            "standing": "On the table",
            "seat": "Seat",
            "team_a": "Red team",
            "team_b": "Blue team",
            "series": "Tribute series",
            "game": "Game {n}",
            "total": "Seat pts",
            "player": "Player",
            "tribute": "trib.",
            "sweep": "Sweep",
            "playing": "playing",
            "score": "Score",
            "games": "Games",
            "opens": "Opens",
            "burns": "Burns",
            "places": "Places",
            "leaderboard": "Leaderboard",
            "rank": "#",
            "title": "Title",
            "empty_board": "Nobody on the board yet",
            "penalty": "Penalty",
            "played_by": "played by {who}",
            "games_count": "{n} Games",
        },
        plain={
            "burn_won": "Burn won",
            "stifled": "Stifled",
            "owed": "Tribute next game",
            "rating": "Rating",
            "provisional": "provisional",
            "no_rating": "No rating yet",
            "rating_board": "by rating",
            "opposite": "Opposite",
            "you": "You",
            "our_team": "Your team",
            "their_team": "Opponents",
            "seconds_left": "{n}s",
            "tribute_stifle": "stifle tribute",
            "tribute_burn": "burn tribute",
            "tribute_point": "point tribute",
            "tribute_place": "place tribute",
            "owed_line": "Tribute next game: {owed}",
        },
        places={1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th"},
        titles={
            "菜有特色": "Rookie with style",
            "菜不是错": "Green is no crime",
            "有点菜": "A bit green",
            "新人报到": "New arrival",
            "略有进步": "Making progress",
            "初试身手": "First steps",
            "暂露头角": "Showing promise",
            "半斤八两": "Evenly matched",
            "小有所成": "Some success",
            "偶露峥嵘": "Flashes of brilliance",
            "轻车熟路": "Old hand",
            "熟能生巧": "Practice makes perfect",
            "小有名气": "Known name",
            "屡战屡胜": "Winning streak",
            "牌中豪杰": "Card hero",
            "一流高手": "First-rate master",
            "名动天下": "World famous",
            "世外高人": "Hidden master",
            "天下第二": "Second under heaven",
            "牌神": "Card god",
        },
    ),
}
LANGS = tuple(LABELS)


def check_lang(lang: str) -> str:
    """Return ``lang`` if the pictures have its words, else raise :class:`RenderInputError`."""
    if lang not in LABELS:
        raise RenderInputError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    return lang


def word(key: str, lang: str, **fmt: object) -> str:
    """The label ``key`` in ``lang``, formatted with ``fmt``."""
    text = LABELS[check_lang(lang)].bold[key]
    return text.format(**fmt) if fmt else text


def plain_word(key: str, lang: str, **fmt: object) -> str:
    """A word drawn in the regular face (a seat's marks on the scoreboard): its own, or a
    label's; formatted with ``fmt``."""
    labels = LABELS[check_lang(lang)]
    text = labels.plain[key] if key in labels.plain else labels.bold[key]
    return text.format(**fmt) if fmt else text


def place_name(place: int, lang: str) -> str:
    """头科 .. 大落 (or 1st .. 6th) for places 1..6."""
    return LABELS[check_lang(lang)].places[place]


def title_name(title: str, lang: str) -> str:
    """A rule-book title in ``lang`` (as the rules name it where the language has no name of
    its own for it); any other text (a title given by hand) as it is."""
    return LABELS[check_lang(lang)].titles.get(title, title)


def all_plain_text() -> str:
    """Every word drawn only in the regular face, in every language (the font tests)."""
    return "".join(t for labels in LABELS.values() for t in labels.plain.values())


def all_label_text() -> str:
    """Every label, place name and title name in every language (the font tests)."""
    parts = [t for labels in LABELS.values() for t in labels.bold.values()]
    parts += [n for labels in LABELS.values() for n in labels.places.values()]
    parts += [n for labels in LABELS.values() for n in labels.titles.values()]
    return "".join(parts)
