"""PNG encoding and the ``gouji render`` command."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest
from PIL import Image

from bot.cli import main
from engine.cards import deal
from render.encode import to_png
from render.hand import hand_palette, render_hand
from tests.render.helpers import assert_image_similar, assert_kept_in_palette


def test_png_is_small_and_looks_the_same() -> None:
    image = render_hand("3456789TJQKA2BR" * 2 + "222222", highlight="RB")
    data = to_png(image)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == "P" and decoded.size == image.size
    assert_image_similar(decoded.convert("RGB"), image, 1.5)  # ~1/255: not visible
    assert len(data) < len(to_png(image, palette=False)) / 2


def test_every_hand_picture_keeps_its_colours_in_the_fixed_hand_palette() -> None:
    # hand pictures are mapped to one palette chosen once (hand_palette), not their own:
    # any hand, lit or not, with a title or not, in either language, looks as drawn
    rng = random.Random(6)
    for i in range(24):
        dealt = deal(i)[i % 6]
        hand = rng.sample(dealt, rng.randint(1, len(dealt)))
        lit = rng.sample(hand, rng.randint(0, 3)) or None
        title = "小明的手牌 ♥" if i % 5 == 0 else None
        image = render_hand(hand, highlight=lit, lang=("zh", "en")[i % 2], title=title)
        assert_kept_in_palette(image, hand_palette(), f"hand {i}")


def test_render_hand_command_writes_a_png(tmp_path, capsys) -> None:
    out = tmp_path / "hand.png"
    assert (
        main(
            [
                "render",
                "hand",
                "33 TTTTT 22 BR",
                "-o",
                str(out),
                "--highlight",
                "BR",
                "--lang",
                "en",
            ]
        )
        == 0
    )
    assert Image.open(out).size == render_hand("33TTTTT22BR").size
    assert "wrote" in capsys.readouterr().out


def test_demo_commands(tmp_path) -> None:
    for kind in ("demo-table", "demo-series", "demo-profile", "demo-leaderboard"):
        out = tmp_path / f"{kind}.png"
        assert main(["render", kind, "-o", str(out)]) == 0
        assert Image.open(out).width > 0


def test_bad_input_changes_nothing(tmp_path, capsys) -> None:
    out = tmp_path / "hand.png"
    assert main(["render", "hand", "33X", "-o", str(out)]) == 2
    assert main(["render", "hand", "33", "--highlight", "4", "-o", str(out)]) == 2
    assert main(["render", "hand", "33", "-o", str(tmp_path / "missing" / "x.png")]) == 2
    for argv in (
        ["render", "hand", "-o", str(out)],
        ["render", "demo-table", "33", "-o", str(out)],
    ):
        with pytest.raises(SystemExit) as exit_info:  # argparse: usage message, status 2
            main(argv)
        assert exit_info.value.code == 2
    assert not out.exists()
    err = capsys.readouterr().err
    assert "unknown card 'X'" in err and "does not hold" in err and "cannot write" in err
    assert "the following arguments are required: cards" in err


def test_the_gouji_command_does_not_load_pillow() -> None:
    code = "import sys, bot.cli; bot.cli.build_parser(); print(any(m.startswith('PIL') for m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
