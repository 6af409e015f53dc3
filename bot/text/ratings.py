"""The names of the AI levels on a board by rating (技术分), in the player's language.

>>> ai_level_name("strong", "zh"), ai_level_name("hint", "en")
('AI 困难', 'AI easy (简单)')
"""

from __future__ import annotations

from bot.text.langs import text
from engine.ai import DIFFICULTIES


def ai_level_name(kind: str, lang: str) -> str:
    """An AI level as one player of a board: AI 简单 / AI easy (简单)."""
    for d in DIFFICULTIES:
        if d.kind == kind:
            return text(lang, "ai_level", name=d.name, chinese=d.chinese)
    return f"AI {kind}"
