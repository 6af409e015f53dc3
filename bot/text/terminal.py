"""Words the terminal commands (``gouji demo``, ``play``, ``top``) print, in Chinese and
English, and the account of a finished game of a series that ``demo`` and ``play --series``
share. Pure text: no I/O."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence

from bot.text.cards import hand_text
from bot.text.catalog import place_name
from engine.scoring import counts_as_open, team_totals, title_for
from engine.series import Series, SeriesGame

LANGS = ("zh", "en")

KIND_NAMES = {
    "zh": {"stifle": "闷贡", "burn": "烧贡", "point": "点贡", "place": "落贡"},
    "en": {
        "stifle": "stifle (闷贡)",
        "burn": "burn (烧贡)",
        "point": "point (点贡)",
        "place": "place (落贡)",
    },
}
BURN_RESULTS = {
    "zh": {"success": "烧成功", "broken": "被解烧", "failed": "烧失败", "ongoing": "进行中"},
    "en": {
        "success": "succeeded",
        "broken": "was broken (解烧)",
        "failed": "failed (烧失败)",
        "ongoing": "ongoing",
    },
}

# key -> (zh, en)
WORDS: dict[str, tuple[str, str]] = {
    "game": ("第 {n} 局", "Game {n}"),
    "void": (
        "  两人以上革命：这一副作废，重新发牌。",
        "  Two or more revolted: the deal is void, dealt again.",
    ),
    "places": ("  名次：{items}", "  places: {items}"),
    "opened": ("  开点：{items}", "  opened (开点): {items}"),
    "burns": ("  烧牌：{items}", "  burns (烧牌): {items}"),
    "burn_item": ("{burner} 烧 {burned}（{result}）", "{burner} burned {burned} ({result})"),
    "stifles": ("  闷：{items}", "  stifled (闷): {items}"),
    "stifle_item": ("{by} 闷了 {seat}", "{seat} by {by}"),
    "paid": ("  开局进贡：{items}", "  tribute at the start: {items}"),
    "paid_item": (
        "{payer} → {receiver} {cards}（{kind}）",
        "{payer} → {receiver} {cards} ({kind})",
    ),
    "returned": ("  还贡：{items}", "  returned (还贡): {items}"),
    "return_item": ("{giver} → {taker} {cards}", "{giver} → {taker} {cards}"),
    "sweep": (
        "  串三户：本局名次分翻倍，下一局不进贡。",
        "  串三户 (sweep): this game's place points doubled, no tribute next game.",
    ),
    "score": ("  本局得分（各座）：{items}", "  seat points this game: {items}"),
    "team_score": (
        "  联邦：0/2/4 {a:+d}，1/3/5 {b:+d}",
        "  teams: seats 0/2/4 {a:+d}, seats 1/3/5 {b:+d}",
    ),
    "none": ("无", "none"),
    "totals": ("系列赛总分（各座）：{items}", "Series totals (seat points): {items}"),
    "team_totals": (
        "联邦总分：0/2/4 {a:+d}，1/3/5 {b:+d}",
        "Team totals: seats 0/2/4 {a:+d}, seats 1/3/5 {b:+d}",
    ),
    "titles": ("称号（本系列赛得分）：", "Titles (from each player's series score):"),
    "title_line": ("  {name} {score:+5d}  {title}", "  {name} {score:+5d}  {title}"),
    "winner": ("{team} 联邦赢了这一系列赛。", "Team {team} wins the series."),
    "draw": ("两个联邦打平。", "The two teams are level."),
    # gouji review
    "review_head": (
        "{seat} 号位：复盘了 {decisions} 个决定，推演 {rollouts} 次",
        "seat {seat}: {decisions} decisions reviewed, {rollouts} rollouts",
    ),
    "review_none": (
        "  没有哪一步明显比最强 AI 的选择亏分",
        "  no decision cost clearly more than the strong AI's choice",
    ),
    "review_line": (
        "  第 {step} 步（{facing}，手牌 {hand}）：你 {did} —— AI：{suggested}；"
        "约亏 {cost:.1f} ± {margin:.1f} 队分（{worlds} 种猜测的牌）",
        "  step {step} ({facing}, hand {hand}): you {did} — the AI: {suggested}; "
        "costs {cost:.1f} ± {margin:.1f} team points ({worlds} guessed deals)",
    ),
    "review_seat": ("{seat} 号位", "seat {seat}"),
    "review_pictures": ("图片：{files}", "pictures: {files}"),
    "review_to": (" 到 ", " to "),
}


def default_lang() -> str:
    """``zh`` when the terminal's locale is Chinese (``LANG``/``LC_ALL``), else ``en``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def text_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (at the left if ``right``)."""
    fill = " " * max(0, width - text_width(text))
    return fill + text if right else text + fill


def say(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in."""
    zh, en = WORDS[key]
    return (zh if lang == "zh" else en).format(**params)


def seat_label(names: Sequence[str], seat: int | None) -> str:
    """``名字 (seat)`` — a name with its seat number (no seat: "")."""
    return f"{names[seat]}({seat})" if seat is not None else ""


def _items(lang: str, items: list[str]) -> str:
    sep = "，" if lang == "zh" else ", "
    return sep.join(items) if items else say(lang, "none")


def describe_deal(deal: SeriesGame, names: Sequence[str], lang: str) -> list[str]:
    """The account of one deal of a series once it is over: the tribute paid and returned at
    its start, then places, 开点, burns, stifles and the points."""
    who = [seat_label(names, s) for s in range(6)]
    lines = [say(lang, "game", n=deal.number)]
    if deal.paid:
        items = [
            say(lang, "paid_item", payer=who[p.payer], receiver=who[p.receiver],
                cards=hand_text(p.cards, lang), kind=KIND_NAMES[lang][p.kind])
            for p in deal.paid
        ]  # fmt: skip
        lines.append(say(lang, "paid", items=_items(lang, items)))
    returned = [r for r in deal.returns if r.cards]
    if returned:
        items = [
            say(lang, "return_item", giver=who[r.giver], taker=who[r.taker],
                cards=hand_text(r.cards or "", lang))
            for r in returned
        ]  # fmt: skip
        lines.append(say(lang, "returned", items=_items(lang, items)))
    game = deal.game
    if deal.void or game is None:
        lines.append(say(lang, "void"))
        return lines
    order = sorted(range(6), key=lambda s: game.places[s] or 7)
    lines.append(
        say(
            lang,
            "places",
            items=_items(lang, [f"{place_name(lang, game.places[s])} {who[s]}" for s in order]),
        )
    )
    opened = [who[s] for s in range(6) if counts_as_open(game.opened, game.revolted, s)]
    lines.append(say(lang, "opened", items=_items(lang, opened)))
    burns = [
        say(
            lang,
            "burn_item",
            burner=who[b.burner],
            burned=who[b.burned],
            result=BURN_RESULTS[lang][b.result],
        )
        for b in game.burns
    ]
    lines.append(say(lang, "burns", items=_items(lang, burns)))
    if game.options.bie_san:
        stifles = [say(lang, "stifle_item", seat=who[s], by=who[by]) for s, by in game.stifled]
        lines.append(say(lang, "stifles", items=_items(lang, stifles)))
    if game.sweep:
        lines.append(say(lang, "sweep"))
    score = deal.score()
    lines.append(say(lang, "score", items=" ".join(f"{v:+d}" for v in score)))
    team = team_totals(score)
    lines.append(say(lang, "team_score", a=team[0], b=team[1]))
    return lines


def describe_totals(series: Series, names: Sequence[str], lang: str) -> list[str]:
    """Series totals, team totals, the winner and each player's title for their series
    score (team points plus own penalties)."""
    totals = series.totals()
    teams = series.team_totals()
    lines = [
        say(lang, "totals", items=" ".join(f"{v:+d}" for v in totals)),
        say(lang, "team_totals", a=teams[0], b=teams[1]),
    ]
    if teams[0] != teams[1]:
        lines.append(say(lang, "winner", team="0/2/4" if teams[0] > teams[1] else "1/3/5"))
    else:
        lines.append(say(lang, "draw"))
    lines.append(say(lang, "titles"))
    for seat, score in enumerate(series.player_scores()):
        lines.append(
            say(
                lang,
                "title_line",
                name=pad(seat_label(names, seat), 10),
                score=score,
                title=title_for(score),
            )
        )
    return lines
