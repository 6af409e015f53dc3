"""The house rules (docs/rules.en.md §9, :class:`engine.options.Options`) in words: each option's
name and values in zh/en, the line a table shows when its rules differ from the defaults, and
the `/gouji rules` answer for one table.

>>> house_rules("en", {"gou_si_ji": True, "open_rule": "wide"})
'够死级 (gou si ji), 开点 (opening): wide (宽开点)'
>>> house_rules("zh", {})
''
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.options import Options

#: option → (zh name, en name, zh description, en description)
NAMES: dict[str, tuple[str, str, str, str]] = {
    "bie_san": (
        "憋三",
        "憋三 (bie-san)",
        "3 只能最后出，买3/要3，闷贡",
        "3s only as the last hand",
    ),
    "no_single_return": (
        "不还单张",
        "不还单张 (no single return)",
        "还给对手的牌必须是进贡人手里有的点数",
        "a card returned to an opponent must be of a rank the payer holds",
    ),
    "tribute_cards": ("贡牌", "贡牌 (tribute cards)", "进贡进什么牌", "which cards are paid"),
    "gou_si_ji": (
        "够死级",
        "够死级 (gou si ji)",
        "革命后对家选要头/无头；头科、二科最后一手被对家管上只能烧",
        "after a revolution the opposite chooses 要头/无头; a finisher's last gouji hand "
        "beaten by the opposite can only be burned",
    ),
    "burn_check": (
        "烧牌条件",
        "烧牌条件 (burn check)",
        "能烧完才可以烧，或老规矩的套数算法（会烧失败）",
        "only burns that can be finished, or the seeds' count (burns may fail)",
    ),
    "open_rule": (
        "开点",
        "开点 (opening)",
        "严格：非单张、不带王的够级牌；宽：任何赢下一轮的够级牌",
        "strict: a gouji hand, not a single, no joker; wide: any gouji hand that wins its round",
    ),
}

#: (option, value) → (zh, en), for the options that are not on/off
VALUES: dict[tuple[str, str], tuple[str, str]] = {
    ("tribute_cards", "jokers_and_twos"): ("王和 2", "jokers and 2s"),
    ("tribute_cards", "biggest"): ("最大的牌", "the biggest cards"),
    ("burn_check", "completable"): ("能烧完", "completable"),
    ("burn_check", "seeds"): ("套数算法（可烧失败）", "the seeds' count (burns may fail)"),
    ("open_rule", "strict"): ("严格", "strict"),
    ("open_rule", "wide"): ("宽开点", "wide (宽开点)"),
}

#: the table's own settings (bot.service.live.TableOptions, beside the house rules) →
#: (zh name, en name), in the order `/gouji config` lists them
TABLE_NAMES: dict[str, tuple[str, str]] = {
    "series": ("五局进贡局", "five-game tribute series"),
    "turn_time": ("每步时间", "time per turn"),
    "burn_time": ("决定烧牌的时间", "time to decide on a burn"),
    "auto_pass": ("要不起自动过", "pass at once when you cannot beat (要不起)"),
    "counter": ("记牌器", "card counter (记牌器)"),
    "mention": ("轮到时在频道里 @", "mention in the channel at each turn"),
}
#: the settings given in seconds
SECONDS = frozenset({"turn_time", "burn_time"})


def value_text(lang: str, name: str, value: Any) -> str:
    """One option's value in ``lang``: on/off, or the choice's words."""
    if isinstance(value, bool):
        return ("开" if value else "关") if lang == "zh" else ("on" if value else "off")
    zh, en = VALUES[(name, value)]
    return zh if lang == "zh" else en


def setting_text(lang: str, name: str, value: Any) -> str:
    """Any table setting as ``name: value``, on/off said even when on (``决定烧牌的时间：20
    秒``, ``够死级 (gou si ji): on``): the table's own settings and the house rules alike."""
    zh, en = TABLE_NAMES[name] if name in TABLE_NAMES else NAMES[name][:2]
    if name in SECONDS:
        shown = f"{value} 秒" if lang == "zh" else f"{value} s"
    else:
        shown = value_text(lang, name, value)
    return f"{zh}：{shown}" if lang == "zh" else f"{en}: {shown}"


def settings_list(lang: str, settings: dict[str, Any], chosen: Iterable[str] = ()) -> str:
    """Every setting a table starts with, one ``- name: value`` line each (the table's own
    first, then the house rules), those in ``chosen`` marked `` *``.

    >>> print(settings_list("en", {"turn_time": 60, "gou_si_ji": False}, ["turn_time"]))
    - time per turn: 60 s *
    - 够死级 (gou si ji): off
    """
    marked = set(chosen)
    order = [*TABLE_NAMES, *NAMES]
    shown = [name for name in order if name in settings]
    return "\n".join(
        f"- {setting_text(lang, name, settings[name])}{' *' if name in marked else ''}"
        for name in shown
    )


def option_text(lang: str, name: str, value: Any) -> str:
    """``name: value`` in ``lang`` (an on/off option that is on: its name alone)."""
    label = NAMES[name][0 if lang == "zh" else 1]
    if value is True:
        return label
    sep = "：" if lang == "zh" else ": "
    return f"{label}{sep}{value_text(lang, name, value)}"


def house_rules(lang: str, changed: dict[str, Any]) -> str:
    """The house rules that differ from the defaults (``Options.changed()``), one line;
    empty when the table plays the defaults."""
    words = [option_text(lang, name, value) for name, value in changed.items()]
    return ("，" if lang == "zh" else ", ").join(words)


def rules_of(lang: str, options: Options) -> str:
    """`/gouji rules` for one table: every house rule in force, with what it means."""
    default = Options().to_json()
    lines = []
    for name, value in options.to_json().items():
        zh, en, zh_desc, en_desc = NAMES[name]
        mark = "" if value == default[name] else " *"
        shown = value_text(lang, name, value) + mark
        if lang == "zh":
            lines.append(f"- {zh}：{shown}（{zh_desc}）")
        else:
            lines.append(f"- {en}: {shown} ({en_desc})")
    return "\n".join(lines)
