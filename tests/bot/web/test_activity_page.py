"""The Activity's page and the vendored SDK as files: one copy of the table's markup, every
address under Discord's proxy, the safe-area insets, the SDK served as the other scripts are
and shipped with its licences and the script that rebuilds it."""

from __future__ import annotations

import re

from bot.web.static_files import REVALIDATE, STATIC, load

SDK_VERSION = "2.5.0"


def _table_markup(page: str) -> str:
    html = (STATIC / page).read_text(encoding="utf-8")
    return html[html.index('<div id="app"') : html.index("</body>")]


def test_the_activity_shows_the_same_table_as_the_personal_link_page() -> None:
    assert _table_markup("activity.html") == _table_markup("index.html")


def test_every_address_of_the_activity_page_is_under_discords_proxy() -> None:
    html = (STATIC / "activity.html").read_text(encoding="utf-8")
    addresses = re.findall(r'(?:href|src)="([^"]+)"', html)
    assert addresses and all(a.startswith("/.proxy/") or a == "data:," for a in addresses)
    # the stylesheet's fonts are relative to it, so under /.proxy/static/ they load from there
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    assert re.findall(r'url\("([^"]+)"\)', css) == ["gouji-cards.woff2", "gouji-ui.woff2"]


def test_the_pages_cover_a_phones_whole_screen_and_keep_clear_of_its_insets() -> None:
    for page in ("activity.html", "index.html"):
        assert "viewport-fit=cover" in (STATIC / page).read_text(encoding="utf-8")
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
