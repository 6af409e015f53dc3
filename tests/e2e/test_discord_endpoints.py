"""bot.discord_bot.endpoints: pointing discord.py at other endpoints, and back."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from bot.discord_bot.endpoints import (
    API_ENV,
    GATEWAY_ENV,
    configure_endpoints,
    configure_from_env,
    current_endpoints,
)


@pytest.fixture(autouse=True)
def restore_endpoints() -> Iterator[None]:
    previous = current_endpoints()
    yield
    configure_endpoints(*previous)


def test_configure_endpoints_sets_rest_base_and_gateway() -> None:
    configure_endpoints("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway")
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"
    assert current_endpoints() == ("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway")


def test_none_leaves_an_endpoint_unchanged() -> None:
    before = current_endpoints()
    configure_endpoints(gateway_url="wss://example.test/")
    assert current_endpoints() == (before.api_base, "wss://example.test/")


@pytest.mark.parametrize(
    ("api", "gateway"),
    [("ws://127.0.0.1:9/api", None), (None, "http://127.0.0.1:9/"), ("127.0.0.1:9", None)],
)
def test_bad_url_is_refused_and_changes_nothing(api: str | None, gateway: str | None) -> None:
    before = current_endpoints()
    with pytest.raises(ValueError, match="URL"):
        configure_endpoints(api, gateway)
    assert current_endpoints() == before


def test_half_bad_pair_changes_neither() -> None:
    before = current_endpoints()
    with pytest.raises(ValueError, match=GATEWAY_ENV):
        configure_endpoints("http://127.0.0.1:9/api/v10", "ftp://nope/")
    assert current_endpoints() == before


def test_configure_from_env_reads_both_variables() -> None:
    env = {API_ENV: "http://127.0.0.1:7/api/v10", GATEWAY_ENV: "ws://127.0.0.1:7/gateway"}
    assert configure_from_env(env) == ("http://127.0.0.1:7/api/v10", "ws://127.0.0.1:7/gateway")


def test_configure_from_env_without_variables_keeps_discord() -> None:
    assert configure_from_env({}) == current_endpoints()
