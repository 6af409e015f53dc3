"""The words the table client shows, sent to it in the socket's ``hello``: one copy of each
text, in the bot's catalogs (:mod:`bot.text.catalog` for what the bot says, the pictures'
labels :mod:`render.labels` for the table's own words), none in the JavaScript.

Each string is the catalog's, placeholders left in (``{n}``, ``{who}``): the client fills
them. What needs the cards or names worded (the log, a play's words, a refusal) is worded on
the server. How the language joins words (:func:`client_words`: a list's separator, a line's
parts, how many of a card) and what a card face shows (:func:`card_faces`, as the pictures
draw it) are sent too, so that the client holds no word of any language.
"""

from __future__ import annotations

from functools import cache

from bot.text.langs import entry, keys, text
from bot.web.frames import Faces, Words
from engine.cards import RANK_LETTERS, SUITS
from engine.state import QUESTION_ANSWERS
from render.cards import JOKER_TEXT, RANK_TEXT, SUIT_GLYPH, UNDERLINED
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
    "revolted_out",
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


@cache
def client_words(lang: str) -> Words:
    """How ``lang`` puts the client's words together: the catalog's separators, and how many
    of a card ("×{n}", its placeholder left in as in the strings)."""
    return Words(
        list=text(lang, "sep.list"),
        dot=text(lang, "sep.dot"),
        times=str(entry(lang, "cards.times")),
    )


@cache
def card_faces() -> Faces:
    """What a card face shows, as the pictures draw it (:mod:`render.cards`): the same in
    every language."""
    return Faces(
        letters=RANK_LETTERS,
        ranks=list(RANK_TEXT),
        suits={suit: SUIT_GLYPH[suit] for suit in SUITS},
        joker=JOKER_TEXT,
        underlined=sorted(UNDERLINED),
    )
