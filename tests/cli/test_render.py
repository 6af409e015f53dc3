"""`gouji render table RECORD` and `gouji render series RECORD`."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_render_table_of_a_game_record(tmp_path):
    out = tmp_path / "table.png"
    assert (
        main(["render", "table", str(EXAMPLES / "opening.json"), "-o", str(out), "--seat", "1"])
        == 0
    )
    assert Image.open(out).size == (1280, 960)


def test_render_series_of_a_series_record(tmp_path):
    out = tmp_path / "series.png"
    assert (
        main(["render", "series", str(EXAMPLES / "series.json"), "-o", str(out), "--lang", "en"])
        == 0
    )
    assert Image.open(out).width > 1000


def test_render_table_with_bad_names_says_what_to_do(tmp_path, capsys):
    out = tmp_path / "t.png"
    code = main(
        ["render", "table", str(EXAMPLES / "opening.json"), "-o", str(out), "--names", "a,b"]
    )
    assert code == 2 and "six names" in capsys.readouterr().err
    assert not out.exists()
