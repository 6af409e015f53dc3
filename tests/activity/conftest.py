"""The table as a Discord Activity in real Chromium: the bot against the fake Discord, its web
server behind the fake's Discord proxy, and the Discord client harness page
(tests/fakediscord/activity_harness.py) embedding the Activity and answering its SDK.

``activity_browser`` is Chromium as tests/web starts it, with the Local Network Access checks
off: in the tests the Discord client's page (``https://discord.com``, routed) embeds an
Activity served from this machine (``http://<client id>.localhost``), which Chromium would
otherwise block as a public page reaching a local one; Discord's real origin is public.

``DiscordTable.open(name, platform)`` opens the Activity for a member in a browser context
of their own (a phone's or a desktop's) and waits until it has signed in (or was refused):
an :class:`Opened` with the Discord client page, the Activity's frame (``view``, which the
tests/web helpers take as a page) and every socket frame the Activity received.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest_asyncio

from bot.web.activity import ActivityKeys
from tests.e2e.fake_helpers import TIME_SCALE
from tests.fakediscord import FakeDiscord, running_fake
from tests.fakediscord.activities import ActivityInstance
from tests.fakediscord.activity_harness import ActivityProxy, DiscordClient, Launch, open_activity
from tests.web.conftest import chromium
from tests.web.helpers import DESKTOP, PHONE, WAIT, bot_beside_web, frame_recorder

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Frame, Page

LOCAL_ORIGINS = "--disable-features=LocalNetworkAccessChecks"
OPEN = "ga:open"  # the custom id of the "Open the table" button (bot/discord_bot/launch.py)
LAUNCH_ACTIVITY = 12  # the interaction answer that launches the Activity


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def activity_browser() -> AsyncIterator[Browser]:
    """One headless Chromium for the Activity tests (see the module doc)."""
    async with chromium(LOCAL_ORIGINS) as launched:
        yield launched


class FrameView:
    """The Activity's frame as the tests/web helpers use a page: the frame's DOM and
    scripts, the page's mouse and touchscreen (the frame fills the page from its corner, so
    their points are the same)."""

    def __init__(self, page: Page, frame: Frame) -> None:
        self.page, self.frame = page, frame
        self.mouse, self.touchscreen = page.mouse, page.touchscreen

    def __getattr__(self, name: str) -> Any:
        return getattr(self.frame, name)


@dataclass
class Opened:
    """One person's Activity: their browser context, the Discord client page, the frame."""

    name: str
    user_id: int
    launch: Launch
    context: BrowserContext
    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)  # every socket frame received
    requests: list[str] = field(default_factory=list)  # every URL the Activity's frame asked

    @property
    def frame(self) -> Frame:
        found = self.page.frame(name="activity")
        assert found is not None, "the client page has no Activity frame"
        return found

    @property
    def view(self) -> Any:
        return FrameView(self.page, self.frame)

    async def signed(self) -> str:
        """Wait until the sign-in is over: ``"in"`` or ``"refused"``."""
        handle = await self.frame.wait_for_function(
            """() => { const s = document.getElementById('signin');
                return s && ['in', 'refused'].includes(s.dataset.state) ? s.dataset.state : null; }""",
            timeout=WAIT,
            polling=20,
        )
        return str(await handle.json_value())

    async def notice(self) -> str:
        """The sign-in line the Activity shows."""
        return str(await self.frame.evaluate("document.getElementById('signin').textContent"))

    async def harness(self, what: str) -> Any:
        """A field of the client page's record of the SDK protocol (``window.harness``)."""
        return await self.page.evaluate(f"JSON.parse(JSON.stringify(window.harness.{what}))")


@dataclass
class DiscordTable:
    """The fake Discord, the bot serving the Activity, Discord's proxy and client harness."""

    fake: FakeDiscord
    bot: Any
    browser: Browser
    proxy: ActivityProxy
    client: DiscordClient
    opened: list[Opened] = field(default_factory=list)

    def channel_id(self, name: str = "gouji") -> int:
        return int(self.fake.channel(name).id)

    async def press_open(self, name: str, message: Any) -> str:
        """``name`` presses "Open the table" on ``message`` (the table message, a DM
        controller): the bot answers LAUNCH_ACTIVITY (type 12) and the fake starts or joins
        the Activity there. The instance id."""
        pressed = await self.fake.member(name).click(message, OPEN)
        assert (await pressed.response()).type == LAUNCH_ACTIVITY
        return str(pressed.activity_instance_id)

    async def open(
        self,
        name: str,
        platform: str = "desktop",
        *,
        channel: str = "gouji",
        instance_id: str | None = None,
        join: bool = True,
        code: str | None = None,
        launched_app: str | None = None,
        wait: bool = True,
    ) -> Opened:
        """``name`` opens the Activity on ``platform``: the instance ``instance_id`` (one
        their press started or joined, :meth:`press_open`), else the one in ``channel``
        (joining it, or starting it, as the button's answer does; ``join=False``: the harness
        opens the instance running there without the fake counting them in it). ``code``:
        the harness's AUTHORIZE answers that code instead of a fresh one; ``launched_app``:
        the application the Discord client thinks it launched (default the bot's)."""
        member = self.fake.member(name)
        activities, where = self.fake.activities, self.channel_id(channel)
        instance: ActivityInstance | None
        if instance_id is not None:
            instance = activities.instances[instance_id]
        else:
            instance = (
                activities.launch(where, member.id) if join else activities.instance_in(where)
            )
        assert instance is not None, "no Activity runs in the channel to be left out of"
        launch = Launch(
            member.id, instance.instance_id, instance.channel_id, instance.guild_id, platform
        )
        launch.code, launch.client_id = code, launched_app
        device = PHONE if platform == "mobile" else DESKTOP
        context = await self.browser.new_context(**device, locale=member.locale)
        frames: list[dict[str, Any]] = []
        requests: list[str] = []
        on_socket = frame_recorder(frames)

        def on_request(request: Any) -> None:
            if request.frame.parent_frame is not None:  # the Activity's, not the client page's
                requests.append(request.url)

        def on_page(page: Page) -> None:
            page.on("websocket", on_socket)
            page.on("request", on_request)

        context.on("page", on_page)
        page = await open_activity(context, self.client, launch)
        opened = Opened(name, member.id, launch, context, page, frames, requests)
        self.opened.append(opened)
        if wait:
            await opened.signed()
        return opened

    async def close(self) -> None:
        for opened in self.opened:
            # a routed request still being answered when the page goes is not an error
            await opened.context.unroute_all(behavior="ignoreErrors")
            await opened.context.close()
        self.opened.clear()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def discord_table(
    activity_browser: Browser, tmp_path_factory: Any
) -> AsyncIterator[DiscordTable]:
    """One fake Discord and one bot serving the Activity for the tests of a module."""
    folder: Path = tmp_path_factory.mktemp("activity")
    async with running_fake(time_scale=TIME_SCALE) as fake:
        keys = ActivityKeys(
            fake.application_id, fake.activities.client_secret, fake.token, fake.api_base
        )
        async with bot_beside_web(
            fake,
            folder / "gouji.db",
            keys=keys,
            seed=7,
            activity=True,
            client_id=fake.application_id,
            client_secret=fake.activities.client_secret,
            discord_api=fake.api_base,
        ) as (bot, url):
            async with ActivityProxy(fake.application_id, url) as proxy:
                async with DiscordClient(fake, proxy) as client:
                    table = DiscordTable(fake, bot, activity_browser, proxy, client)
                    try:
                        yield table
                    finally:
                        await table.close()
        assert not fake.internal_errors, fake.internal_errors
