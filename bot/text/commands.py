"""The Chinese names and descriptions of the /gouji commands (zh-CN, zh-TW).

Every command text is written in English in :mod:`bot.discord_bot.cog` as a ``locale_str``;
:class:`bot.discord_bot.translator.GoujiTranslator` gives Discord this Chinese for Chinese
clients, so each user sees the commands in their own language."""

from __future__ import annotations

from bot.text.options import VALUES
from engine.ai import DIFFICULTIES

_EASY, _NORMAL, _HARD = DIFFICULTIES
# /gouji ai add's kind: the levels with their measured strength, each against the one below
# (team points a game, duplicate deals: docs/ai.md). Discord allows 100 characters.
AI_STRENGTH = (
    f"AI strength: normal scores {_NORMAL.gain:.1f} team points a game more than easy, "
    f"hard {_HARD.gain:.1f} more than normal"
)

ZH: dict[str, str] = {
    # names (lowercase, as Discord requires)
    "gouji": "够级",
    "new": "开桌",
    "join": "入座",
    "leave": "离开",
    "ai": "电脑",
    "add": "加入",
    "remove": "移除",
    "start": "开局",
    "again": "再来",
    "end": "结束",
    "config": "设置",
    "help": "帮助",
    "play": "出牌",
    "pass": "过牌",
    "yield": "让牌",
    "burn": "烧牌",
    "hint": "提示",
    "hand": "手牌",
    "back": "接回",
    "answer": "回答",
    "return": "还贡",
    "choice": "选择",
    "score": "战绩",
    "top": "排行",
    "series": "记分板",
    "rules": "规则",
    "record": "记录",
    "replay": "录像",
    "review": "复盘",
    "game": "牌局",
    # option names
    "cards": "牌",
    "seat": "座位",
    "kind": "类型",
    "user": "玩家",
    "bie_san": "憋三",
    "turn_time": "每步秒数",
    "burn_time": "烧牌秒数",
    "auto_pass": "自动要不起",
    "counter": "记牌器",
    "language": "语言",
    "channel": "频道",
    "allow": "允许",
    "mention": "提及",
    "preset": "预设",
    "no_single_return": "不还单张",
    "tribute_cards": "贡牌",
    "gou_si_ji": "够死级",
    "burn_check": "烧牌条件",
    "open_rule": "开点",
    "standard (标准)": "标准",  # the preset's choice
    # choices
    "easy": "简单",
    "normal": "普通",
    "hard": "困难",
    "by": "排序",
    "points": "积分",
    "rating": "技术分",
    # /gouji answer's choices
    "declare (宣点)": "宣点",
    "do not declare (不宣)": "不宣",
    "revolt (革命)": "革命",
    "do not revolt (不革命)": "不革命",
    "keep the head (要头)": "要头",
    "headless (无头)": "无头",
    "no burn (不烧)": "不烧",
    # descriptions
    "Answer the question you are asked: 宣点, 革命, 要头, 不烧": "回答现在问你的：宣点、革命、要头、不烧",
    "Your answer": "你的回答",
    "Return tribute (还贡): the cards to give back": "还贡：要还回去的牌",
    "Cards, e.g. 34 or 3 4": "牌，例如 34",
    "Play Gouji (够级), the six-player team card game": "够级：六人两队的纸牌游戏",
    "Open a table in this channel": "在这个频道开一桌",
    "Sit down at the table (a seat, or the next free one)": "入座（指定座位，或下一个空位）",
    "Leave the table (during a game: −10, the AI plays on)": "离开（牌局中离开扣 10 分，AI 接替）",
    "AI players": "电脑玩家",
    "Fill a seat (or every empty seat) with an AI player": "让电脑坐一个座位（不填就坐满所有空位）",
    "Take an AI player off a seat (or off every seat)": "让电脑离开一个座位（不填就全部离开）",
    "Start the series (the table's creator, six seated)": "开局（开桌人，六人坐满）",
    "A new series with the same seats": "同样的座位再开一局",
    "End the table (its creator or Manage Channels)": "结束牌桌（开桌人或有管理频道权限的人）",
    "Server settings (Manage Server)": "服务器设置（需要管理服务器权限）",
    "How to play with the bot": "怎么用这个机器人",
    "Play cards (the list shows what you may play now)": "出牌（列表里是你现在能出的牌）",
    "Pass (过牌)": "过牌",
    "Yield (让牌) to your opposite's hand": "让牌（对家的牌）",
    "Burn (烧牌) the gouji hand just played": "烧刚出的够级牌",
    "What would you play? (提示)": "提示：该出什么",
    "Show your hand (only you see it)": "看手牌（只有你能看到）",
    "Take your seat back from the AI (托管)": "结束托管，接回座位",
    "Score, title, rating, games and places": "分数、称号、技术分、局数和名次",
    "Rank by points (积分) or by skill rating (技术分)": "按积分还是按技术分排",
    "The server leaderboard": "服务器排行榜",
    "The scoreboard of the current series": "进贡局的记分板",
    "A short summary of the rules": "规则简介",
    "The record file of the last finished game or series": "最近打完的一局或进贡局的记录文件",
    "Cards, e.g. KK or 22777": "牌，例如 KK 或 22777",
    "Seat 0-5 (teams: 0 2 4 and 1 3 5)": "座位 0-5（0 2 4 一队，1 3 5 一队）",
    AI_STRENGTH: (
        f"电脑水平：普通每局比简单多得 {_NORMAL.gain:.1f} 分，困难比普通多得 {_HARD.gain:.1f} 分"
        "（两队同牌对打实测）"
    ),
    "Whose profile (default: yours)": "看谁的（不填是你自己）",
    "Bie-san variant (憋三)": "憋三玩法",
    "Five-game tribute series (off: a single game)": "五局进贡（关掉就是单局）",
    "Seconds per turn": "每步的秒数",
    "Seconds to decide on a burn": "决定烧牌的秒数",
    "Pass at once when you cannot beat (要不起)": "要不起时自动过牌",
    "Show the card counter (记牌器)": "显示记牌器",
    "Mention the player in the channel at each turn (else: the DM only)": "每轮在频道里 @ 该出牌的人（否则只发私信）",
    "Language of the channel messages": "频道消息的语言",
    "A channel where tables may open (or may no longer)": "允许（或不再允许）开桌的频道",
    "Allow tables in that channel (false: stop)": "允许在那个频道开桌（关：不再允许）",
    "House rules preset (standard: the defaults)": "规则预设（标准：默认规则）",
    "No single return (不还单张)": "不还单张：还给对手的牌必须是他手里有的点数",
    "Tribute cards (贡牌)": "进贡进什么牌",
    "Gou si ji (够死级): 要头 after a revolution": "够死级：革命后对家可以要头",
    "Burn check (烧牌条件)": "烧牌条件",
    "Opening the point (开点)": "开点的条件",
    "Watch a finished game again, step by step (录像)": "按步重看一局打完的牌（录像）",
    "Your costliest decisions in a finished game (复盘, only you see it)": "复盘：一局打完的牌里你最亏分的决定（只有你能看到）",
    "A finished game (default: the last one of this channel)": "打完的一局（默认：这个频道最近一局）",
}
# the choices of the house rules that are not on/off: their words in both languages
ZH |= {en: zh for zh, en in VALUES.values()}
