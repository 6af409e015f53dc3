"""The engine's refusals in the player's language.

The engine refuses an action with an :class:`~engine.actions.IllegalActionError` carrying a
``code`` and ``params``; :data:`EN` and :data:`ZH` below hold the texts players read (the engine's own
:data:`engine.actions.MESSAGES` are for developers), one for every code (a test checks that none is missing
and that both use the same parameters) — the one table: Discord (:func:`bot.text.catalog.
error_text`) and ``gouji play`` both read it. Bad card notation (:class:`~engine.cards.CardError`)
and cards that are no hand (:class:`~engine.hands.HandError`) get a message of their own.
Pure text, no Discord: ``gouji play`` uses it and the bot can.

>>> from engine.actions import IllegalActionError
>>> refusal_text(IllegalActionError("lead_no_pass"), "zh")
'该你出牌（发牌），不能过'
>>> refusal_text(IllegalActionError("declare_time"), "en")
'it is time for declaring (宣点): declare, or do not declare'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.actions import IllegalActionError
from engine.cards import CardError
from engine.hands import HandError

ZH: dict[str, str] = {
    "no_seat": "没有 {seat}：座位是 0 到 5 号",
    "game_over": "这一局已经结束了",
    "already_left": "{seat}已经离开了这一局",
    "already_declared": "{seat}已经答过宣不宣点了",
    "already_revolt_answered": "{seat}已经答过革不革命了",
    "may_not_revolt": "{seat}不能革命：只有手里没有 2 也没有王的玩家才可以",
    "declare_time": "现在是宣点的时候：宣点或不宣",
    "revolt_time": "现在是革命的时候：革命或不革命",
    "window_waits": "还没轮到你：正在等 {seats}决定是否烧牌",
    "already_burn_answered": "{seat}已经答过烧不烧了",
    "burn_deciding_yours": "还没轮到你：{seats}正在决定要不要烧你的牌",
    "burn_deciding": "还没轮到你：{seats}正在决定要不要烧牌",
    "answer_burn": "{seat}的够级牌可以烧：选一手烧，或不烧",
    "no_window": "现在没有可以烧的牌",
    "not_your_turn": "还没轮到你：现在是 {seats}出牌",
    "not_held": "你手里没有 {cards}",
    "not_held_hand": "你手里没有 {cards}：你的牌是 {hand}",
    "does_not_beat": "{cards} 管不上 {standing}",
    "wrong_size": "{cards} 管不上 {standing}：必须出 {size} 张",
    "not_higher": "{cards} 管不上 {standing}：每一张都要比对应位置的牌大",
    "burn_incomplete": "用 {cards} 烧的话剩下的牌走不完：烧牌后除了最后一手，每次出牌都要带王",
    "head_time": "先等 {seat} 选要头还是无头",
    "head_seat": "只有革命者的对家（{seat}）选择要头或无头",
    "gou_si_ji": "{q} 这手是够死级：只能烧，不能管",
    "burn_lead": "烧牌期间，除最后一手外每次发牌都要带王，而且剩下的牌要还能走完",
    "lead_no_pass": "该你出牌（发牌），不能过",
    "verb_not_now": "现在不能「{verb}」：请出牌、过牌或让牌",
    "gouji_opposite_only": "{seat}不能管 {q}的够级牌：只有对家 {opp}能管",
    "passed_round": "{seat}这一轮已经过牌，只能管对家的牌",
    "three_last": "憋三：3 只能在最后一手出，而且必须全是 3",
    "yield_melee": "四户乱缠时不能让牌",
    "yield_lead": "该你发牌，没有可让的",
    "yield_opposite_only": "只能让对家的牌",
    "yield_gouji": "够级牌不能让",
    "yield_twice": "这手牌你已经让过了：管上或过牌",
    "yield_nobody": "你后面没人能管这手牌：管上或过牌",
    "yield_upstream": "你前面两家都过牌之后才能让牌",
    "series_over": "这一系列赛已经结束了",
    "game_not_over": "这一局还没打完",
    "no_game": "还没发牌",
    "no_return_due": "现在没有要还的贡",
    "return_first": "要先还贡：{seat}还 {count} 张牌给 {to}",
    "return_turn": "还没轮到你：{seat}先还贡",
    "return_count": "请正好还 {count} 张牌给 {to}",
    "return_not_held": "你手里没有 {cards}",
    "return_rank": "还给对手的牌只能是 {to}手里有的点数（不还单张）",
}

#: The English texts players read (the engine's MESSAGES are the developers'): seats and
#: verbs worded first (:func:`worded`), never a bare seat number or an internal verb.
EN: dict[str, str] = {
    "no_seat": "there is no {seat}: seats are 0 to 5",
    "game_over": "the game is over",
    "already_left": "{seat} has already left this game",
    "already_declared": "{seat} has already answered whether to declare",
    "already_revolt_answered": "{seat} has already answered whether to revolt",
    "may_not_revolt": "{seat} may not revolt: only a player with no 2 and no joker may",
    "declare_time": "it is time for declaring (宣点): declare, or do not declare",
    "revolt_time": "it is time for revolution (革命): revolt, or do not revolt",
    "head_time": "{seat} chooses first: keep the head (要头) or go headless (无头)",
    "head_seat": "only {seat}, the revolutionary's opposite, chooses to keep the head (要头) or go headless (无头)",
    "gou_si_ji": "{q}'s hand is 够死级: nobody may answer it except by burning",
    "window_waits": "not your turn: the burn window waits on {seats}",
    "already_burn_answered": "{seat} has already answered in this burn window",
    "burn_deciding_yours": "not your turn: {seats} decide whether to burn your hand",
    "burn_deciding": "not your turn: {seats} decide whether to burn",
    "answer_burn": "{seat}'s gouji hand may be burned: burn it with a play, or do not burn",
    "no_window": "there is no burn window open now",
    "not_your_turn": "not your turn: {seats} plays",
    "not_held": "you do not hold {cards}",
    "not_held_hand": "you do not hold {cards}: your hand is {hand}",
    "does_not_beat": "{cards} does not beat {standing}",
    "wrong_size": "{cards} does not beat {standing}: play exactly {size} card(s)",
    "not_higher": "{cards} does not beat {standing}: every card must be higher than the card in the same place",
    "burn_incomplete": "burning with {cards} would leave a hand you cannot go out with: after a burn every lead but the last must carry a joker",
    "burn_lead": "while you burn, every lead but your last must carry a joker and leave a hand you can still go out with",
    "lead_no_pass": "you have the lead: play a hand (you cannot pass on a lead)",
    "verb_not_now": "“{verb}” is not possible now: play, pass or yield",
    "gouji_opposite_only": "{seat} may not answer a gouji hand of {q}: only their opposite, {opp}, may",
    "passed_round": "{seat} has passed this round and may answer only their opposite's hands",
    "three_last": "a 3 may only go out as your last hand, all 3s (憋三)",
    "yield_melee": "there is no yielding in the four-way melee (四户乱缠)",
    "yield_lead": "you have the lead: there is nothing to yield",
    "yield_opposite_only": "you may yield only on a hand of your opposite",
    "yield_gouji": "you may not yield on a gouji hand",
    "yield_twice": "you have yielded on this hand already: beat it or pass",
    "yield_nobody": "nobody after you may answer this hand: beat it or pass",
    "yield_upstream": "you may yield only after both players before you have passed",
    "series_over": "the series is over",
    "game_not_over": "the current game is not over yet",
    "no_game": "no game has been dealt yet",
    "no_return_due": "no tribute is waiting to be returned",
    "return_first": "tribute must be returned first: {seat} returns {count} card(s) to {to}",
    "return_turn": "not your turn: {seat} returns tribute first",
    "return_count": "return exactly {count} card(s) to {to}",
    "return_not_held": "you do not hold {cards}",
    "return_rank": "to an opponent you may return only ranks {to} holds (不还单张)",
}

CARD_HELP = {
    "zh": "牌的写法：3–9、T（或 10）、J、Q、K、A、2、B（小王）、R（大王），例如 KK、22777、BB888",
    "en": "cards are written 3-9, T (or 10), J, Q, K, A, 2, B (small joker), R (big joker), e.g. KK, 22777, BB888",
}


#: The parameters of a refusal that name seats (``seats``: several, "3, 4").
SEAT_PARAMS = frozenset({"seat", "seats", "q", "opp", "to"})
#: An internal verb in a refusal, as the controller's button names it.
VERB_WORDS = {
    "zh": {
        "declare": "宣点",
        "nodeclare": "不宣",
        "revolt": "革命",
        "norevolt": "不革命",
        "keephead": "要头",
        "nokeephead": "无头",
        "burn": "烧牌",
        "noburn": "不烧",
        "return": "还贡",
        "play": "出牌",
        "pass": "过牌",
        "yield": "让牌",
    },
    "en": {
        "declare": "declare",
        "nodeclare": "do not declare",
        "revolt": "revolt",
        "norevolt": "do not revolt",
        "keephead": "keep the head",
        "nokeephead": "headless",
        "burn": "burn",
        "noburn": "no burn",
        "return": "return tribute",
        "play": "play",
        "pass": "pass",
        "yield": "yield",
    },
}


def seat_words(seat: str, lang: str, name_of: Callable[[int], str] | None = None) -> str:
    """A seat as a refusal names it: ``bo (seat 3)`` / ``bo（3 号位）``, without a name
    ``seat 3`` / ``3 号位`` (anything that is no seat number stays as it is).

    >>> seat_words("3", "zh"), seat_words("3", "en", lambda s: "bo")
    ('3 号位', 'bo (seat 3)')
    """
    if not seat.strip().isdigit():
        return seat
    n = int(seat)
    name = name_of(n) if name_of is not None and 0 <= n < 6 else ""
    if lang == "zh":
        return f"{name}（{n} 号位）" if name else f"{n} 号位"
    return f"{name} (seat {n})" if name else f"seat {n}"


def worded(
    params: dict[str, Any], lang: str, name_of: Callable[[int], str] | None = None
) -> dict[str, Any]:
    """A refusal's parameters with its seats named (:func:`seat_words`) and its verb in a
    player's words."""
    out = dict(params)
    for key in SEAT_PARAMS & out.keys():
        seats = str(out[key]).split(",")
        sep = "、" if lang == "zh" else ", "
        out[key] = sep.join(seat_words(s.strip(), lang, name_of) for s in seats)
    if "verb" in out:
        out["verb"] = VERB_WORDS["zh" if lang == "zh" else "en"].get(str(out["verb"]), out["verb"])
    return out


def template_of(code: str, lang: str) -> str | None:
    """The refusal text of ``code`` in ``lang`` (None: no such code)."""
    return ZH.get(code) if lang == "zh" else EN.get(code)


def refusal_text(exc: Exception, lang: str) -> str:
    """Why ``exc`` refused an action or cards, in ``lang`` (``zh`` or ``en``)."""
    if isinstance(exc, IllegalActionError):
        template = template_of(exc.code, lang)
        if template is not None:
            try:
                return template.format(**worded(exc.params, lang))
            except (KeyError, IndexError):
                pass
        return str(exc)
    if isinstance(exc, CardError):
        if lang == "zh":
            return f"看不懂这些牌（{exc}）。{CARD_HELP['zh']}"
        return f"{exc}. {CARD_HELP['en'][0].upper()}{CARD_HELP['en'][1:]}"
    if isinstance(exc, HandError):
        if lang == "zh":
            return "这不是一手牌：一手牌是同一点数的牌，可以带 2 当配牌、可以挂王；不能出顺子或两种点数"
        return f"that is not a hand: {exc}"
    return str(exc)
