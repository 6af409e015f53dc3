"""What ``gouji play`` shows: the table and the hand as text, the prompt, the help, and a
running account of what happened (narration), in Chinese or English.

The table is drawn from seat 0's :class:`~engine.observation.Observation` (only what the
player may know); the narration compares the public state before and after an action, so
answers of a simultaneous phase (宣点, 革命) and of a burn window stay hidden until it closes.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.text.cards import hand_text, play_words
from bot.text.catalog import place_name
from bot.text.terminal import pad, seat_label
from engine.cards import BIG_JOKER, SMALL_JOKER, TWO, format_counts
from engine.events import (
    BurnEnded,
    BurnStarted,
    Declared,
    Event,
    HeadChosen,
    Lead,
    MeleeBegan,
    Opened,
    Passed,
    Placed,
    Played,
    Revolted,
    Stifled,
    Yielded,
    of_kind,
)
from engine.game import Phase
from engine.observation import Observation
from engine.scoring import opposite_of, team_of

# key -> (zh, en)
TEXT: dict[str, tuple[str, str]] = {
    "header": ("── 第 {n}/{total} 局 · {phase} ──", "── Game {n}/{total} · {phase} ──"),
    "phase_declare": ("宣点", "declaring (宣点)"),
    "phase_revolt": ("革命", "revolution (革命)"),
    "phase_head": ("要头/无头", "keep the head? (要头/无头)"),
    "phase_play": ("出牌", "play"),
    "phase_melee": ("四户乱缠", "four-way melee (四户乱缠)"),
    "columns": (
        "座 玩家 联邦 剩牌 名次 标记 本轮",
        "seat player team cards place marks this-round",
    ),
    "red": ("红", "red"),
    "blue": ("蓝", "blue"),
    "opposite": ("对家", "opposite"),
    "m_declared": ("宣", "declared"),
    "m_opened": ("开点", "opened"),
    "m_headless": ("无头", "headless"),
    "m_revolted": ("革命", "revolted"),
    "m_burning": ("烧牌中", "burning"),
    "a_pass": ("过", "pass"),
    "a_yield": ("让", "yield"),
    "a_burn": ("烧 {cards}", "burn {cards}"),
    "standing": (
        "桌面：{cards}{gouji} —— {who} 出的",
        "On the table: {cards}{gouji} — played by {who}",
    ),
    "gouji": ("（够级牌）", " (gouji hand)"),
    "restricted": (
        "  只有对家和无头的人能管，别人只能烧",
        "  only the opposite and headless seats may answer; others may only burn",
    ),
    "empty_table": ("桌面：空 —— {who} 发牌", "On the table: nothing — {who} leads"),
    "waiting": ("等：{who}", "Waiting on: {who}"),
    "counter": (
        "记牌器（不在你手里、还没出的）：大王 {r} 张 · 小王 {b} 张 · 2 共 {t} 张",
        "Card counter (not yet played, outside your hand): big jokers {r} · small jokers {b} · 2s {t}",
    ),
    "hand": ("你的牌（{n} 张）：{cards}", "Your hand ({n} cards): {cards}"),
    "you": ("你", "You"),
    # prompts
    "p_declare": (
        "宣点吗？（宣点 = 赌你的对家这局开不了点）宣 / 不 > ",
        "Declare (宣点: bet that your opposite will not open)? declare / no > ",
    ),
    "p_revolt": (
        "革命吗？（你没有 2 也没有王：革命就不打这局，算四科）革命 / 不 > ",
        "Revolt (革命: sit this game out as 4th)? revolt / no > ",
    ),
    "p_head": (
        "对家革命了（够死级）：要头吗？（要头：你前三手够级牌别人只能烧）要头 / 无头 > ",
        "Your opposite revolted (够死级): keep the head (要头: your first three gouji hands "
        "can only be burned)? keephead / no > ",
    ),
    "p_burn": (
        "烧不烧 {who} 的 {cards}？可以烧的牌：{plays}。烧 牌 / 不烧 > ",
        "Burn {who}'s {cards}? Burning plays: {plays}. burn CARDS / noburn > ",
    ),
    "typed": ("{words}（输入 {cards}）", "{words} (type {cards})"),
    "p_lead": ("你发牌 > ", "Your lead > "),
    "p_answer": ("管 {cards} 吗？出牌 / 过{yield_} > ", "Beat {cards}? CARDS / pass{yield_} > "),
    "p_yield": (" / 让", " / yield"),
    "p_return": (
        "还贡：还 {n} 张给 {who}，可以还的牌：{cards} > ",
        "Return tribute: give {n} card(s) back to {who}; you may return: {cards} > ",
    ),
    # narration
    "n_play": ("{who} 出 {cards}{gouji}", "{who} plays {cards}{gouji}"),
    "n_gouji": ("（够级）", " (gouji)"),
    "n_pass": ("{who} 过", "{who} passes"),
    "n_yield": ("{who} 让牌", "{who} yields (让牌)"),
    "n_burn": (
        "{who} 烧 {burned} 的牌：{cards}",
        "{who} burns {burned}'s hand with {cards} (烧牌)",
    ),
    "n_burn_success": ("{who} 烧成功", "{who}'s burn succeeds (烧成功)"),
    "n_burn_broken": ("{who} 的烧牌被解了（解烧）", "{who}'s burn is broken (解烧)"),
    "n_burn_failed": (
        "{who} 烧失败，走科垫底",
        "{who}'s burn fails (烧失败): out in the lowest place",
    ),
    "n_keephead": ("{who} 要头", "{who} keeps the head (要头)"),
    "n_nokeephead": ("{who} 无头", "{who} goes headless (无头)"),
    "n_opened": ("{who} 开点", "{who} opens the point (开点)"),
    "n_place": ("{who} 走科：{place}", "{who} finishes: {place}"),
    "n_stifled": ("{who} 被 {by} 闷了", "{who} is stifled (闷) by {by}"),
    "n_melee": (
        "只剩四家：四户乱缠开始",
        "Four players left: the four-way melee (四户乱缠) begins",
    ),
    "n_declared": ("宣点：{who}", "Declared (宣点): {who}"),
    "n_nobody_declared": ("没有人宣点", "Nobody declared"),
    "n_revolted": ("革命：{who}", "Revolted (革命): {who}"),
    "n_leader": ("{who} 先出（上班）", "{who} leads first (上班)"),
    "n_round": ("{who} 赢了这一轮，发牌", "{who} wins the round and leads"),
    "n_takeover": ("{who} 接风发牌", "{who} takes over the lead (接风)"),
    "n_paid": ("进贡：{items}", "Tribute paid: {items}"),
    "n_returned": ("{who} 还贡 {cards} 给 {to}", "{who} returns {cards} to {to}"),
    "hint": ("提示：{what}（直接回车就出这手）", "Hint: {what} (press Enter to do it)"),
    "hint_pass": ("过", "pass"),
    "hint_yield": ("让牌", "yield"),
    "hint_noburn": ("不烧", "noburn"),
    "hint_declare": ("宣点", "declare"),
    "hint_nodeclare": ("不宣", "no (do not declare)"),
    "hint_revolt": ("革命", "revolt"),
    "hint_norevolt": ("不革命", "no (do not revolt)"),
    "hint_keephead": ("要头", "keephead (要头)"),
    "hint_nokeephead": ("无头", "no (无头)"),
    "hint_burn": ("烧 {cards}", "burn {cards}"),
    "hint_return": ("还 {cards}", "return {cards}"),
    "unknown": (
        "看不懂“{text}”：输入牌（如 KK、22777），或 pass、yield、? 提示、help 帮助、quit 退出",
        "I do not understand '{text}': type cards (e.g. KK, 22777), or pass, yield, ? for a hint, help, quit",
    ),
    "p_again": ("再来一局吗？(y/n) > ", "Play again? (y/n) > "),
    "p_again_series": ("再来一场吗？(y/n) > ", "Another series? (y/n) > "),
    "again_yes_or_no": (
        "请回答 y（再来）或 n（不玩了）。",
        "Please answer y (play again) or n (stop).",
    ),
    "bye_eof": ("输入结束：离开牌桌。", "End of input: leaving the table."),
    "bye_quit": ("你离开了牌桌。", "You left the table."),
    "void": (
        "两人以上革命：这一副作废，重新发牌。",
        "Two or more revolted: the deal is void, dealing again.",
    ),
    "seed": (
        "种子 {seed}（用 --seed {seed} 可以再打同一副牌）",
        "Seed {seed} (play the same cards again with --seed {seed})",
    ),
    "welcome": (
        "够级：你坐 0 号位（红方），对家是 3 号位；2、4 号位是队友。输入 help 看帮助。",
        "Gouji: you sit in seat 0 (red team); your opposite is seat 3, your teammates seats 2 and 4. Type help for help.",
    ),
}

HELP = {
    "zh": """怎么打：
  出牌：直接输入牌，如 KK、22777（2 当配牌）、BB888（挂王）、T 或 10 是十，B 小王，R 大王
  pass（或 过）过牌；yield（或 让）让牌；burn KK（或 烧 KK）烧牌；noburn（或 不烧）不烧
  宣点时：declare（宣）/ no；革命时：revolt / no；要头时（够死级）：keephead / no；还贡时：输入要还的牌
  ? 提示（再按回车就按提示出）；t 再看一遍牌桌；help 帮助；quit 退出
规则：同样张数、每张都比对应的牌大才能管上；够级牌（10×5、J×4、Q×3、K×2、A×2、2、带王）
只有对家能管，别人只能烧。完整规则：docs/rules.zh.md""",
    "en": """How to play:
  play: type the cards, e.g. KK, 22777 (2s as wildcards), BB888 (jokers attached); T or 10 is ten, B small joker, R big joker
  pass; yield (让牌); burn KK (烧牌); noburn
  when declaring: declare / no; at a revolution: revolt / no; keeping the head (够死级): keephead / no; returning tribute: type the cards to give back
  ? for a hint (then Enter plays it); t shows the table again; help; quit
Rules: beat a hand with as many cards, each higher than the card in the same place; a gouji hand
(five 10s, four Js, three Qs, two Ks or As, 2s, anything with a joker) may be answered only by
the player's opposite; others may only burn it. Full rules: docs/rules.en.md""",
}


def t(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in."""
    zh, en = TEXT[key]
    return (zh if lang == "zh" else en).format(**params)


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
    if obs.phase == Phase.DECLARE:
        phase = t(lang, "phase_declare")
    elif obs.phase == Phase.REVOLT:
        phase = t(lang, "phase_revolt")
    elif obs.phase == Phase.HEAD:
        phase = t(lang, "phase_head")
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
    if obs.phase == Phase.DECLARE:
        return t(lang, "p_declare")
    if obs.phase == Phase.REVOLT:
        return t(lang, "p_revolt")
    if obs.phase == Phase.HEAD:
        return t(lang, "p_head")
    burns = [a.cards for a in obs.legal_actions if a.verb == "burn" and a.cards is not None]
    standing = play_words(obs.standing, lang) if obs.standing is not None else ""
    if burns:
        typed = [t(lang, "typed", words=play_words(p, lang), cards=p) for p in burns[:8]]
        shown = ("；" if lang == "zh" else "; ").join(typed) + (" …" if len(burns) > 8 else "")
        who = seat_label(names, obs.standing_seat)
        return t(lang, "p_burn", who=who, cards=standing, plays=shown)
    if obs.standing is None:
        return t(lang, "p_lead")
    may_yield = any(a.verb == "yield" for a in obs.legal_actions)
    return t(lang, "p_answer", cards=standing, yield_=t(lang, "p_yield") if may_yield else "")


def hint_text(verb: str, cards: str, lang: str) -> str:
    """The hint line for an action ``verb`` with ``cards``."""
    if verb == "play":
        what = play_words(cards, lang)
    elif verb == "burn":
        what = t(lang, "hint_burn", cards=play_words(cards, lang))
    elif verb == "return":
        what = t(lang, "hint_return", cards=hand_text(cards, lang))
    else:
        what = t(lang, f"hint_{verb}")
    return t(lang, "hint", what=what)


def narrate(events: list[Event], names: Sequence[str], lang: str) -> list[str]:
    """What became public (:mod:`engine.events`): the action itself (hidden answers
    excepted) and what it changed (burns, 开点, places, melee, the end of a phase or a round)."""
    who = [seat_label(names, s) for s in range(6)]
    lines = []
    for played in of_kind(events, Played):
        gouji = t(lang, "n_gouji") if played.gouji else ""
        cards = play_words(played.cards, lang)
        lines.append(t(lang, "n_play", who=who[played.seat], cards=cards, gouji=gouji))
    for passed in of_kind(events, Passed):
        lines.append(t(lang, "n_pass", who=who[passed.seat]))
    for yielded in of_kind(events, Yielded):
        lines.append(t(lang, "n_yield", who=who[yielded.seat]))
    for declared in of_kind(events, Declared):
        names_ = ", ".join(who[s] for s in declared.seats)
        lines.append(
            t(lang, "n_declared", who=names_) if declared.seats else t(lang, "n_nobody_declared")
        )
    for revolted in of_kind(events, Revolted):
        lines.append(t(lang, "n_revolted", who=", ".join(who[s] for s in revolted.seats)))
    for head in of_kind(events, HeadChosen):
        lines.append(t(lang, "n_keephead" if head.kept else "n_nokeephead", who=who[head.seat]))
    for burn in of_kind(events, BurnStarted):
        cards = play_words(burn.cards, lang) if burn.cards else "?"
        lines.append(t(lang, "n_burn", who=who[burn.burner], burned=who[burn.burned], cards=cards))
    for ended in of_kind(events, BurnEnded):
        lines.append(t(lang, f"n_burn_{ended.result}", who=who[ended.burner]))
    for opened in of_kind(events, Opened):
        if opened.own:
            lines.append(t(lang, "n_opened", who=who[opened.seat]))
    for placed in sorted(of_kind(events, Placed), key=lambda p: p.place):
        lines.append(t(lang, "n_place", who=who[placed.seat], place=place_name(lang, placed.place)))
    for stifled in of_kind(events, Stifled):
        lines.append(t(lang, "n_stifled", who=who[stifled.seat], by=who[stifled.by]))
    if of_kind(events, MeleeBegan):
        lines.append(t(lang, "n_melee"))
    keys = {"first": "n_leader", "round": "n_round", "takeover": "n_takeover"}
    for lead in of_kind(events, Lead):
        lines.append(t(lang, keys[lead.how], who=who[lead.seat]))
    return lines
