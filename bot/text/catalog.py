"""Every text the bot shows, in Chinese and English, in one place.

``text(lang, key, **params)`` formats a message; ``lang_of(locale)`` maps a Discord locale to
``"zh"`` or ``"en"``; ``error_text(exc, lang)`` turns a :class:`~bot.service.errors.UserError` or an
engine error into a reply (engine errors by their ``code``/``params`` from the one refusal
table, :data:`bot.text.refusals.ZH`, else their English message). Command names and
descriptions: :mod:`bot.text.commands`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bot.text.ratings import TEXTS as RATING_TEXTS
from bot.text.refusals import template_of, worded
from engine.scoring import PLACE_NAMES, PLACE_NAMES_EN

LANGS = ("zh", "en")
#: each language by its own name
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}


# key -> (zh, en)
CATALOG: dict[str, tuple[str, str]] = {
    # ---- refusals
    "guild_only": ("请在服务器的频道里用这个命令。", "Use this command in a server channel."),
    "no_table": (
        "这个频道没有牌桌：用 /gouji new 开一桌。",
        "There is no table in this channel: open one with /gouji new.",
    ),
    "table_exists": (
        "这个频道已经有一桌了：用 /gouji join 入座。",
        "This channel already has a table: use /gouji join to sit down.",
    ),
    "channel_not_allowed": (
        "这个服务器的牌桌只能开在：{channels}。",
        "On this server tables may open only in: {channels}.",
    ),
    "not_seated": (
        "你不在这一桌：用 /gouji join 入座。",
        "You are not seated at this table: use /gouji join to sit down.",
    ),
    "already_seated": ("你已经坐在 {seat} 号位了。", "You already sit in seat {seat}."),
    "seat_taken": (
        "{seat} 号位已经有人（{who}）：换个座位，或不填座位坐下一个空位。",
        "Seat {seat} is taken ({who}): pick another seat, or leave it out to take the next free one.",
    ),
    "table_full": (
        "六个座位都有人了。",
        "All six seats are taken.",
    ),
    "only_creator": (
        "只有开桌的 {creator} 可以这样做。",
        "Only the table's creator, {creator}, can do that.",
    ),
    "end_denied": (
        "只有开桌的 {creator} 或有「管理频道」权限的人可以结束牌桌。",
        "Only the table's creator, {creator}, or someone with Manage Channels can end the table.",
    ),
    "config_denied": (
        "只有有「管理服务器」权限的人可以改设置。",
        "Only someone with Manage Server can change the settings.",
    ),
    "need_six": (
        "还有 {missing} 个空位：用 /gouji join 入座，或 /gouji ai add 补上 AI。",
        "{missing} seat(s) are empty: sit down with /gouji join, or fill them with /gouji ai add.",
    ),
    "series_running": (
        "正在打牌：等这局打完，或由开桌人 /gouji end。",
        "A game is in progress: wait for it to end, or the creator can /gouji end it.",
    ),
    "not_started": (
        "六人已经坐满，等开桌的 {creator} 用 /gouji start 开局。",
        "All six are seated: the game starts when the table's creator, {creator}, types "
        "/gouji start.",
    ),
    "series_over": (
        "这一场五局已经打完了：用 /gouji again 同样的座位再来一场，/gouji series 看比分。",
        "The series is over: /gouji again plays another with the same seats, "
        "/gouji series shows the scores.",
    ),
    "game_over": (
        "这一局已经打完了：用 /gouji again 同样的座位再来一局。",
        "The game is over: /gouji again plays another with the same seats.",
    ),
    "hand_played_out": (
        "你这一局已经没有牌了（走科了，或革命了）：等其他人打完这一局。",
        "You have no cards left in this game (you went out, or revolted): the others finish it.",
    ),
    "no_series_before": (
        "这桌还没打完过牌局：用 /gouji start 开局。",
        "This table has not finished a game yet: start one with /gouji start.",
    ),
    "not_your_turn": (
        "还没轮到你 —— {seat} 号位（{who}）出牌。",
        "Not your turn — seat {seat} ({who}) plays.",
    ),
    "not_your_turn_many": (
        "还没轮到你 —— 在等：{who}。",
        "Not your turn — waiting for: {who}.",
    ),
    "wrong_phase": (
        "现在不能这样做：{what}",
        "You cannot do that now: {what}",
    ),
    "bad_cards": (
        "看不懂「{typed}」：牌写成 3-9、T（或 10）、J、Q、K、A、2、B（小王）、R（大王），例如 KK 或 22777。",
        "Cannot read “{typed}”: write cards as 3-9, T (or 10), J, Q, K, A, 2, B (small joker), "
        "R (big joker), e.g. KK or 22777.",
    ),
    "not_a_hand": (
        "{cards} 不是一手牌：同一点数（2 可以当任意点数，王可以挂上），例如 KK、777 + 22、小王 + 888。",
        "{cards} is not one hand: cards of one rank (2s as wildcards, jokers attached), e.g. "
        "KK, 777 + 22, small joker + 888.",
    ),
    "not_held": (
        "你手里没有 {cards}：用 /gouji hand 看看手牌。",
        "You do not hold {cards}: see your cards with /gouji hand.",
    ),
    "not_legal": (
        "{cards} 现在不能出：{why}。打 /gouji play 时会列出能出的牌。",
        "{cards} cannot be played now: {why}. /gouji play lists what you can play.",
    ),
    "stale_prompt": (
        "这个问题已经答过了：看最新的私信，或用 /gouji 命令。",
        "That question is already answered: use your newest DM, or the /gouji commands.",
    ),
    # how a question is answered in Discord, after a refusal of its code (replies.refusal)
    "how_declare_time": (
        "按「宣点」或「不宣」，或打 /gouji answer。",
        "Press Declare or Do not declare, or type /gouji answer.",
    ),
    "how_revolt_time": (
        "按「革命」或「不革命」，或打 /gouji answer。",
        "Press Revolt or Do not revolt, or type /gouji answer.",
    ),
    "how_answer_burn": (
        "在烧牌菜单里选一手（或打 /gouji burn），或按「不烧」（或 /gouji answer 选不烧）。",
        "Pick a play in the burn menu (or type /gouji burn), or press No burn (or /gouji "
        "answer: no burn).",
    ),
    "bad_answer": (
        "没有这个回答：用 /gouji answer 从列表里选（宣点、不宣、革命、不革命、要头、无头、不烧）。",
        "There is no such answer: pick one from the list of /gouji answer (declare, do not "
        "declare, revolt, do not revolt, keep the head, headless, no burn).",
    ),
    "nothing_to_do": (
        "现在没有要你做的事。",
        "There is nothing for you to do now.",
    ),
    "not_standin": (
        "没有 AI 替你打：座位本来就是你的。",
        "No AI is playing for you: the seat is yours.",
    ),
    "seat_not_ai": ("{seat} 号位不是 AI。", "Seat {seat} is not an AI."),
    "no_empty_seat": ("没有空位可以补 AI 了。", "There is no empty seat to fill with an AI."),
    "unknown_ai": (
        "没有叫“{name}”的电脑：可选 简单、普通、困难。",
        "There is no AI called “{name}”: choose easy, normal or hard.",
    ),
    "no_record": (
        "还没有打完的牌局：记录只在一局打完后才给（记录里有所有手牌）。",
        "No game has finished yet: a record is given only once a game is over (it holds every hand).",
    ),
    "no_series": ("这桌还没有开局。", "Nothing has started at this table yet."),
    "table_broken": (
        "这一桌出了问题，已经停用（原因记在机器人的日志里）。用 /gouji new 重新开一桌。",
        "This table ran into a problem and was stopped (the reason is in the bot's log). "
        "Open a new one with /gouji new.",
    ),
    "db_waiting": (
        "这一桌在等数据库恢复：刚才的操作没有生效，过一会儿再试。牌局会从记录接着打，什么都不会丢。",
        "The table is waiting for its database: that was not done, try again in a moment. "
        "The game goes on from its log once it is back; nothing is lost.",
    ),
    "db_down": (
        "数据库暂时没有响应：没有开桌，过一会儿再试。",
        "The database is not answering right now: no table was opened, try again in a moment.",
    ),
    "table_moved": (
        "这一桌已经交给机器人的另一个进程了：过一会儿再试。",
        "This table is now served by another process of the bot: try again in a moment.",
    ),
    "left_table": (
        "你已经中途离开了这一局（扣 10 分），{seat} 号位由 AI 接着打，这局结束前不能再出牌、看手牌或要提示。",
        "You left this game (−10): the AI plays seat {seat} until it ends, so you can no "
        "longer play, hint or see its hand.",
    ),
    "bad_seat": ("没有 {seat} 号位：座位是 0 到 5。", "There is no seat {seat}: seats are 0 to 5."),
    "bad_option": ("选项不对：{what}", "Bad option: {what}"),
    "engine": ("不行：{message}", "{message}"),
    "internal": (
        "出错了，这次操作可能没有完成：用 /gouji hand 看看现在的状态。",
        "Something went wrong and this may not have been done: check with /gouji hand.",
    ),
    # ---- answers to commands
    "table_opened": (
        "{user} 开了一桌（{mode}）。用 /gouji join 入座，/gouji ai add 补 AI，六人坐满后开桌人 /gouji start。",
        "{user} opened a table ({mode}). Sit down with /gouji join, fill seats with /gouji ai add; "
        "once six are seated the creator starts with /gouji start.",
    ),
    "mode_series": ("进贡局：五局", "a five-game tribute series"),
    "mode_single": ("单局", "single game"),
    "mode_turn": ("每步 {seconds} 秒", "{seconds} s a turn"),
    "house_rules": ("本桌规则：{rules}", "House rules: {rules}"),
    "rules_table": (
        "**本桌的规则**（* 与标准不同）：\n{lines}",
        "**This table's rules** (* differs from the standard):\n{lines}",
    ),
    "joined": ("{user} 坐到 {seat} 号位。", "{user} sits down in seat {seat}."),
    "join_after_game": (
        "{user} 会在这一局结束后接替 {seat} 号位的 AI。",
        "{user} takes over seat {seat} from the AI when this game ends.",
    ),
    "left_lobby": ("{user} 离开了 {seat} 号位。", "{user} left seat {seat}."),
    "left_game": (
        "{user} 中途离开（扣 10 分），AI 接替 {seat} 号位。",
        "{user} left the game (−10); the AI plays seat {seat}.",
    ),
    "ai_added": ("AI 坐到了 {seats} 号位。", "AI players sit in seat(s) {seats}."),
    "ai_removed": ("AI 离开了 {seats} 号位。", "The AI left seat(s) {seats}."),
    "started": (
        "开局！第 {number}/{total} 局发牌了，看私信里的手牌。",
        "Game {number} of {total} is dealt: your hand is in your DMs.",
    ),
    "started_single": (
        "开局！发牌了，看私信里的手牌。",
        "The game is dealt: your hand is in your DMs.",
    ),
    "started_again": (
        "新的一场开始了：第 {number}/{total} 局发牌了，看私信里的手牌。",
        "A new series begins: game {number} of {total} is dealt, your hand is in your DMs.",
    ),
    "started_again_single": (
        "再来一局：发牌了，看私信里的手牌。",
        "Another game is dealt: your hand is in your DMs.",
    ),
    "ended": ("牌桌结束了。", "The table has ended."),
    "ended_idle": ("牌桌太久没人动，自动结束了。", "The table was idle too long and has ended."),
    "back": ("{user} 拿回了 {seat} 号位。", "{user} takes seat {seat} back."),
    "done": ("好的。", "Done."),
    "played": ("你出了 {cards}。", "You played {cards}."),
    "passed": ("你过牌了。", "You passed."),
    "yielded": ("你让牌了。", "You yielded."),
    "burned": ("你要烧：{cards}。", "You burn with {cards}."),
    "noburned": ("你不烧。", "You do not burn."),
    "declared": ("你宣点了。", "You declared."),
    "nodeclared": ("你不宣点。", "You do not declare."),
    "revolted": ("你革命了。", "You revolt."),
    "norevolted": ("你不革命。", "You do not revolt."),
    "keptheaded": ("你要头。", "You keep the head (要头)."),
    "nokeptheaded": ("你无头。", "You go headless (无头)."),
    "returned": ("你还了 {cards}。", "You returned {cards}."),
    "hint": ("提示：{action}", "Hint: {action}"),
    "hint_pass": ("过牌", "pass"),
    "hint_play": ("出 {cards}", "play {cards}"),
    "hint_yield": ("让牌", "yield"),
    "hint_burn": ("烧 {cards}", "burn with {cards}"),
    "hint_noburn": ("不烧", "do not burn"),
    "act_return": ("还 {cards}", "return {cards}"),
    "act_declare": ("宣点", "declare"),
    "act_nodeclare": ("不宣点", "do not declare"),
    "act_revolt": ("革命", "revolt"),
    "act_norevolt": ("不革命", "do not revolt"),
    "act_keephead": ("要头", "keep the head (要头)"),
    "act_nokeephead": ("无头", "go headless (无头)"),
    "record_file": (
        "牌局记录（用 gouji replay 文件名 重放）：{name}",
        "The record (replay it with gouji replay FILE): {name}",
    ),
    "hand_caption": ("你的手牌（{table}）", "Your hand ({table})"),
    "config_saved": ("已保存：{what}", "Saved: {what}"),
    "config_show": (
        "**本服务器的设置**\n频道里用的语言：{language}\n可以开桌的频道：{channels}\n"
        "新牌桌的设置（* 是本服务器改过的，/gouji new 还可以再改）：\n{settings}",
        "**This server's settings**\nLanguage of the channel messages: {language}\n"
        "Channels where tables may open: {channels}\n"
        "New tables start with (* set by this server; /gouji new may change them):\n{settings}",
    ),
    "config_language": (
        "频道里用的语言：{language}",
        "language of the channel messages: {language}",
    ),
    "config_channel_on": ("{channel} 可以开桌", "tables may open in {channel}"),
    "config_channel_off": ("{channel} 不再开桌", "no more tables in {channel}"),
    "anywhere": ("任何频道", "any channel"),
    "score_caption": ("{user}：{score} 分，{title}", "{user}: {score} points, {title}"),
    "rules": (
        "**够级规则（简要）**\n"
        "六人两队：0、2、4 号位对 1、3、5 号位，隔两人的是**对家**；四副牌，每人 36 张。\n"
        "**一手牌**：同一点数的牌；2 可以当任意点数，王可以挂上。管牌要张数相同、每张都更大。\n"
        "**够级牌**（只有对家能管，别人只能**烧**）：10×5、J×4、Q×3、K×2、A×2、任何 2、带王的牌。\n"
        "打出够级牌没人管就是**开点**。先出完的是头科，然后二科、三科、四科、二落，最后大落。\n"
        "**名次分**：头科 +4 · 二科 +2 · 三科 0 · 四科 0 · 二落 −2 · 大落 −4；"
        "每张贡牌付的 −1、收的 +1。\n"
        "**个人积分**就是本队三个座位分的和（输赢按队算），中途离开 −10。\n"
        "**进贡局**：五局；下一局开始前进贡——闷贡、烧贡、点贡、落贡（大落给头科 2 张，"
        "二落给二科 1 张，收的人还贡）。串三户：下一局不进贡，名次分翻倍。{link}",
        "**Gouji in short**\n"
        "Six players, two teams: seats 0, 2, 4 against 1, 3, 5; the seat three away is your "
        "**opposite**. Four decks, 36 cards each.\n"
        "**A hand** is cards of one rank; 2s are wildcards, jokers may be attached. Beat it with "
        "as many cards, each higher.\n"
        "**Gouji hands** (only the opposite may answer; others may only **burn** them): five 10s, "
        "four Js, three Qs, two Ks or As, any 2, anything with a joker.\n"
        "A gouji hand nobody answers **opens the point** (开点). First out is 头科, then 二科, "
        "三科, 四科, 二落, last 大落.\n"
        "**Place points**: 头科 +4 · 二科 +2 · 三科 0 · 四科 0 · 二落 −2 · 大落 −4; each tribute "
        "card −1 to the payer, +1 to the receiver.\n"
        "**Your points** are your team's three seat points together (teams win and lose "
        "together); leaving a game costs −10.\n"
        "**A series** is five games; before each next game tribute is paid (stifled, burned, "
        "point, and place tribute: 大落 gives 头科 2 cards, 二落 gives 二科 1, returned). "
        "串三户 (a sweep): no tribute next game, place points doubled.{link}",
    ),
    "rules_link": ("\n完整规则：{url}", "\nThe full rules: {url}"),
    "help": (
        "/gouji new 开桌 · join 入座 · ai add 补 AI · start 开局 · play 出牌（会列出能出的牌）· pass 过牌 · "
        "yield 让牌 · burn 烧牌 · answer 回答（宣点、革命、要头、不烧）· return 还贡 · hint 提示 · "
        "hand 手牌和操作 · back 拿回托管 · series 记分板 · score 个人 · "
        "top 排行 · record 记录 · rules 规则 · leave 离开 · end 结束 · config 设置（管理员）",
        "/gouji new opens a table · join · ai add fills seats · start · play (lists your legal "
        "plays) · pass · yield · burn · answer (declare, revolt, keep the head, no burn) · "
        "return (tribute) · hint · hand (your cards and controls) · back takes your "
        "seat back from the AI · series (the scoreboard) · score · top · record · rules · leave · "
        "end · config (admins). Your hand and what you may do are in your DMs.",
    ),
    # ---- channel announcements (server language)
    "your_turn": ("{user} 该你了。", "{user}, your turn."),
    "your_turn_many": ("{users}：请在私信里作答。", "{users}: please answer in your DMs."),
    "your_turn_hand": (
        "{users}：轮到你了，用 /gouji hand 作答。",
        "{users}: your turn, answer with /gouji hand.",
    ),
    "warning": ("{user} 还剩 {seconds} 秒。", "{user}, {seconds} s left."),
    "warning_mention": ("{user}：时间快到了。", "{user}: your time is nearly up."),
    "timeout_standin": (
        "{user} 连续超时，AI 接手打这个座位；用 /gouji back 拿回来。",
        "{user} timed out twice in a row: the AI plays for them until /gouji back.",
    ),
    "use_hand": (
        "{user} 没法收私信：用 /gouji hand 看手牌（问你的问题也在那里回答），用 /gouji play 出牌。",
        "{user} does not accept DMs: use /gouji hand to see your cards (and to answer what you "
        "are asked) and /gouji play to play.",
    ),
    "ev_declared": ("宣点：{users}。", "Declared: {users}."),
    "ev_revolt": ("{user} 革命！", "{user} revolts!"),
    "ev_void": ("两人以上革命，重新发牌。", "Two or more revolted: the cards are dealt again."),
    "ev_gouji": ("{user} {what}（够级牌）", "{user}: {what} (a gouji hand, 够级牌)"),
    "ev_open": ("{user} 开点！", "{user} opens the point (开点)!"),
    "ev_burn": ("{user} 烧了 {victim} 的牌！", "{user} burns {victim}'s hand (烧牌)!"),
    "ev_burn_broken": ("解烧！{user} 的烧没成。", "Burn broken (解烧): {user}'s burn failed."),
    "ev_burn_success": ("{user} 烧成了！", "{user}'s burn succeeds!"),
    "ev_burn_failed": (
        "烧失败！{user} 没烧完，走科垫底。",
        "Failed burn (烧失败): {user} takes the lowest free place and is out.",
    ),
    "ev_keephead": (
        "{user} 要头：前三手够级牌够死级，只能烧。",
        "{user} keeps the head (要头): their first three gouji hands can only be burned.",
    ),
    "ev_nokeephead": ("{user} 无头。", "{user} goes headless (无头)."),
    "ev_stifle": ("{user} 被 {by} 闷了！", "{user} is stifled (闷) by {by}!"),
    "ev_finish": ("{user} 走科：{place}。", "{user} is out: {place}."),
    "ev_melee": ("四户乱缠！", "Four-way melee (四户乱缠)!"),
    "ev_tribute": ("进贡：{lines}", "Tribute: {lines}"),
    "ev_game_over": (
        "**第 {number} 局结束**：{places}\n本局队伍积分：{teams}",
        "**Game {number} is over**: {places}\nTeam points this game: {teams}",
    ),
    "ev_result_opened": ("开点：{users}", "Opened the point (开点): {users}"),
    "ev_result_burns": ("烧成：{users}", "Burned (烧成): {users}"),
    "ev_result_stifled": ("被闷：{users}", "Stifled (闷): {users}"),
    "ev_tribute_owed": ("下一局进贡：{lines}", "Tribute owed next game: {lines}"),
    "ev_sweep": (
        "串三户！本局名次分翻倍，下一局不进贡。",
        "Sweep (串三户)! This game's place points are doubled; no tribute next game.",
    ),
    "ev_series_over": (
        "**进贡局结束！** 个人积分（即本队积分）：{totals}",
        "**The series is over!** Player points (each the team's points): {totals}",
    ),
    "ev_titles": ("称号：{titles}", "Titles: {titles}"),
    "ev_next_game": ("第 {number} 局发牌了。", "Game {number} is dealt."),
    "ev_again": ("再来一个进贡局：/gouji again。", "Another series: /gouji again."),
    "ev_again_single": ("再来一局：/gouji again。", "Another game: /gouji again."),
    # ---- DM prompts
    "dm_where": ("{guild} #{channel}", "{guild} #{channel}"),
    "dm_hand": ("你的手牌 · {where}", "Your hand · {where}"),
    "dm_declare": ("宣点吗？（对家本局开不了点的赌注）", "Declare (宣点)?"),
    "dm_revolt": (
        "你没有 2 也没有王：革命吗？",
        "You hold no 2 and no joker: revolt (革命)?",
    ),
    "dm_return": (
        "还贡：选 {n} 张还给 {who}",
        "Return tribute (还贡): choose {n} card(s) for {who}",
    ),
    "dm_burn": (
        "可以烧 {who} 的 {cards}：选一手烧，或不烧（{seconds} 秒）",
        "You may burn {who}'s {cards}: pick a play, or do not burn ({seconds} s)",
    ),
    "dm_turn": ("该你出牌了", "Your turn"),
    "dm_head": (
        "对家革命了（够死级）：要头还是无头？要头：你前三手够级牌别人只能烧；时间到不答算无头",
        "Your opposite revolted (够死级): keep the head (要头) or go headless (无头)? Keep it: "
        "your first three gouji hands can only be burned; no answer in time: headless",
    ),
    "btn_declare": ("宣点", "Declare"),
    "btn_nodeclare": ("不宣", "Do not declare"),
    "btn_revolt": ("革命", "Revolt"),
    "btn_norevolt": ("不革命", "Do not revolt"),
    "btn_keephead": ("要头", "Keep the head (要头)"),
    "btn_nokeephead": ("无头", "Headless (无头)"),
    "btn_noburn": ("不烧", "No burn"),
    "btn_pass": ("过牌", "Pass"),
    "btn_yield": ("让牌", "Yield"),
    "btn_hint": ("提示", "Hint"),
    "btn_table": ("牌桌", "Table"),
    "btn_play_hint": ("出提示的牌", "Play the hint"),
    "select_return": ("选要还的牌", "Cards to return"),
    "select_burn": ("选一手烧", "Pick a burning play"),
    # ---- the DM hand controller (one message per player per game, edited in place)
    "ctl_title": ("**你的手牌（{count}）** · {where}", "**Your hand ({count})** · {where}"),
    "ctl_wait": ("等 {who}", "Waiting for {who}"),
    "ctl_standing": ("桌上：{who}（{rel}）出的 {cards}", "On the table: {cards} by {who} ({rel})"),
    "ctl_lead": ("桌上没有牌：你发牌", "The table is empty: you lead"),
    "ctl_left": ("余牌：{counts}", "Cards left: {counts}"),
    "ctl_use_hand": (
        "在 {channel} 用 /gouji hand 出牌（这一桌的私信按钮收不到）",
        "Play with /gouji hand in {channel} (this table cannot take presses in DMs)",
    ),
    "ctl_clock": ("⏱ 时限 {when}", "⏱ The clock runs out {when}"),
    "ctl_table_ended": ("这一桌已结束。", "This table has ended."),
    "ctl_warning": ("⏰ 还剩 {seconds} 秒！", "⏰ {seconds} s left!"),
    "ctl_clock_played": ("⏱ 时间到，自动{what}。", "⏱ Time ran out, done for you: {what}."),
    "ctl_standin": (
        "🤖 连续两次超时：AI 接着替你打，在频道用 /gouji back 拿回来。",
        "🤖 Two timeouts in a row: the AI plays on for you until you use /gouji back in the channel.",
    ),
    "ctl_game_over": ("本局结束。", "This game is over."),
    "rel_teammate": ("队友", "teammate"),
    "rel_opposite": ("对家", "opposite"),
    "rel_opponent": ("对手", "opponent"),
    "rel_you": ("你", "you"),
    "btn_other": ("其他出法…", "Other play…"),
    "select_play": ("选一手出（最有用的在前）", "Pick a play (most useful first)"),
    "modal_play": ("出牌", "Play cards"),
    "modal_burn": ("烧牌", "Burn"),
    "modal_cards": (
        "牌，如 KK、8888822、五个8两个2、10 10 10 小王",
        "Cards, e.g. KK, 8888822, five 8s two 2s, 10 10 10 B",
    ),
    # ---- the card picker (bot.discord_bot.picker): any play in three picks
    "select_play_cut": (
        "选一手出：这里只列出 {shown} / {total} 种，所有出法按点数在下面选",
        "Pick a play: showing {shown} of {total} plays (every play: pick a rank below)",
    ),
    "select_burn_cut": (
        "选一手烧：这里只列出 {shown} / {total} 种，所有烧法按点数在下面选",
        "Pick a burning play: showing {shown} of {total} (every one: pick a rank below)",
    ),
    "select_rank": ("按点数选：看这个点数的所有出法", "By rank: every play with that rank"),
    "pick_page": (
        "{rank} 的出法：第 {first}–{last} / {total} 种",
        "Plays with {rank}: {first}–{last} of {total}",
    ),
    "pick_groups": (
        "{rank} 的出法：先选张数（再选挂不挂王）",
        "Many plays with {rank}: pick how many first (then the jokers)",
    ),
    "pick_group": ("{cards}（挂王或不挂）", "{cards} (with or without jokers)"),
    "btn_back": ("上一步", "Back"),
    "ev_clock_played": ("⏱ {user} 超时，自动{what}", "⏱ {user} ran out of time: {what}"),
    "ai_name": ("AI {seat}", "AI {seat}"),
    "seat_empty": ("（空）", "(empty)"),
    "table_caption": ("第 {number}/{total} 局", "Game {number}/{total}"),
    # ---- 录像 (replay) and 复盘 (review)
    "replay_caption": ("录像 · 第 {step} 步 / {steps}", "Replay · step {step} / {steps}"),
    "replay_seat": ("座位 {seat}", "Seat {seat}"),
    "replay_ai": ("AI {seat}", "AI {seat}"),
    "replay_title": (
        "录像 · 第 {number} 局（桌 {table}）· 第 {step} / {steps} 步",
        "Replay · game {number} (table {table}) · step {step} / {steps}",
    ),
    "replay_jump": ("跳到…", "Jump to…"),
    "replay_round": (
        "第 {number} 轮 · {seat} 领出（第 {step} 步）",
        "Round {number} · {seat} leads (step {step})",
    ),
    "replay_open": ("开点 · {seat}（第 {step} 步）", "开点 open · {seat} (step {step})"),
    "replay_burn": (
        "烧牌 · {seat} 烧 {other}（第 {step} 步）",
        "Burn · {seat} burns {other} (step {step})",
    ),
    "replay_burn_end": ("烧牌结束 · {seat}（第 {step} 步）", "Burn over · {seat} (step {step})"),
    "replay_finish": (
        "走科 · {seat} 第 {place} 名（第 {step} 步）",
        "Out · {seat} place {place} (step {step})",
    ),
    "replay_melee": ("四户乱缠（第 {step} 步）", "Four-way melee 四户乱缠 (step {step})"),
    "replay_none": (
        "这个频道还没有打完的牌局可以看录像。",
        "No finished game in this channel to replay yet.",
    ),
    "replay_unknown": (
        "找不到这局：从列表里选一局打完的牌局。",
        "No such game: choose a finished game from the list.",
    ),
    "replay_unfinished": (
        "这局还没打完：只有打完的牌局能看录像或复盘（录像里能看到每家的牌）。",
        "That game is not over: only a finished game can be replayed or reviewed (a replay shows every hand).",
    ),
    "replay_choice": (
        "桌 {table} · 第 {number} 局 · {when}",
        "table {table} · game {number} · {when}",
    ),
    "review_not_player": (
        "只有这局的玩家能复盘它。",
        "Only a player of that game can review it.",
    ),
    "review_working": (
        "复盘中…（AI 把你的每个决定推演到终局，要一会儿）",
        "Reviewing… (the AI plays each of your decisions out to the end; this takes a moment)",
    ),
    "review_title": (
        "复盘 · 第 {number} 局（桌 {table}）· {seat} 号位：{decisions} 个决定，最亏的 {count} 个：",
        "Review · game {number} (table {table}) · seat {seat}: {decisions} decisions, the costliest {count}:",
    ),
    "review_item": (
        "**{n}.** 第 {step} 步（{facing}）：你 {did} — AI：{suggested}；约亏 {cost:.1f} ± {margin:.1f} 队分（{worlds} 种猜测的牌）",
        "**{n}.** step {step} ({facing}): you {did} — the AI: {suggested}; costs {cost:.1f} ± {margin:.1f} team points ({worlds} guessed deals)",
    ),
    "review_leading": ("领出", "leading"),
    "review_picture": ("第 {step} 步 · 你的牌（领出）", "Step {step} · your hand (leading)"),
    "review_picture_facing": (
        "第 {step} 步 · 你的牌 · 面对 {seat} 号位的 {cards}",
        "Step {step} · your hand · facing {cards} of seat {seat}",
    ),
    "review_facing": ("面对 {seat} 的 {cards}", "facing {cards} of {seat}"),
    "review_none": (
        "复盘完毕（{decisions} 个决定）：没有哪一步明显比 AI 的选择亏分。打得好！",
        "Review done ({decisions} decisions): no decision cost clearly more than the strong AI's choice. Well played!",
    ),
    "review_open": ("第 {n} 条：看录像（只有你能看到）", "#{n}: open the replay (only you see it)"),
    # ---- the browser table (bot/web) and its links: issue #23 ----------------------------
    "bad_link": (
        "这个链接不对：请用发给你的牌桌链接。",
        "This link is not valid: use the table link you were given.",
    ),
    "link_expired": (
        "这个链接过期了：在 Discord 里用 /gouji hand 拿一个新的。",
        "This link has expired: get a new one with /gouji hand on Discord.",
    ),
    "web_no_table": ("这一桌已经结束了。", "This table has ended."),
    "web_spectator": ("你在观战：不能出牌。", "You are watching: you cannot play."),
    "web_bad_message": ("看不懂这个请求。", "That request was not understood."),
    "web_link_button": ("在浏览器里打开牌桌", "Open the table in your browser"),
    "web_title": ("够级", "Gouji"),
    "web_play": ("出牌", "Play"),
    "web_burn": ("烧", "Burn"),
    "web_return": ("还贡", "Return"),
    "web_select": ("点牌选牌", "Tap cards to choose"),
    "web_not_a_play": ("不是能出的牌", "Not a legal play"),
    "web_pick_return": ("选了 {chosen}/{n} 张", "{chosen} of {n} chosen"),
    "web_clear": ("重选", "Clear"),
    "web_watching": ("观战中", "Watching"),
    "web_you": ("你", "You"),
    "web_reconnecting": ("连接断了，正在重连…", "Connection lost, reconnecting…"),
    "web_gone": ("牌桌不在了：{reason}", "The table is gone: {reason}"),
    "web_waiting_players": ("等玩家到齐后开局…", "The game starts when every player is here…"),
    "web_series_over": ("这一场打完了。", "The series is over."),
    "web_again": ("再来一场", "Play again"),
    "web_back": ("拿回来自己打", "Take your seat back"),
    "web_standing_in": ("AI 在替你打（托管）。", "The AI is playing for you (托管)."),
    "web_auto": ("托管", "Auto-play"),
    "web_lang": ("English", "中文"),
    "web_score": ("积分", "Score"),
    "web_seconds": ("{n} 秒", "{n} s"),
    "web_spectate_link": ("观战链接：{url}", "Spectator link: {url}"),
    "web_seat_link": ("{seat} 号位（{name}）：{url}", "Seat {seat} ({name}): {url}"),
    # the Discord Activity's sign-in refusals (bot/web/activity.py): the page shows them
    "web_activity_bad_code": (
        "没能进入牌桌：请在 Discord 里重新打开。",
        "Signing in did not work: open the table again from Discord.",
    ),
    "web_activity_bad_token": (
        "Discord 没有认出你：请在 Discord 里重新打开牌桌。",
        "Discord did not recognise you: open the table again from Discord.",
    ),
    "web_activity_not_in_instance": (
        "只有在 Discord 里打开了这一桌的人才能进来。",
        "Only people who opened this table in Discord may come in.",
    ),
    "web_activity_no_instance": (
        "Discord 里的这一桌已经结束了：请重新打开牌桌。",
        "This table's window in Discord has closed: open the table again.",
    ),
    "web_activity_no_table": (
        "这个频道没有牌桌：用 /gouji new 开一桌。",
        "There is no table in this channel: open one with /gouji new.",
    ),
    "web_activity_elsewhere": (
        "这一桌由这个机器人的另一个进程在打：请用私信里的手牌或 /gouji hand。",
        "This table is run by another of the bot's processes: play from your DM hand or /gouji hand.",
    ),
    "web_activity_unavailable": (
        "Discord 暂时没有回应：请过一会儿再试。",
        "Discord is not answering right now: try again in a moment.",
    ),
    "web_activity_off": (
        "这个机器人不能在 Discord 里打开牌桌。",
        "This bot does not open tables inside Discord.",
    ),
    # ---- end of the browser table's texts ------------------------------------------------
    # ---- the table as a Discord Activity (the launch button): issue #24 -------------------
    "activity_button": ("打开牌桌", "Open the table"),
    "activity_help": (
        "**在 Discord 里打开牌桌**：点频道里牌桌下面、私信手牌下面或 `/gouji hand` 里的「打开牌桌」，"
        "整桌就在 Discord 里打开（电脑和手机都行），点牌出牌；坐着的人打自己的位子，别人观战。",
        "**The table inside Discord**: press **Open the table** under the table message, your "
        "DM hand or `/gouji hand`, and the whole table opens inside Discord (desktop or "
        "phone), where you tap your cards; a seated player plays their seat, anyone else watches.",
    ),
    "activity_failed": (
        "Discord 没能打开牌桌：这个机器人的 Discord Activity 还没有打开（开发者设置）。",
        "The table could not open inside Discord: this bot's Activity is not turned on.",
    ),
}


def lang_of(locale: object) -> str:
    """``"zh"`` for Chinese Discord locales (zh-CN, zh-TW) or language tags, else ``"en"``."""
    value = str(getattr(locale, "value", locale) or "")
    return "zh" if value.lower().startswith("zh") else "en"


CATALOG |= RATING_TEXTS


def text(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in."""
    zh, en = CATALOG[key]
    template = zh if lang == "zh" else en
    return template.format(**params)


TRIBUTE_KINDS = {
    "stifle": ("闷贡", "stifle tribute (闷贡)"),
    "burn": ("烧贡", "burn tribute (烧贡)"),
    "point": ("点贡", "point tribute (点贡)"),
    "place": ("落贡", "place tribute (落贡)"),
}


def tribute_kind(lang: str, kind: str) -> str:
    """The name of a kind of tribute owed (engine.scoring's kinds): 点贡, ``point tribute
    (点贡)``…"""
    zh, en = TRIBUTE_KINDS[kind]
    return zh if lang == "zh" else en


def place_name(lang: str, place: int | None) -> str:
    """头科 … 大落 for place 1 … 6; in English with the Chinese name: ``1st (头科)``; no
    place: ""."""
    if place is None:
        return ""
    if lang == "zh":
        return PLACE_NAMES[place]
    return f"{PLACE_NAMES_EN[place]} ({PLACE_NAMES[place]})"


@runtime_checkable
class Refusal(Protocol):
    """A refusal worded by this catalog: a message ``key`` and its ``params`` (the table
    service's ``UserError``)."""

    key: str
    params: dict[str, Any]


def error_text(exc: Exception, lang: str, name_of: Callable[[int], str] | None = None) -> str:
    """A short reply for a refused request, in ``lang``, its cards in words (and its seats
    named by ``name_of``, when given)."""
    from bot.text.cards import readable_params  # cards.py uses this module's text()

    if isinstance(exc, Refusal):
        return text(lang, exc.key, **readable_params(exc.params, lang))
    code = getattr(exc, "code", None)
    params = worded(readable_params(getattr(exc, "params", None) or {}, lang), lang, name_of)
    template = template_of(code, lang) if isinstance(code, str) else None
    if template is not None:
        try:
            if lang == "zh":
                return template.format(**params) + "。"
            # a sentence: capitalised before the names are put in (names keep their case)
            said = template[:1].upper() + template[1:]
            return text(lang, "engine", message=said.format(**params) + ".")
        except (KeyError, IndexError):
            pass
    message = str(exc)
    if lang != "zh" and message:
        message = message[0].upper() + message[1:] + "."
    return text(lang, "engine", message=message)
