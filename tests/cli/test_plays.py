"""``gouji plays``: the legal plays of a hand, from the command line."""

from __future__ import annotations

import pytest

from bot.cli import main


def test_plays_lists_the_leads_by_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "R2 7 7B 72"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "47 leads from 77722BR:"
    assert lines[1] == "  1 card: 7 2 B R"
    assert lines[-1] == "  7 cards: 77722BR"


def test_plays_answer_lists_only_hands_that_beat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "KK2 A", "--answer", "QQ"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "3 plays beat QQ from KKA2:",
        "  2 cards: KK K2 A2",
    ]


def test_plays_says_pass_when_nothing_beats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "99 B RR", "--answer", "BB777"]) == 0
    assert capsys.readouterr().out == "nothing in 99BRR beats 777BB: pass\n"


def test_plays_bie_san_keeps_3s_for_the_last_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "33 4", "--bie-san"]) == 0
    assert capsys.readouterr().out.splitlines() == ["1 lead from 334:", "  1 card: 4"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["plays", "7x"], "cannot read HAND: unknown card 'x' at position 2"),
        (["plays", "77", "--answer", "45"], "cannot read --answer: two different ranks: 4 and 5"),
    ],
)
def test_plays_refuses_bad_cards_with_a_reason(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
