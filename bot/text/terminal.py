"""Words the terminal commands (``gouji demo``, ``play``, ``top``, ``replay``) print, in
Chinese and English, and the account of a finished game of a series that ``demo``, ``play
--series`` and ``replay`` share. Pure text: no I/O."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence

from bot.text.cards import hand_text
from bot.text.catalog import place_name
from bot.text.langs import lang_of, text
from engine.scoring import counts_as_open, team_totals, title_for
from engine.series import Series, SeriesGame


def default_lang() -> str:
    """The language of the terminal's locale (``LANG``/``LC_ALL``: ``zh_CN.UTF-8`` → ``zh``),
    else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return lang_of(value)
    return lang_of("")


def text_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (at the left if ``right``)."""
    fill = " " * max(0, width - text_width(text))
    return fill + text if right else text + fill


def say(lang: str, key: str, **params: object) -> str:
    """The text ``term.KEY`` of the catalogs in ``lang`` with ``params`` filled in."""
    return text(lang, f"term.{key}", **params)


def tribute_kind_name(lang: str, kind: str) -> str:
    """A kind of tribute paid, as the account names it: 点贡 / ``point (点贡)``."""
    return say(lang, f"kind.{kind}")


def seat_label(names: Sequence[str], seat: int | None) -> str:
    """``济南 (3)`` — a name with its seat number, as every text names a seat
    (:class:`bot.text.params.Who`); no seat: ""."""
    return f"{names[seat]} ({seat})" if seat is not None else ""


def items_text(lang: str, items: list[str]) -> str:
    """Items in a row, or "none" (无) without any."""
    return text(lang, "sep.comma").join(items) if items else say(lang, "none")


def describe_deal(deal: SeriesGame, names: Sequence[str], lang: str) -> list[str]:
    """The account of one deal of a series once it is over: the tribute paid and returned at
    its start, then places, 开点, burns, stifles and the points."""
    who = [seat_label(names, s) for s in range(6)]
    lines = [say(lang, "game", n=deal.number)]
    if deal.paid:
        items = [
            say(lang, "paid_item", payer=who[p.payer], receiver=who[p.receiver],
                cards=hand_text(p.cards, lang), kind=tribute_kind_name(lang, p.kind))
            for p in deal.paid
        ]  # fmt: skip
        lines.append(say(lang, "paid", items=items_text(lang, items)))
    returned = [r for r in deal.returns if r.cards]
    if returned:
        items = [
            say(lang, "return_item", giver=who[r.giver], taker=who[r.taker],
                cards=hand_text(r.cards or "", lang))
            for r in returned
        ]  # fmt: skip
        lines.append(say(lang, "returned", items=items_text(lang, items)))
    game = deal.game
    if deal.void or game is None:
        lines.append(say(lang, "void"))
        return lines
    order = sorted(range(6), key=lambda s: game.places[s] or 7)
    lines.append(
        say(
            lang,
            "places",
            items=items_text(lang, [f"{place_name(lang, game.places[s])} {who[s]}" for s in order]),
        )
    )
    opened = [who[s] for s in range(6) if counts_as_open(game.opened, game.revolted, s)]
    lines.append(say(lang, "opened", items=items_text(lang, opened)))
    burns = [
        say(
            lang,
            "burn_item",
            burner=who[b.burner],
            burned=who[b.burned],
            result=say(lang, f"burn.{b.result}"),
        )
        for b in game.burns
    ]
    lines.append(say(lang, "burns", items=items_text(lang, burns)))
    if game.options.bie_san:
        stifles = [say(lang, "stifle_item", seat=who[s], by=who[by]) for s, by in game.stifled]
        lines.append(say(lang, "stifles", items=items_text(lang, stifles)))
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
