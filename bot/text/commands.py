"""The English source of the /gouji commands' computed descriptions.

Every command text is written in English in :mod:`bot.discord_bot.cog` as a ``locale_str``;
:class:`bot.discord_bot.translator.GoujiTranslator` gives Discord each language's own words
for its clients (:func:`bot.text.langs.commands`: the language modules' ``COMMANDS``), so each
user sees the commands in their own language."""

from __future__ import annotations

from engine.ai import DIFFICULTIES

_EASY, _NORMAL, _HARD = DIFFICULTIES
# /gouji ai add's kind: the levels with their measured strength, each against the one below
# (team points a game, duplicate deals: docs/ai.md). Discord allows 100 characters.
AI_STRENGTH = (
    f"AI strength: normal scores {_NORMAL.gain:.1f} team points a game more than easy, "
    f"hard {_HARD.gain:.1f} more than normal"
)
