"""The words the table client shows, sent to it in the socket's ``hello``: one copy of each
text, in the bot's catalogs (:mod:`bot.text.catalog` for what the bot says, the pictures'
labels :mod:`render.labels` for the table's own words), none in the JavaScript.

Each string is the catalog's, placeholders left in (``{n}``, ``{who}``): the client fills
them. What needs the cards or names worded (the log, a play's words, a refusal) is worded on
the server.
"""

from __future__ import annotations

from functools import cache

from bot.text.langs import entry, keys
from engine.state import QUESTION_ANSWERS
from render.labels import place_name, word

#: catalog keys the client uses (buttons, questions, status lines): the answers' buttons of
#: every question (engine.state.QUESTION_ANSWERS), then the others
CATALOG_KEYS = (
    *(f"btn_{verb}" for verb in QUESTION_ANSWERS),
    "btn_noburn",
    "btn_pass",
    "btn_yield",
    "btn_hint",
    "ctl_wait",
    "ctl_game_over",
    "rel_teammate",
    "rel_opposite",
    "rel_opponent",
    "table_caption",
    "ai_name",
    "seat_empty",
)
#: the pictures' table words the client shows the same way
LABEL_KEYS = (
    "declared",
    "opened",
    "headless",
    "revolted",
    "ai",
    "pass",
    "yield",
    "burn",
    "noburn",
    "burning",
    "melee",
    "counter",
    "to_play",
    "lead",
    "cards",
    "total",
    "team_a",
    "team_b",
)
WEB_PREFIX = "web_"


@cache
def client_strings(lang: str) -> dict[str, str]:
    """Every string of the client in ``lang`` (``zh`` or ``en``): the catalog's ``web_*``
    block and :data:`CATALOG_KEYS` by their keys, the pictures' labels as ``label_KEY``,
    the places as ``place_1`` … ``place_6``."""
    out = {key: str(entry(lang, key)) for key in keys(lang) if key.startswith(WEB_PREFIX)}
    out.update({key: str(entry(lang, key)) for key in CATALOG_KEYS})
    out.update({f"label_{key}": word(key, lang) for key in LABEL_KEYS})
    out.update({f"place_{n}": place_name(n, lang) for n in range(1, 7)})
    return out
