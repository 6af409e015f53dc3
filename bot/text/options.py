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

from bot.text.langs import text
from engine.options import Options

#: the house rules, in the order `/gouji rules` lists them (their words: the catalogs'
#: ``option.NAME``, ``option.NAME.about`` and ``option.NAME.VALUE``)
NAMES = tuple(Options().to_json())
#: the table's own settings (bot.service.live.TableOptions, beside the house rules), in the
#: order `/gouji config` lists them (their words: ``option.NAME``)
TABLE_NAMES = ("series", "turn_time", "burn_time", "auto_pass", "counter", "mention")
#: the settings given in seconds
SECONDS = frozenset({"turn_time", "burn_time"})


def value_text(lang: str, name: str, value: Any) -> str:
    """One option's value in ``lang``: on/off, or the choice's words."""
    if isinstance(value, bool):
        return text(lang, "option.on" if value else "option.off")
    return text(lang, f"option.{name}.{value}")


def setting_text(lang: str, name: str, value: Any) -> str:
    """Any table setting as ``name: value``, on/off said even when on (``决定烧牌的时间：20
    秒``, ``够死级 (gou si ji): on``): the table's own settings and the house rules alike."""
    if name in SECONDS:
        shown = text(lang, "option.seconds", n=value)
    else:
        shown = value_text(lang, name, value)
    return text(lang, "option.setting", name=text(lang, f"option.{name}"), value=shown)


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
    label = text(lang, f"option.{name}")
    if value is True:
        return label
    return text(lang, "option.setting", name=label, value=value_text(lang, name, value))


def house_rules(lang: str, changed: dict[str, Any]) -> str:
    """The house rules that differ from the defaults (``Options.changed()``), one line;
    empty when the table plays the defaults."""
    words = [option_text(lang, name, value) for name, value in changed.items()]
    return text(lang, "sep.comma").join(words)


def rules_of(lang: str, options: Options) -> str:
    """`/gouji rules` for one table: every house rule in force, with what it means."""
    default = Options().to_json()
    lines = []
    for name, value in options.to_json().items():
        mark = "" if value == default[name] else " *"
        shown = value_text(lang, name, value) + mark
        about = text(lang, f"option.{name}.about")
        lines.append(
            text(
                lang,
                "option.rule_line",
                name=text(lang, f"option.{name}"),
                value=shown,
                about=about,
            )
        )
    return "\n".join(lines)
