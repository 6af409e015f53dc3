"""The words of the skill ratings (技术分), in Chinese and English: the series' changes as
the channel reads them, and the names of the AI levels on a board by rating.

>>> ai_level_name("strong", "zh"), ai_level_name("hint", "en")
('AI 困难', 'AI easy (简单)')
"""

from __future__ import annotations

from engine.ai import DIFFICULTIES

# key -> (zh, en); merged into bot.text.catalog.CATALOG
TEXTS: dict[str, tuple[str, str]] = {
    "ev_ratings": (
        "技术分（这一系列赛的变化 → 现在）：{ratings}",
        "Ratings (技术分, this series' change → now): {ratings}",
    ),
}


def ai_level_name(kind: str, lang: str) -> str:
    """An AI level as one player of a board: AI 简单 / AI easy (简单)."""
    for d in DIFFICULTIES:
        if d.kind == kind:
            return f"AI {d.chinese}" if lang == "zh" else f"AI {d.name} ({d.chinese})"
    return f"AI {kind}"
