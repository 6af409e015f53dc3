"""What ``gouji play`` shows: the table and the hand as text, the prompt, the help, and a
running account of what happened (narration), in Chinese or English; ``gouji replay`` tells a
record with the same narration (:func:`replay_account`).

The table is drawn from seat 0's :class:`~engine.observation.Observation` (only what the
player may know); the narration compares the public state before and after an action, so
answers of a simultaneous phase (宣点, 革命) and of a burn window stay hidden until it closes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.text.cards import action_text, hand_text, play_words
from bot.text.catalog import place_name
from bot.text.langs import text
from bot.text.narration import narration
from bot.text.params import SeatNamer, params_text
from bot.text.terminal import describe_deal, describe_totals, items_text, pad, say, seat_label
from engine.actions import Action
from engine.cards import BIG_JOKER, SMALL_JOKER, TWO, format_counts
from engine.events import (
    Event,
    changes,
    snapshot,
)
from engine.game import Phase
from engine.observation import Observation
from engine.record import SERIES_FORMAT, action_list, game_from_record, series_from_record
from engine.scoring import opposite_of, team_of
from engine.series import SeriesGame
from engine.state import QUESTIONS


def t(lang: str, key: str, **params: object) -> str:
    """The text ``play.KEY`` of the catalogs in ``lang`` with ``params`` filled in."""
    return text(lang, f"play.{key}", **params)


def hand_groups(counts: Sequence[int], lang: str) -> str:
    """A hand of rank counts grouped by rank, low to high, as the bot writes hands
    (:func:`~bot.text.cards.hand_text`): ``3×2 4×3 5 10×6 2 小王×2 大王``; none: ``-``."""
    return hand_text(format_counts(counts), lang) or "-"


def _cell(text: str, width: int) -> str:
    return pad(text, width - 1) + " "


def last_action_text(last: str | None, lang: str) -> str:
    """A seat's last action this round, for the table."""
    if not last:
        return ""
    if last == "pass":
        return t(lang, "a_pass")
    if last == "yield":
        return t(lang, "a_yield")
    if last.startswith("burn "):
        return t(lang, "a_burn", cards=play_words(last[5:], lang))
    return play_words(last, lang)


def table_text(obs: Observation, names: Sequence[str], lang: str, number: int, total: int) -> str:
    """The table as seat ``obs.seat`` sees it: every seat's line, the standing hand, whose
    turn, the card counter and the player's hand."""
    if obs.phase in QUESTIONS:  # a question's phase: play.phase_PHASE
        phase = t(lang, f"phase_{obs.phase}")
    else:
        phase = t(lang, "phase_melee" if obs.melee else "phase_play")
    lines = [t(lang, "header", n=number, total=total, phase=phase)]
    widths = (3, 10, 15, 6, 12, 18)
    cols = t(lang, "columns").split()
    lines.append("".join(_cell(c, w) for c, w in zip(cols, widths, strict=False)) + cols[-1])
    for s in range(6):
        team = t(lang, "red" if team_of(s) == 0 else "blue")
        if s == opposite_of(obs.seat):
            team += "·" + t(lang, "opposite")
        marks = [
            t(lang, key)
            for key, on in (
                ("m_declared", obs.declared[s]),
                ("m_opened", obs.opened[s]),
                ("m_headless", obs.headless[s]),
                ("m_revolted", obs.revolted[s]),
                ("m_burning", obs.burner == s),
            )
            if on
        ]
        place = place_name(lang, obs.places[s])
        turn = "▶" if s in obs.to_act else " "
        row = [f"{turn}{s}", names[s], team, str(obs.card_counts[s]), place, ",".join(marks)]
        lines.append(
            "".join(_cell(c, w) for c, w in zip(row, widths, strict=True))
            + last_action_text(obs.last_action[s], lang)
        )
    if obs.phase == Phase.PLAY:
        if obs.standing is not None:
            gouji = t(lang, "gouji") if obs.standing.is_gouji else ""
            who = seat_label(names, obs.standing_seat)
            cards = play_words(obs.standing, lang)
            lines.append(t(lang, "standing", cards=cards, gouji=gouji, who=who))
            if obs.standing_restricted and not obs.melee:
                lines.append(t(lang, "restricted"))
        elif obs.to_act:
            lines.append(t(lang, "empty_table", who=seat_label(names, obs.to_act[0])))
        unseen = obs.unseen
        lines.append(t(lang, "counter", r=unseen[BIG_JOKER], b=unseen[SMALL_JOKER], t=unseen[TWO]))
    if obs.to_act:
        lines.append(t(lang, "waiting", who=", ".join(seat_label(names, s) for s in obs.to_act)))
    lines.append(t(lang, "hand", n=sum(obs.counts), cards=hand_groups(obs.counts, lang)))
    return "\n".join(lines)


def prompt_text(obs: Observation, names: Sequence[str], lang: str) -> str:
    """What the player is asked now."""
    if obs.phase in QUESTIONS:  # a question's phase: play.p_PHASE
        return t(lang, f"p_{obs.phase}")
    burns = [a.cards for a in obs.legal_actions if a.verb == "burn" and a.cards is not None]
    standing = play_words(obs.standing, lang) if obs.standing is not None else ""
    if burns:
        typed = [t(lang, "typed", words=play_words(p, lang), cards=p) for p in burns[:8]]
        shown = text(lang, "sep.semi").join(typed) + (" …" if len(burns) > 8 else "")
        who = seat_label(names, obs.standing_seat)
        return t(lang, "p_burn", who=who, cards=standing, plays=shown)
    if obs.standing is None:
        return t(lang, "p_lead")
    may_yield = any(a.verb == "yield" for a in obs.legal_actions)
    return t(lang, "p_answer", cards=standing, yield_=t(lang, "p_yield") if may_yield else "")


def hint_text(verb: str, cards: str, lang: str) -> str:
    """The hint line for an action ``verb`` with ``cards``."""
    what = action_text(lang, verb, cards, how="play.hint")
    return t(lang, "hint", what=what)


def narrate(events: list[Event], names: Sequence[str], lang: str) -> list[str]:
    """What became public (:mod:`engine.events`), every action told: the narrator's lines
    (:func:`bot.text.narration.narration`), the seats named ``济南 (0)``."""
    named = SeatNamer(names)
    return [
        text(lang, said.key, **params_text(said.params, lang, named))
        for said in narration(events, every_action=True)
    ]


def replay_account(data: dict[str, Any], names: Sequence[str], lang: str) -> list[str]:
    """``gouji replay``'s account of a record in ``lang``: a game's every action and what it
    changed (as the terminal table narrates them), then its result; a series' deals (the
    tribute, the returns, places, 开点, burns, points) and its totals. Raises what the
    record's replay raises (:mod:`engine.record`)."""
    if data.get("format") == SERIES_FORMAT:
        series = series_from_record(data, settle_returns=True)
        lines: list[str] = []
        for deal in series.deals:
            lines += _deal_account(deal, names, lang)
        return lines + describe_totals(series, names, lang)
    game = game_from_record(data)
    dealt = [list(hand) for hand in game.cards]
    lines = [say(lang, "game", n=1)]
    for typed in action_list(data):
        before, action = snapshot(game), Action.parse(typed)
        game.apply(action)
        lines += ["  " + line for line in narrate(changes(before, game, action), names, lang)]
    deal = SeriesGame(1, dealt, None, dealt, game=game)
    return lines + _deal_account(deal, names, lang)[1:]


def _deal_account(deal: SeriesGame, names: Sequence[str], lang: str) -> list[str]:
    """A deal's account, or while it is played, who it waits on."""
    if deal.finished or deal.void or deal.game is None:
        return describe_deal(deal, names, lang)
    waiting = [seat_label(names, s) for s in deal.game.to_act]
    return [
        say(lang, "game", n=deal.number),
        say(lang, "in_progress", who=items_text(lang, waiting)),
    ]
