"""Make the fonts shipped in render/assets/ (a one-off development tool, not run at run time).

The pictures need Chinese glyphs on any machine, so the project ships a subset of Noto Sans
CJK SC (SIL Open Font License 1.1, see OFL.txt beside this file). How it was made::

    apt-get update && apt-get install -y fonts-noto-cjk   # Debian/Ubuntu: the .ttc sources
    python render/assets/make_font_subset.py               # needs fontTools (pip install fonttools)

It writes, beside itself:

- ``GoujiSansSC-Regular.otf``: Noto Sans CJK SC (face 2 of the Debian collections) cut down
  to ASCII, Latin-1, Latin Extended-A, general punctuation,
  CJK symbols and punctuation, full-width forms, the whole GB2312 set (6763 hanzi plus its
  symbols, kana, Greek and Cyrillic, so that most Chinese user names render), a few symbols
  (card suits, arrows, stars) and every non-ASCII character in ``render/*.py`` but ``demo.py`` (so every label
  the pictures draw is covered). The family is renamed "Gouji Sans SC" as the OFL asks of
  modified versions. User names are drawn with this face.
- ``GoujiSansSC-Bold.otf``: the bold face with the same ranges but without GB2312: it draws
  only the project's own labels, card ranks and numbers (keeps the download small).
- ``coverage.txt``: the code points the regular face has, as hex ranges ``start-end`` one a line;
  ``render/fonts.py`` reads it to swap characters the font lacks (emoji, Arabic, ...) for a
  placeholder instead of drawing an empty box.

Re-run it whenever a new non-ASCII label is added to ``render/``, then regenerate the golden
images (``python -m tests.render.regenerate``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset  # type: ignore[import-not-found]
from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-not-found]

HERE = Path(__file__).resolve().parent
RENDER = HERE.parent
SOURCES = {
    "Regular": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    "Bold": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
}
SC_FACE = 2  # JP, KR, SC, TC, HK, then the Mono faces
FAMILY = "Gouji Sans SC"

RANGES = [
    (0x20, 0x7E),  # ASCII
    (0xA0, 0xFF),  # Latin-1
    (0x100, 0x17F),  # Latin Extended-A
    (0x2000, 0x206F),  # general punctuation
    (0x2190, 0x21FF),  # arrows
    (0x2460, 0x24FF),  # enclosed alphanumerics
    (0x25A0, 0x25FF),  # geometric shapes (□, the placeholder)
    (0x2600, 0x266F),  # miscellaneous symbols (suits, stars)
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF00, 0xFFEF),  # half-width and full-width forms
]


def gb2312_chars() -> set[int]:
    """Every character of GB2312 (rows 0xA1-0xF7, cells 0xA1-0xFE)."""
    chars: set[int] = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(ord(bytes([hi, lo]).decode("gb2312")))
            except UnicodeDecodeError:
                pass
    return chars


def source_chars() -> set[int]:
    """Every non-ASCII character in render/*.py: the labels the pictures draw (demo.py holds
    sample user names, emoji and Arabic among them, on purpose not in the font)."""
    chars: set[int] = set()
    for path in RENDER.glob("*.py"):
        if path.name == "demo.py":
            continue
        chars.update(ord(c) for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E)
    return chars


def wanted(with_gb2312: bool) -> set[int]:
    """The code points to keep: the ranges above, the labels, and GB2312 if asked."""
    chars = source_chars()
    if with_gb2312:
        chars |= gb2312_chars()
    for lo, hi in RANGES:
        chars.update(range(lo, hi + 1))
    return chars


def rename(font: TTFont, style: str) -> None:
    """Give the subset its own family name, as the OFL asks of modified versions."""
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            record.string = FAMILY
        elif record.nameID == 4:
            record.string = f"{FAMILY} {style}"
        elif record.nameID == 6:
            record.string = f"GoujiSansSC-{style}"
        elif record.nameID in (3,):
            record.string = f"GoujiSansSC-{style}; subset of Noto Sans CJK SC"


def make(style: str, source: Path, chars: set[int]) -> set[int]:
    """Write the subset of face ``style``; return the code points it covers."""
    font = TTCollection(str(source)).fonts[SC_FACE]
    have = set(font.getBestCmap())
    unicodes = sorted(chars & have)
    options = subset.Options()
    options.layout_features = ["kern", "liga", "locl", "vert", "vrt2", "halt", "palt"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    rename(font, style)
    font.recalcTimestamp = False  # same input, same bytes
    out = HERE / f"GoujiSansSC-{style}.otf"
    font.save(str(out))
    print(f"{out.name}: {len(unicodes)} characters, {out.stat().st_size / 1e6:.2f} MB")
    return set(unicodes)


def ranges_text(codes: set[int]) -> str:
    """Code points as hex ranges, one ``start-end`` a line."""
    lines, run = [], None
    for c in sorted(codes):
        if run and c == run[1] + 1:
            run[1] = c
        else:
            if run:
                lines.append(f"{run[0]:x}-{run[1]:x}")
            run = [c, c]
    if run:
        lines.append(f"{run[0]:x}-{run[1]:x}")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Make both fonts and coverage.txt; 1 if the source fonts are missing."""
    missing = [str(p) for p in SOURCES.values() if not p.exists()]
    if missing:
        print("missing source fonts: " + ", ".join(missing))
        print("install them with: apt-get update && apt-get install -y fonts-noto-cjk")
        return 1
    covered = make("Regular", SOURCES["Regular"], wanted(with_gb2312=True))
    bold = make("Bold", SOURCES["Bold"], wanted(with_gb2312=False))
    lacking = sorted(c for c in source_chars() if c not in covered or c not in bold)
    if lacking:
        print(
            "WARNING: labels in render/ use characters the font lacks:", "".join(map(chr, lacking))
        )
    (HERE / "coverage.txt").write_text(ranges_text(covered), encoding="utf-8")
    print(f"coverage.txt: {len(covered)} code points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
