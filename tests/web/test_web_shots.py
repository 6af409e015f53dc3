"""The docs' screenshots of the browser table (docs/images/web_shots.py) are made the way the
docs say: a phone and a desktop, in Chinese and English, at the player's turn with a play
tapped."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image

from docs.images.web_shots import shoot

if TYPE_CHECKING:
    from playwright.async_api import Browser


@pytest.mark.asyncio(loop_scope="session")
async def test_the_screenshot_script_shows_a_tapped_play_on_a_phone_and_a_desktop(
    browser: Browser, tmp_path: Path
) -> None:
    phone = await shoot(browser, tmp_path, "phone", "zh")
    desktop = await shoot(browser, tmp_path, "desktop", "en")
    assert Image.open(phone).size == (780, 1688)  # 390×844 at two device pixels a point
    assert Image.open(desktop).size == (1280, 800)
