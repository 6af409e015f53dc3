"""bench.discord_shards: one bot process, or two shard processes, on one PostgreSQL play
through the fake Discord and print bench.discord's figures, with the processes' CPU."""

from __future__ import annotations

import pytest

from bench.discord_shards import format_shards_report, main, run_benchmark
from tests.pgserver import find_bindir


@pytest.mark.slow
@pytest.mark.skipif(find_bindir() is None, reason="no PostgreSQL binaries")
async def test_two_shard_processes_play_two_tables_to_the_end() -> None:
    fig = await run_benchmark(tables=2, actions=1, think=(0.0, 0.0), ai_delay=0.0, seed=3)
    assert fig["shards"] == 2 and fig["tables"] == 2
    assert fig["games_finished"] >= 2 and fig["unanswered"] == 0
    assert fig["actions"] >= 2 * 4  # every person acted, on both shards' servers
    assert fig["bot_processes_cpu_seconds"] > 0 and fig["mirror_refreshes"] > 0
    assert not [e for e in fig["errors"] if "traceback" in e]
    report = format_shards_report(fig)
    assert "in the 2 bot processes (shards 0 and 1 of 2, one PostgreSQL)" in report
    assert "bot-token requests per action" in report
    assert fig["notification"]["count"] > 0  # both processes wrote their questions down


@pytest.mark.slow
@pytest.mark.skipif(find_bindir() is None, reason="no PostgreSQL binaries")
async def test_one_bot_process_plays_every_table_from_the_dm_controllers() -> None:
    fig = await run_benchmark(tables=2, actions=1, think=(0.0, 0.0), ai_delay=0.0, seed=3, shards=1)
    assert fig["shards"] == 1 and fig["games_finished"] >= 2 and fig["unanswered"] == 0
    # nobody types every turn (one process holds every table): the DM controllers are used
    assert fig["discord"]["dm_per_own_turn"]["posted_mean"] > 0
    assert fig["full_answers"]["count"] > fig["actions"] / 2
    # the mirror rebuilt only what changed: fewer tables than looks times tables
    assert 0 < fig["mirror_rebuilt"] < fig["mirror_refreshes"] * 2
    assert fig["mirror_played_on"] > 0  # most turns: the new actions applied, not a rebuild
    assert not [e for e in fig["errors"] if "traceback" in e]
    report = format_shards_report(fig)
    assert "in the bot process (every table, one PostgreSQL)" in report
    # the bot process wrote down what its drawer did as it exited
    drawn = fig["pictures_uploaded"]["hand_and_scoreboard_pictures"]
    assert drawn["drawn"] > 0 and drawn["reused"] >= 0
    assert fig["pictures_uploaded"]["table_pictures"]["drawn"] > 0
    assert "table pictures" in report
    # and how late its event loop ran, beside this process's
    assert fig["loop_lag"]["bot process 0"]["count"] > 0
    assert "event loop late, bot process 0" in report and "full answer by minute" in report
    # the bot process wrote down its questions, paired with the DMs that notified of them
    # (but those answered first: people who type may answer before their DM comes)
    note = fig["notification"]
    assert note["count"] > 0 and note["missing"] < note["count"] / 4
    assert "question → notification" in report


def test_bad_arguments_are_refused() -> None:
    for argv in (
        ["--tables", "1"],
        ["--actions", "0"],
        ["--ai-delay", "-1"],
        ["--shards", "3"],
        ["--shards", "2", "--tables", "1"],
    ):
        with pytest.raises(SystemExit):
            main(argv)
