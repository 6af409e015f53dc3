"""The Activity's page and the vendored SDK as files: the page made from the personal-link
page (one copy of the table's markup), every address under Discord's proxy, the safe-area insets, the SDK served as the other scripts are
and shipped with its licences and the script that rebuilds it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.web.static_files import ACTIVITY_PAGE, INDEX, REVALIDATE, STATIC, load

SDK_VERSION = "2.5.0"


def _page(name: str, folder: Path = STATIC) -> str:
    return load(folder)[name].body.decode("utf-8")


def test_the_activity_page_is_the_personal_link_page_signing_in_through_discord() -> None:
    activity, index = _page(ACTIVITY_PAGE), _page(INDEX)
    assert not (STATIC / ACTIVITY_PAGE).exists(), "one copy of the page: index.html"
    assert activity.index('<div id="signin"') < activity.index('<div id="app"')
    assert '<script type="module" src="/.proxy/static/activity.js">' in activity
    assert "link.js" not in activity and "link.js" in index and "signin" not in index
    table = index[index.index('<div id="app"') :]
    assert activity.endswith(table)


def test_a_change_to_the_personal_link_page_shows_in_the_activity_too(tmp_path: Path) -> None:
    index = (STATIC / INDEX).read_text(encoding="utf-8")
    changed = index.replace(
        '<div id="status" hidden></div>', '<div id="status" hidden></div><p id="new"></p>'
    )
    (tmp_path / INDEX).write_text(changed, encoding="utf-8")
    assert '<p id="new"></p>' in _page(ACTIVITY_PAGE, tmp_path)
    (tmp_path / INDEX).write_text(changed.replace("link.js", "elsewhere.js"), encoding="utf-8")
    with pytest.raises(ValueError, match="link.js"):
        load(tmp_path)


def test_every_address_of_the_activity_page_is_under_discords_proxy() -> None:
    html = _page(ACTIVITY_PAGE)
    addresses = re.findall(r'(?:href|src)="([^"]+)"', html)
    assert addresses and all(a.startswith("/.proxy/") or a == "data:," for a in addresses)
    # the stylesheet's fonts are relative to it, so under /.proxy/static/ they load from there
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    assert re.findall(r'url\("([^"]+)"\)', css) == ["gouji-cards.woff2", "gouji-ui.woff2"]


def test_the_pages_cover_a_phones_whole_screen_and_keep_clear_of_its_insets() -> None:
    for page in (ACTIVITY_PAGE, INDEX):
        assert "viewport-fit=cover" in _page(page)
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    for side in ("top", "right", "bottom", "left"):
        assert f"env(safe-area-inset-{side}" in css


def test_the_vendored_sdk_is_one_es_module_served_like_the_other_scripts() -> None:
    served = load()["discord-sdk.js"]
    assert served.content_type == "text/javascript; charset=utf-8"
    assert served.cache == REVALIDATE and served.gzipped is not None
    source = served.body.decode("ascii")  # bundled with --charset=ascii
    assert source.startswith(f"/* @discord/embedded-app-sdk {SDK_VERSION}, bundled by")
    assert re.search(r"export\{[^}]*as DiscordSDK", source)
    assert "import " not in source.split("*/", 1)[1][:200], "no import left: one file"


def test_the_sdk_ships_with_its_licences_and_the_script_that_rebuilds_it() -> None:
    licences = (STATIC / "discord-sdk.LICENSE.txt").read_text(encoding="utf-8")
    for package in (
        "@discord/embedded-app-sdk",
        "big-integer",
        "decimal.js-light",
        "eventemitter3",
        "lodash.transform",
        "uuid",
        "zod",
        "tslib",
    ):
        assert f"==== {package}" in licences, package
    script = (STATIC.parent / "vendor_sdk.sh").read_text(encoding="utf-8")
    assert f'SDK_VERSION="${{SDK_VERSION:-{SDK_VERSION}}}"' in script
