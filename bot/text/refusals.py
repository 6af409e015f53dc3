"""The engine's refusals in the player's language.

The engine refuses an action with an :class:`~engine.actions.IllegalActionError` carrying a
``code`` and ``params``; :data:`engine.actions.MESSAGES` holds the English texts and
:data:`ZH` below the Chinese ones, one for every code (a test checks that none is missing
and that both use the same parameters) — the one table: Discord (:func:`bot.text.catalog.
error_text`) and ``gouji play`` both read it. Bad card notation (:class:`~engine.cards.CardError`)
and cards that are no hand (:class:`~engine.hands.HandError`) get a message of their own.
Pure text, no Discord: ``gouji play`` uses it and the bot can.

>>> from engine.actions import IllegalActionError
>>> refusal_text(IllegalActionError("lead_no_pass"), "zh")
'该你出牌（发牌），不能过'
"""

from __future__ import annotations

from engine.actions import MESSAGES, IllegalActionError
from engine.cards import CardError
from engine.hands import HandError

ZH: dict[str, str] = {
    "no_seat": "没有 {seat} 号位：座位是 0 到 5",
    "game_over": "这一局已经结束了",
    "already_left": "{seat} 号位已经离开了这一局",
    "already_declared": "{seat} 号位已经答过宣不宣点了",
    "already_revolt_answered": "{seat} 号位已经答过革不革命了",
    "may_not_revolt": "{seat} 号位不能革命：只有手里没有 2 也没有王的玩家才可以",
    "declare_time": "现在是宣点的时候：选宣点或不宣",
    "revolt_time": "现在是革命的时候：选革命或不革命",
    "window_waits": "还没轮到你：正在等 {seats} 号位决定是否烧牌",
    "already_burn_answered": "{seat} 号位已经答过烧不烧了",
    "burn_deciding_yours": "还没轮到你：{seats} 号位正在决定要不要烧你的牌",
    "burn_deciding": "还没轮到你：{seats} 号位正在决定要不要烧牌",
    "answer_burn": "{seat} 号位的够级牌可以烧：选一手烧，或不烧",
    "no_window": "现在没有可以烧的牌",
    "not_your_turn": "还没轮到你：现在是 {seats} 号位出牌",
    "not_held": "你手里没有 {cards}",
    "not_held_hand": "你手里没有 {cards}：你的牌是 {hand}",
    "does_not_beat": "{cards} 管不上 {standing}",
    "wrong_size": "{cards} 管不上 {standing}：必须出 {size} 张",
    "not_higher": "{cards} 管不上 {standing}：每一张都要比对应位置的牌大",
    "burn_incomplete": "用 {cards} 烧的话剩下的牌走不完：烧牌后除了最后一手，每次出牌都要带王",
    "head_time": "先等座位 {seat} 选择要头还是无头",
    "head_seat": "只有革命者的对家（座位 {seat}）选择要头或无头",
    "gou_si_ji": "座位 {q} 这手是够死级：只能烧，不能管",
    "burn_lead": "烧牌期间，除最后一手外每次发牌都要带王，而且剩下的牌要还能走完",
    "lead_no_pass": "该你出牌（发牌），不能过",
    "verb_not_now": "现在不能“{verb}”：请出牌、过牌或让牌",
    "gouji_opposite_only": "{seat} 号位不能管 {q} 号位的够级牌：只有对家 {opp} 号位能管",
    "passed_round": "{seat} 号位这一轮已经过牌，只能管对家的牌",
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
    "return_first": "要先还贡：{seat} 号位还 {count} 张牌给 {to} 号位",
    "return_turn": "还没轮到你：{seat} 号位先还贡",
    "return_count": "请正好还 {count} 张牌给 {to} 号位",
    "return_not_held": "你手里没有 {cards}",
    "return_rank": "还给对手的牌只能是 {to} 号位手里有的点数（不还单张）",
}

CARD_HELP = {
    "zh": "牌的写法：3–9、T（或 10）、J、Q、K、A、2、B（小王）、R（大王），例如 KK、22777、BB888",
    "en": "cards are written 3-9, T (or 10), J, Q, K, A, 2, B (small joker), R (big joker), e.g. KK, 22777, BB888",
}


def refusal_text(exc: Exception, lang: str) -> str:
    """Why ``exc`` refused an action or cards, in ``lang`` (``zh`` or ``en``)."""
    if isinstance(exc, IllegalActionError):
        template = ZH.get(exc.code) if lang == "zh" else MESSAGES.get(exc.code)
        if template is not None:
            try:
                return template.format(**exc.params)
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
