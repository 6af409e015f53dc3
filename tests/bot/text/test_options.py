"""The house rules (docs/rules.en.md §9) in words: every engine option and value is named in both
languages; a table shows the rules that differ from the standard; `/gouji rules` lists a
table's rules and marks those."""

from __future__ import annotations

import pytest

from bot.text.options import NAMES, house_rules, rules_of, value_text
from engine.options import CHOICES, Options


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_option_and_value_has_words(lang: str) -> None:
    assert set(NAMES) == set(Options().to_json())
    for name, values in CHOICES.items():
        assert all(value_text(lang, name, v) for v in values)


def test_a_table_shows_only_the_rules_that_differ_from_the_standard() -> None:
    assert house_rules("zh", Options().changed()) == ""
    changed = Options(gou_si_ji=True, open_rule="wide", no_single_return=False).changed()
    assert house_rules("zh", changed) == "不还单张：关，够死级，开点：宽开点"
    assert house_rules("en", changed) == (
        "不还单张 (no single return): off, 够死级 (gou si ji), 开点 (opening): wide (宽开点)"
    )


def test_the_rules_of_a_table_list_every_option_and_mark_the_changed_ones() -> None:
    lines = rules_of("zh", Options(burn_check="seeds")).splitlines()
    assert len(lines) == len(NAMES)
    marked = [line for line in lines if " *" in line]
    assert marked == [
        "- 烧牌条件：套数算法（可烧失败） *（能烧完才可以烧，或老规矩的套数算法（会烧失败））"
    ]
    assert rules_of("en", Options()).count(" *") == 0
