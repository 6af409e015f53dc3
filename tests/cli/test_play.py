"""``gouji play``: a terminal game driven through its input, to the end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.play import Session, parse_input
from bot.text.refusals import refusal_text, worded
from engine.actions import REFUSALS, IllegalActionError
from engine.options import Options

ROOT = Path(__file__).resolve().parents[2]


def _play(argv: list[str], stdin: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *argv],
        input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )  # fmt: skip


def scripted(
    lines: list[str], lang: str = "en", games: int = 1, seed: int = 1, bie_san: bool = False
):
    """A session reading ``lines`` (then end of input), writing into a list."""
    out: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str | None:
        out.append(prompt)
        return next(feed, None)

    session = Session(lang=lang, seed=seed, options=Options(bie_san=bie_san), ai="hint", games=games, auto=False,
                      read=read, write=out.append)  # fmt: skip
    return session, out


def test_a_game_played_through_stdin_with_hints_reaches_the_end():
    result = _play(["--seed", "1", "--ai", "hint", "--lang", "en"], "?\n\n" * 400)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "Hint: no (do not declare)" in out
    assert "You (0) plays" in out
    assert "\nGame 1\n  places: 1st (头科)" in out
    assert "6th (大落)" in out.split("\nGame 1\n")[1]


def test_end_of_input_leaves_cleanly():
    result = _play(["--seed", "4", "--ai", "hint", "--lang", "en"], "?\n")
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert result.stdout.rstrip().endswith("End of input: leaving the table.")
    zh = _play(["--seed", "4", "--ai", "hint", "--lang", "zh"], "")
    assert zh.returncode == 0 and zh.stdout.rstrip().endswith("输入结束：离开牌桌。")


def test_auto_plays_a_whole_series_with_returns_and_titles():
    session, out = scripted([], games=5)
    session.auto = True
    assert session.run() == 0
    text = "\n".join(out)
    for n in range(1, 6):
        assert f"\nGame {n}\n  " in text
    assert "Hint: return" in text and "You (0) returns" in text
    assert "Titles (from each player's series score):" in text
    assert session.series.finished


def test_a_series_through_stdin_returns_tribute_by_hint():
    session, out = scripted(["?", ""] * 3000, games=5)
    assert session.run() == 0
    text = "\n".join(out)
    assert "Return tribute: give 1 card(s) back to 威海 (5)" in text
    assert "You (0) returns" in text
    assert session.series.finished


@pytest.mark.parametrize(
    ("lang", "typed", "expected"),
    [
        ("en", "KK", "It is time for declaring (宣点): declare, or do not declare."),
        ("zh", "KK", "现在是宣点的时候：宣点或不宣"),
        ("en", "x7", "Cannot read “x7”"),
        ("zh", "x7", "看不懂「x7」"),
        ("en", "hello", "I do not understand 'hello'"),
        ("zh", "hello", "看不懂“hello”"),
        ("en", "345", "that is not a hand: no straights in Gouji"),
        ("zh", "345", "这不是一手牌"),
    ],
)
def test_bad_input_in_the_declare_phase_is_explained(lang, typed, expected):
    session, out = scripted([typed, "no"], lang=lang)
    session.run()
    assert any(expected in line for line in out), out[:40]
    assert session.series.current.game.phase != "declare"  # "no" then answered


@pytest.mark.parametrize(
    ("lang", "lead_prompt", "refusals"),
    [
        ("en", "Your lead > ", ["You do not hold four big jokers", "You have the lead: play a hand (you cannot pass on a lead).",
                                "You have the lead: there is nothing to yield."]),
        ("zh", "你发牌 > ", ["你手里没有 四张大王", "该你出牌（发牌），不能过。", "该你发牌，没有可让的。"]),
    ],
)  # fmt: skip
def test_illegal_plays_are_refused_and_change_nothing(lang, lead_prompt, refusals):
    # seed 4: seat 0 leads first, so after "no" (not declaring) the player is asked to lead
    session, out = scripted(["no", "RRRR", "pass", "yield"], lang=lang, seed=4)
    session.run()
    game = session.series.current.game
    assert out.count(lead_prompt) == 4  # asked again after each refusal, then input ended
    for message in refusals:
        assert any(line.startswith(message) for line in out), message
    assert game.to_act == [0] and game.standing is None and len(game.cards[0]) == 36


def test_hint_then_enter_plays_the_hint_and_help_changes_nothing():
    session, out = scripted(["help", "t", "?", ""], lang="zh")
    session.run()
    text = "\n".join(out)
    assert "怎么打：" in text and "提示：" in text
    game = session.series.current.game
    assert game.phase == "play"  # the declare answer came from the hint
    assert text.count("── 第 1/1 局 · 宣点 ──") == 2  # shown, and shown again by "t"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cards_may_be_typed_in_words_in_either_language(lang):
    assert parse_input("一对6", "play", False, lang).text == "play 66"
    assert parse_input("五个10", "play", False, lang).text == "play TTTTT"
    assert parse_input("five 10s", "play", False, lang).text == "play TTTTT"
    assert parse_input("烧 一对K", "play", True, lang).text == "burn KK"


def test_parse_input_understands_the_verbs_of_each_phase():
    assert parse_input("declare", "declare", False, "en").text == "declare"
    assert parse_input("no", "declare", False, "en").text == "nodeclare"
    assert parse_input("不革命", "revolt", False, "zh").text == "norevolt"
    assert parse_input("yes", "revolt", False, "en").text == "revolt"
    assert parse_input("kk", "play", False, "en").text == "play KK"
    assert parse_input("2 2 7 7 7", "play", False, "en").text == "play 77722"
    assert parse_input("KK", "play", True, "en").text == "burn KK"
    assert parse_input("烧 RR99", "play", True, "zh").text == "burn 99RR"
    assert parse_input("no", "play", True, "en").text == "noburn"
    assert parse_input("过", "play", False, "zh").text == "pass"
    assert parse_input("让", "play", False, "zh").text == "yield"
    assert parse_input("45", "return", False, "en").text == "return 45"
    assert parse_input("?", "play", False, "en").kind == "hint"
    assert parse_input("", "play", False, "en").kind == "again"
    assert parse_input("quit", "play", False, "en").kind == "quit"
    assert parse_input("no", "play", False, "en").kind == "error"


def test_every_refusal_code_is_worded_from_the_catalogs_in_both_languages():
    from bot.text.cards import readable_params
    from bot.text.langs import entry, text

    for code, names in REFUSALS.items():
        params = {name: "7" for name in names}
        for lang in ("zh", "en"):  # seats, cards and verbs in words, as a sentence
            said = entry(lang, f"refusal.{code}")
            assert isinstance(said, str)
            sentence = text(lang, "refusal.sentence", template=said)
            shown = sentence.format(**worded(readable_params(params, lang), lang))
            assert refusal_text(IllegalActionError(code, **params), lang) == shown


def test_random_input_never_breaks_a_game():
    import random

    vocab = ["?", "", "pass", "yield", "KK", "burn 22", "no", "declare", "revolt", "xx",
             "RRRR", "3", "t", "help", "noburn", "烧 RR", "过", "让", "2", "BR", "AA", "45"]  # fmt: skip
    for seed in range(6):
        rng = random.Random(seed)
        lang = "zh" if seed % 2 else "en"
        lines = [rng.choice(vocab) for _ in range(1500)]
        session, out = scripted(lines, lang=lang, seed=seed, games=5 if seed % 3 == 0 else 1,
                                bie_san=seed % 2 == 1)  # fmt: skip
        assert session.run() == 0
        ended = out[-1] in ("End of input: leaving the table.", "输入结束：离开牌桌。")
        assert ended or session.series.finished


def test_the_record_of_a_played_series_replays_to_the_same_scores(tmp_path):
    import json

    from bot.cli import main
    from engine.record import replay

    path = tmp_path / "series.json"
    session, _ = scripted([], games=5, seed=2)
    session.auto = True
    session.run()
    path.write_text(json.dumps(session.record()), encoding="utf-8")
    result = replay(json.loads(path.read_text(encoding="utf-8")))
    assert result["totals"] == session.series.totals()
    assert [g["places"] for g in result["games"]] == [d.game.places for d in session.series.counted]
    # through the command: a record is written even when input ends mid-game
    partial = tmp_path / "partial.json"
    run = _play(["--seed", "2", "--ai", "hint", "--lang", "en", "--record", str(partial)], "no\n")
    assert run.returncode == 0 and f"Record: {partial}" in run.stdout
    assert main(["replay", str(partial)]) == 0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_terminal_tells_the_head_kept_and_every_burn_result(lang):
    """With 够死级 on, 要头/无头 is told; under the seeds' burn check a burn may fail (烧失败),
    which is neither a success nor a broken burn."""
    from bot.text.langs import keys
    from bot.text.play import narrate
    from engine.events import BurnEnded, Event, HeadChosen
    from engine.game import BROKEN, FAILED, ONGOING, SUCCESS

    names = [f"p{s}" for s in range(6)]
    results = (SUCCESS, BROKEN, FAILED)
    events: list[Event] = [HeadChosen(3, True), HeadChosen(0, False)]
    events += [BurnEnded(i, 1, 0, result) for i, result in enumerate(results)]
    lines = narrate(events, names, lang)
    assert len(set(lines)) == 5
    assert "要头" in lines[0] and "无头" in lines[1] and "烧失败" in lines[4]
    said = {k.removeprefix("term.burn.") for k in keys(lang) if k.startswith("term.burn.")}
    assert said == {*results, ONGOING}
