"""`gouji bot` without a token."""

from __future__ import annotations

import argparse

from bot.cli import bot as bot_cli


def test_gouji_bot_without_a_token_says_how_to_get_one(monkeypatch, capsys) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot_cli.run(argparse.Namespace(db=None, guild=None)) == 2
    err = capsys.readouterr().err
    assert "Reset Token" in err and "DISCORD_TOKEN=" in err
