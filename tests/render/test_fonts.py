"""The shipped font draws Chinese, and hostile user text cannot break a picture."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from render import fonts
from render.fonts import PLACEHOLDER, clean_text, display_name, fit_text, font
from render.labels import all_label_text, all_plain_text
from render.titles import ALL_TITLES

UNASSIGNED = "\u0378"  # never assigned in Unicode: the font draws its .notdef box


def _mask(ch: str, bold: bool = False):
    return font(48, bold=bold).getmask(ch)


def _same_glyph(a: str, b: str, bold: bool = False) -> bool:
    ma, mb = _mask(a, bold), _mask(b, bold)
    if ma.size != mb.size:
        return False
    from PIL import Image

    ia = Image.frombytes("L", ma.size, bytes(ma))
    ib = Image.frombytes("L", mb.size, bytes(mb))
    return ImageChops.difference(ia, ib).getbbox() is None


def _has_ink(ch: str, bold: bool = False) -> bool:
    mask = _mask(ch, bold)
    return mask.size[0] > 0 and max(bytes(mask), default=0) > 128


def test_fonts_are_shipped_with_their_licence() -> None:
    assert fonts.REGULAR_FONT.exists() and fonts.BOLD_FONT.exists()
    licence = (fonts.ASSETS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert (fonts.ASSETS / "make_font_subset.py").exists()
    total = sum(p.stat().st_size for p in fonts.ASSETS.glob("*.otf"))
    assert total < 5_000_000, "keep the shipped fonts to a few MB"


@pytest.mark.parametrize("bold", [False, True])
def test_da_is_a_real_glyph_not_the_empty_box(bold: bool) -> None:
    assert _has_ink("大", bold)
    assert not _same_glyph("大", UNASSIGNED, bold)
    assert not _same_glyph("大", "王", bold)


def test_the_missing_glyph_check_can_fail() -> None:
    assert _same_glyph("\u0379", UNASSIGNED)  # two unassigned code points: the same box


@pytest.mark.parametrize("bold", [False, True])
def test_every_label_and_title_has_a_glyph(bold: bool) -> None:
    text = all_label_text() + "".join(ALL_TITLES) + "×−→▶♠♥♦♣…·"
    missing = sorted({ch for ch in text if not ch.isspace() and _same_glyph(ch, UNASSIGNED, bold)})
    assert not missing, f"no glyph for {''.join(missing)}: re-run render/assets/make_font_subset.py"


def test_every_word_drawn_in_the_regular_face_has_a_glyph() -> None:
    missing = sorted({ch for ch in all_plain_text() if _same_glyph(ch, UNASSIGNED)})
    assert not missing, f"no glyph for {''.join(missing)}"


def test_common_chinese_names_render() -> None:
    for ch in "张伟王芳李娜刘洋陈静杨帆赵磊黄敏周杰吴昊徐丽孙强马超朱婷胡斌郭鑫":
        assert ord(ch) in fonts.coverage(), ch
        assert not _same_glyph(ch, UNASSIGNED)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("老王", "老王"),
        ("Zoë 👍🏽 王", f"Zoë {PLACEHOLDER} 王"),
        ("👨\u200d👩\u200d👧", PLACEHOLDER),
        ("محمد علي", f"{PLACEHOLDER} {PLACEHOLDER}"),
        ("Z̷̢̛a̶l̵g̸o̷", "Zalgo"),
        ("a\u202eb\u200bc", "abc"),
        ("  tab\tand\nnewline  ", "tab and newline"),
        ("", ""),
    ],
)
def test_clean_text(raw: str, expected: str) -> None:
    assert clean_text(raw) == expected


def test_clean_text_keeps_only_drawable_characters() -> None:
    hostile = "x" + "\u0301" * 500 + "🎴" * 50 + "\x00\x07" + "ﷺ" + "ab" * 300
    cleaned = clean_text(hostile)
    assert len(cleaned) <= fonts.MAX_TEXT
    assert all(ord(ch) in fonts.coverage() or ch == " " for ch in cleaned)


def test_fit_text_shortens_with_an_ellipsis() -> None:
    face = font(28)
    name = "Bob the Builder of Very Long Names " * 3
    fitted = fit_text(name, face, 200)
    assert fitted.endswith("…") and face.getlength(fitted) <= 200
    assert fit_text("老王", face, 200) == "老王"
    assert fit_text("老王", face, 1) == "…"


def test_display_name_of_an_empty_name() -> None:
    assert display_name("", font(20), 100, empty="#3") == "#3"
    assert display_name("\u200b\u0301", font(20), 100) == "?"
