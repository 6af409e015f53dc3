"""Shared fixtures of the terminal-command tests: one demo series, played once per session."""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory):
    """A folder holding a finished five-game demo (hint AI, seed 3): pictures, record, db,
    and the demo's standard output as ``stdout.txt``."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("demo")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["demo", "--out", str(out), "--seed", "3", "--lang", "en"])
    assert code == 0
    (out / "stdout.txt").write_text(buf.getvalue(), encoding="utf-8")
    return out
