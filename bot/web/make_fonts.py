"""Make the table client's two web fonts (a development tool, not run at run time).

The browser table draws its cards with the pictures' own face and its Chinese texts on any
machine (one without Chinese fonts too), so it ships two small WOFF2 subsets of the fonts in
``render/assets`` (Gouji Sans SC, from Noto Sans CJK SC, SIL Open Font License 1.1)::

    pip install fonttools brotli
    python -m bot.web.make_fonts

It writes into ``bot/web/static/``:

- ``gouji-cards.woff2``: the bold face cut to what a card face shows (ranks, 小王 大王,
  JOKER, the suits, 够 of the card back) — the cards look as in the pictures;
- ``gouji-ui.woff2``: the regular face cut to ASCII, Latin-1 and every character of the
  texts it may be sent (:func:`client_texts`: every value of every language's catalog —
  its functions called over their arguments' range —, the pictures' labels and titles, how
  the languages join words, the card faces, the marks the server joins texts with, ``gouji
  web``'s default names): every text the client shows but people's names (those fall back
  to the system's fonts);
- ``bot/web/fonts.txt``: the characters of each, so that a test checks they cover every text the
  client is sent (re-run this tool when a test says a character is missing).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from bot.text.langs import LANGS, entry, keys, parameters
from bot.web.strings import card_faces, client_strings, client_words
from engine.ai import DIFFICULTIES
from render.labels import all_label_text, all_plain_text
from render.titles import ALL_TITLES

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "render" / "assets"
STATIC = Path(__file__).resolve().parent / "static"
CARD_TEXT = "0123456789JQKA小王大王JOKER够♠♥♦♣×"
#: what the server joins texts with outside the catalogs (bot/text/params.py, bot/web/wire.py)
JOINERS = "→×·—…−"
#: ``gouji web``'s people's names by default (bot/cli/web.py NAMES, which bot.web may not import)
DEFAULT_NAMES = "济南青岛烟台潍坊淄博威海"
#: the values a catalog function is called with, by its parameter (a count: 0 … 40)
SAMPLES: dict[str, list[object]] = {
    "n": list(range(41)),
    "name": [d.name for d in DIFFICULTIES],
    "chinese": [d.chinese for d in DIFFICULTIES],
}
RANGES = [(0x20, 0x7E), (0xA0, 0xFF)]  # ASCII, Latin-1; other symbols: those the texts use


def catalog_values(lang: str) -> Iterator[str]:
    """Every value of ``lang``'s catalog: a template as it is (its placeholders are ASCII),
    a function's text for every argument of :data:`SAMPLES` (others: "")."""
    for key in keys(lang):
        found = entry(lang, key)
        if not callable(found):
            yield found
            continue
        names = sorted(parameters(lang, key))
        for i in range(max(len(SAMPLES.get(name, [""])) for name in names)):
            args = {name: SAMPLES.get(name, [""]) for name in names}
            yield found(**{name: values[min(i, len(values) - 1)] for name, values in args.items()})


def client_texts() -> Iterator[str]:
    """Every text the table client may be sent, in every language, but people's names."""
    for lang in LANGS:
        yield from catalog_values(lang)
        yield from client_strings(lang).values()
        words = client_words(lang)
        yield from (words["list"], words["dot"], words["times"])
    faces = card_faces()
    yield from (*faces["ranks"], *faces["suits"].values(), faces["joker"])
    yield from (all_label_text(), all_plain_text(), *ALL_TITLES, JOINERS, DEFAULT_NAMES)


def ui_chars() -> set[int]:
    """The code points of the UI face: the ranges above and the texts' characters."""
    chars: set[int] = set()
    for lo, hi in RANGES:
        chars.update(range(lo, hi + 1))
    for said in client_texts():
        chars.update(ord(c) for c in said if ord(c) > 0x7E)
    return chars


def make(source: Path, chars: set[int], out: Path) -> set[int]:
    """Write the WOFF2 subset of ``source`` with ``chars``; return what it covers."""
    # fontTools only here: the tests read ui_chars() without it
    from fontTools import subset  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from fontTools.ttLib import TTFont  # type: ignore[import-not-found, import-untyped, unused-ignore]

    font = TTFont(str(source))
    unicodes = sorted(chars & set(font.getBestCmap()))
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["kern", "liga", "locl", "halt", "palt"]
    options.hinting = False
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    font.flavor = "woff2"
    font.recalcTimestamp = False
    font.save(str(out))
    print(f"{out.name}: {len(unicodes)} characters, {out.stat().st_size / 1e3:.1f} kB")
    return set(unicodes)


def main() -> int:
    cards = make(
        ASSETS / "GoujiSansSC-Bold.otf", {ord(c) for c in CARD_TEXT}, STATIC / "gouji-cards.woff2"
    )
    ui = make(ASSETS / "GoujiSansSC-Regular.otf", ui_chars(), STATIC / "gouji-ui.woff2")
    listing = "".join(chr(c) for c in sorted(ui) if c > 0x7E)
    (Path(__file__).resolve().parent / "fonts.txt").write_text(
        "cards " + "".join(chr(c) for c in sorted(cards)) + "\nui " + listing + "\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
