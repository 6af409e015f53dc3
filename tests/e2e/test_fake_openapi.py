"""The fake Discord refuses what Discord's own OpenAPI description refuses, in Discord's words:
400, code 50035 "Invalid Form Body" and the ``errors`` object naming the field; the spec
vendored is the commit it names; each known difference between the spec and Discord is
still needed (the spec alone refuses what discord.py sends and Discord takes)."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.e2e.fake_helpers import call
from tests.fakediscord import BotRunner, FakeDiscord
from tests.fakediscord.openapi import (
    DIFFERENCES,
    SPEC_DIR,
    Difference,
    SpecRefusal,
    default_validator,
    raw_validator,
)

LABEL_LIMIT = 45  # a text input's label, as the spec says


def _refusal(method: str, path: str, body: Any, query: dict[str, str] | None = None) -> Any:
    """The errors object the spec's refusal of this request carries (None: accepted)."""
    try:
        default_validator().check(method, path, query or {}, body)
    except SpecRefusal as refusal:
        assert (refusal.status, refusal.code, refusal.message) == (400, 50035, "Invalid Form Body")
        return refusal.errors
    return None


def _error(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def test_the_vendored_spec_is_the_commit_it_names_under_its_licence() -> None:
    source = json.loads((SPEC_DIR / "source.json").read_text())
    data = (SPEC_DIR / "openapi.json").read_bytes()
    assert source["repository"] == "discord/discord-api-spec"
    assert len(source["commit"]) == 40 and source["sha256"] == hashlib.sha256(data).hexdigest()
    licence = (SPEC_DIR / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "Discord" in licence
    assert json.loads(data)["info"]["license"]["identifier"] == "MIT"


def _modal(label: str) -> dict[str, Any]:
    text_input = {"type": 4, "custom_id": "cards", "style": 1, "label": label}
    row = {"type": 1, "components": [text_input]}
    return {"type": 9, "data": {"custom_id": "m", "title": "Play", "components": [row]}}


def test_a_label_over_45_characters_is_refused_naming_the_field() -> None:
    callback = "/interactions/1/t0ken/callback"
    assert _refusal("POST", callback, _modal("x" * LABEL_LIMIT)) is None
    label = _error("BASE_TYPE_MAX_LENGTH", "Must be 45 or fewer in length.")
    want = {"data": {"components": {"0": {"components": {"0": {"label": label}}}}}}
    assert _refusal("POST", callback, _modal("x" * (LABEL_LIMIT + 1))) == want


def test_discords_errors_name_each_field_inside_the_member_of_a_union_meant() -> None:
    button = {"type": 2, "style": 1, "custom_id": "go", "label": "x" * 81}
    six = [{"type": 2, "style": 1, "label": str(n), "custom_id": str(n)} for n in range(6)]
    body = {
        "components": [
            {"type": 1, "components": [button]},
            {"type": 1, "components": six},
            {"type": 99, "components": []},
        ],
    }
    errors = _refusal("POST", "/channels/1/messages", body)
    too_long = _error("BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
    assert errors["components"]["0"] == {"components": {"0": {"label": too_long}}}
    too_many = _error("BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    assert errors["components"]["1"] == {"components": too_many}
    kinds = errors["components"]["2"]["type"]["_errors"][0]
    assert kinds["code"] == "UNION_TYPE_CHOICES"
    assert kinds["message"].startswith('Value of field "type" must be one of (1, 9, 10,')
    required = _error("BASE_TYPE_REQUIRED", "This field is required")
    assert _refusal("POST", "/interactions/1/t0ken/callback", {"data": {}}) == {"type": required}


def test_path_and_query_are_checked_as_their_types() -> None:
    not_snowflake = _error("NUMBER_TYPE_COERCE", 'Value "abc" is not snowflake.')
    assert _refusal("GET", "/channels/abc", None) == {"channel_id": not_snowflake}
    limit = _error("NUMBER_TYPE_MAX", "int value should be less than or equal to 100.")
    assert _refusal("GET", "/channels/1/messages", None, {"limit": "101"}) == {"limit": limit}
    assert _refusal("GET", "/channels/1/messages", None, {"limit": "100"}) is None
    with pytest.raises(SpecRefusal) as refused:
        default_validator().check("GET", "/no/such/route", {})
    assert refused.value.status == 404


@pytest.mark.parametrize("difference", DIFFERENCES, ids=lambda d: d.name)
def test_each_known_difference_is_still_needed(difference: Difference) -> None:
    """The spec alone refuses the difference's example; with the differences it passes.
    When this fails for an entry, the spec has been corrected: remove the entry."""
    example = difference.example
    request = (example.method, example.path, example.query, example.body, example.content_type)
    with pytest.raises(SpecRefusal):
        raw_validator().check(*request)
    default_validator().check(*request)
    assert difference.reason and len({d.name for d in DIFFERENCES}) == len(DIFFERENCES)


# ----- through the real discord.py client ---------------------------------------------------------
class LabelBot(discord.Client):
    """A bot whose /label command shows a modal with a text input labelled ``length`` x's,
    and keeps what Discord answered."""

    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.default()
        intents.members = intents.presences = intents.message_content = False
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.refusals: list[discord.HTTPException] = []

        @self.tree.command(name="label", description="Show a modal with a long label")
        async def label(interaction: discord.Interaction, length: int) -> None:
            modal = discord.ui.Modal(title="Cards", custom_id="cards_modal")
            modal.add_item(discord.ui.TextInput(label="x" * length, custom_id="cards"))
            try:
                await interaction.response.send_modal(modal)
            except discord.HTTPException as exc:
                self.refusals.append(exc)

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def test_a_46_character_label_gets_the_400_discord_sends(fake: FakeDiscord) -> None:
    async with BotRunner(fake, lambda: LabelBot(fake.guild_id)) as runner:
        bot = runner.client
        dana = fake.member("dana")
        shown = await dana.slash("label", length=LABEL_LIMIT)
        await fake.wait_for(lambda: shown.modal is not None, 10, "the 45-character modal")
        refused = await dana.slash("label", length=LABEL_LIMIT + 1)
        (error,) = await fake.wait_for(lambda: bot.refusals, 10, "discord.py's HTTPException")
    assert (error.status, error.code) == (400, 50035)
    assert error.text == (
        "Invalid Form Body\nIn data.components.0.components.0.label: Must be 45 or fewer in length."
    )
    assert refused.modal is None and refused.callback_type is None
    assert fake.spec.refused == 1 and fake.spec.checked >= 5  # login, sync, two callbacks


async def _dm(fake: FakeDiscord, client: discord.Client) -> None:
    """discord.py opens a DM channel with the recipient's id as a JSON integer."""
    await client.http.start_private_message(fake.member("bo").id)


async def _webhook(fake: FakeDiscord, client: discord.Client) -> None:
    """discord.py's interaction follow-ups ask ``wait=1&with_components=1`` (an unknown
    token: past the spec, the fake answers 404)."""
    hook = discord.Webhook.partial(fake.application_id, "no-such-token", client=client)
    await hook.send("hi", wait=True)


async def _oauth2_token(fake: FakeDiscord, client: discord.Client) -> None:
    """The Activity's sign-in exchanges a code for a token (an unknown code: 400 from the
    fake's OAuth2, past the spec)."""
    form = {"grant_type": "authorization_code", "code": "nope", "client_id": "1"}
    async with aiohttp.ClientSession() as session:
        await call(session, "POST", f"{fake.api_base}/oauth2/token", data=form)


SENDS: dict[str, Callable[[FakeDiscord, discord.Client], Awaitable[None]]] = {
    "integer snowflakes": _dm,
    "1/0 booleans in queries": _webhook,
    "POST /oauth2/token": _oauth2_token,
}


async def _refused_by_the_spec(fake: FakeDiscord, client: discord.Client, name: str) -> bool:
    """Whether the fake's spec check refused what ``SENDS[name]`` sends (whatever the route
    answered after it)."""
    before = fake.spec.refused
    with contextlib.suppress(discord.HTTPException):
        await SENDS[name](fake, client)
    return fake.spec.refused > before


@pytest.mark.parametrize("difference", DIFFERENCES, ids=lambda d: d.name)
async def test_the_spec_alone_refuses_what_discord_py_sends_for_each_difference(
    fake: FakeDiscord, client: discord.Client, difference: Difference
) -> None:
    assert set(SENDS) == {d.name for d in DIFFERENCES}
    assert not await _refused_by_the_spec(fake, client, difference.name)  # as Discord takes it
    fake.spec.validator = raw_validator()
    assert await _refused_by_the_spec(fake, client, difference.name)
