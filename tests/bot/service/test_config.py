"""The bot's configuration, from the environment."""

from __future__ import annotations

import pytest

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
