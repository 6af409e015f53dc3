"""The bot's configuration, from the environment."""

from __future__ import annotations

import pytest

from bot.discord_bot.pacing import pace_limit
from bot.service.config import BotConfig


def test_config_reads_the_environment() -> None:
    cfg = BotConfig.from_env(
        {"DISCORD_TOKEN": "t", "GOUJI_DB": "/x.db", "GOUJI_GUILD": "42", "GOUJI_AI_DELAY": "0"}
    )
    assert (cfg.token, cfg.db_path, cfg.guild_id, cfg.ai_delay) == ("t", "/x.db", 42, 0.0)
    assert BotConfig.from_env({}).token is None
    with pytest.raises(ValueError, match="GOUJI_GUILD"):
        BotConfig.from_env({"GOUJI_GUILD": "my server"})
    with pytest.raises(ValueError, match="GOUJI_AI_DELAY"):
        BotConfig.from_env({"GOUJI_AI_DELAY": "soon"})


def test_config_reads_the_database_url_and_the_shards() -> None:
    default = BotConfig.from_env({"GOUJI_DB": "/x.db"})
    assert (default.database, default.shards) == ("/x.db", None)
    cfg = BotConfig.from_env(
        {
            "GOUJI_DB": "/x.db",
            "GOUJI_DATABASE_URL": "postgresql://h/db",
            "GOUJI_SHARD_COUNT": "4",
            "GOUJI_SHARDS": "2-3",
        }
    )
    assert cfg.database == "postgresql://h/db"
    assert cfg.shards is not None and (cfg.shards.count, cfg.shards.ids) == (4, (2, 3))
    every = BotConfig.from_env({"GOUJI_SHARD_COUNT": "2"}).shards
    assert every is not None and every.ids == (0, 1)
    with pytest.raises(ValueError, match="GOUJI_SHARD_COUNT"):
        BotConfig.from_env({"GOUJI_SHARDS": "0-1"})
    with pytest.raises(ValueError, match="GOUJI_SHARD_COUNT/GOUJI_SHARDS"):
        BotConfig.from_env({"GOUJI_SHARD_COUNT": "2", "GOUJI_SHARDS": "1-2"})
    with pytest.raises(ValueError, match="GOUJI_SHARD_COUNT/GOUJI_SHARDS"):
        BotConfig.from_env({"GOUJI_SHARD_COUNT": "two"})


def test_config_reads_where_the_browser_table_is_served() -> None:
    off = BotConfig.from_env({})
    assert (off.web_url, off.web_host, off.web_port, off.web_secret) == (
        None,
        "127.0.0.1",
        8080,
        None,
    )
    on = BotConfig.from_env(
        {
            "GOUJI_WEB_URL": "https://gouji.example",
            "GOUJI_WEB_HOST": "0.0.0.0",
            "GOUJI_WEB_PORT": "9000",
            "GOUJI_WEB_SECRET": "s3",
        }
    )
    assert (on.web_url, on.web_host, on.web_port, on.web_secret) == (
        "https://gouji.example",
        "0.0.0.0",
        9000,
        "s3",
    )
    with pytest.raises(ValueError, match="GOUJI_WEB_PORT"):
        BotConfig.from_env({"GOUJI_WEB_PORT": "eighty"})


def test_config_reads_the_discord_activitys_keys() -> None:
    off = BotConfig.from_env({"DISCORD_CLIENT_ID": "77"})
    assert (off.activity, off.client_id, off.discord_api) == (
        False,
        77,
        "https://discord.com/api/v10",
    )
    on = BotConfig.from_env(
        {
            "GOUJI_ACTIVITY": "1",
            "DISCORD_CLIENT_ID": "77",
            "DISCORD_CLIENT_SECRET": "cs",
            "GOUJI_WEB_URL": "https://gouji.example",
            "GOUJI_DISCORD_API": "http://127.0.0.1:9/api/v10",
        }
    )
    assert (on.activity, on.client_id, on.client_secret, on.discord_api) == (
        True,
        77,
        "cs",
        "http://127.0.0.1:9/api/v10",
    )
    with pytest.raises(ValueError, match="DISCORD_CLIENT_SECRET, GOUJI_WEB_URL"):
        BotConfig.from_env({"GOUJI_ACTIVITY": "1", "DISCORD_CLIENT_ID": "77"})
    with pytest.raises(ValueError, match="DISCORD_CLIENT_ID"):
        BotConfig.from_env({"DISCORD_CLIENT_ID": "my app"})


def test_config_reads_the_claim_lease() -> None:
    assert BotConfig.from_env({}).lease == 30.0
    assert BotConfig.from_env({"GOUJI_CLAIM_LEASE": "5"}).lease == 5.0
    with pytest.raises(ValueError, match="GOUJI_CLAIM_LEASE"):
        BotConfig.from_env({"GOUJI_CLAIM_LEASE": "0.5"})


def test_config_reads_the_global_limit_discord_allows_and_the_pace_keeps_under_it() -> None:
    assert BotConfig.from_env({}).global_limit == 50, "Discord's own"
    raised = BotConfig.from_env({"GOUJI_GLOBAL_LIMIT": "1200"})
    assert raised.global_limit == 1200
    assert pace_limit(50) == 45 and pace_limit(1200) == 1080 and pace_limit(1) == 1
    for wrong in ("lots", "0", "49.5"):
        with pytest.raises(ValueError, match="GOUJI_GLOBAL_LIMIT"):
            BotConfig.from_env({"GOUJI_GLOBAL_LIMIT": wrong})
