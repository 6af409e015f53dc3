"""The table client's files, served from memory: each read once, gzipped once, with an ETag
(a hash of its content) and cache headers.

Pages and scripts are revalidated on each load (``no-cache``: a 304 costs a header when
nothing changed, and a new version of the bot is seen at once); fonts, which never change
under one name, are kept a week.

A page is served with its Content-Security-Policy (:data:`PAGE_POLICY`): everything from
this server only (its scripts, styles, fonts, socket), no inline script or style, no plugin,
and no other site may frame it — but Discord, for the Activity's page
(:data:`ACTIVITY_POLICY`).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from html import escape
from pathlib import Path

from aiohttp import web

from bot.text.langs import LANGS, text
from render import theme

STATIC = Path(__file__).resolve().parent / "static"
INDEX = "index.html"  # the table client's page (a personal link)
ACTIVITY_PAGE = "activity.html"  # the Discord Activity's page, made from INDEX
TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".woff2": "font/woff2",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
KEEP_FONTS = "public, max-age=604800"
REVALIDATE = "no-cache"
COMPRESSED = (".js", ".css", ".html", ".svg", ".json")  # woff2 is compressed already
_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; font-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors "
)
PAGE_POLICY = _POLICY + "'none'"
#: Discord's clients frame the Activity (the web and desktop apps at discord.com, its ptb
#: and canary, the Activity's own proxy origin <client id>.discordsays.com)
ACTIVITY_POLICY = _POLICY + "https://discord.com https://*.discord.com https://*.discordsays.com"


@dataclass(frozen=True, slots=True)
class StaticFile:
    """One file as served: its bytes, gzipped bytes (None: sent as it is), type, ETag."""

    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str
    cache: str


def theme_css() -> str:
    """The pictures' colours (:mod:`render.theme`) as CSS variables: ``--felt``, ``--team0``…
    One copy of each colour: the client's stylesheet uses these."""

    def rgb(colour: tuple[int, int, int]) -> str:
        return "rgb({}, {}, {})".format(*colour)

    names = {
        name.lower().replace("_", "-"): value
        for name, value in vars(theme).items()
        if name.isupper() and isinstance(value, tuple) and len(value) == 3
    }
    lines = [f"  --{name}: {rgb(value)};" for name, value in names.items()]
    for team, (bright, dark) in enumerate(zip(theme.TEAM_COLOURS, theme.TEAM_DARK, strict=True)):
        lines += [f"  --team{team}: {rgb(bright)};", f"  --team{team}-dark: {rgb(dark)};"]
    for place, colour in theme.PLACE_COLOURS.items():
        lines.append(f"  --place{place}: {rgb(colour)};")
    for mark, colour in theme.MARKER_COLOURS.items():
        lines.append(f"  --mark-{mark}: {rgb(colour)};")
    return (
        "/* made from render/theme.py by bot/web/static_files.py */\n:root {\n"
        + "\n".join(lines)
        + "\n}\n"
    )


def _served(name: str, body: bytes) -> StaticFile:
    suffix = Path(name).suffix
    kind = TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    packed = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSED else None
    return StaticFile(
        body=body,
        gzipped=packed if packed is not None and len(packed) < len(body) else None,
        content_type=kind + ("; charset=utf-8" if kind.startswith("text/") else ""),
        etag='"' + hashlib.sha256(body).hexdigest()[:20] + '"',
        cache=KEEP_FONTS if suffix == ".woff2" else REVALIDATE,
    )


def activity_page(index: str) -> str:
    """The Activity's page, made from the personal-link page (``index.html``) so that the
    table's markup has one copy: every address under Discord's proxy (``/.proxy/``, which
    passes each request to this server), the sign-in line above the table (with what it says
    while signing in and when that fails, in every language: the catalog's), and the Activity's
    script (``activity.js``: it signs in, then starts the table client as ``link.js`` does)
    with the SDK it imports in place of ``link.js``."""
    page = _once(
        index,
        '<script type="module" src="/static/link.js"></script>',
        '<link rel="modulepreload" href="/static/discord-sdk.js">\n'
        '<script type="module" src="/static/activity.js"></script>',
    )
    said = {  # before the server knows the person's language: every language's words at once
        name: escape(" · ".join(text(lang, key) for lang in LANGS))
        for name, key in (
            ("signing-in", "activity_signing_in"),
            ("no-sign-in", "activity_no_sign_in"),
        )
    }
    page = _once(
        page,
        '<div id="app"',
        f'<div id="signin" aria-live="polite" data-signing-in="{said["signing-in"]}" '
        f'data-no-sign-in="{said["no-sign-in"]}">够级 · Gouji</div>\n<div id="app"',
    )
    return page.replace('"/static/', '"/.proxy/static/')


def _once(page: str, old: str, new: str) -> str:
    if page.count(old) != 1:
        raise ValueError(f"{INDEX} must hold {old!r} once: the Activity's page is made from it")
    return page.replace(old, new)


def load(folder: Path = STATIC) -> dict[str, StaticFile]:
    """Every file of ``folder`` by its name (``app.js``), ``theme.css``, and the Activity's
    page made from ``index.html`` (:func:`activity_page`) unless the folder has its own."""
    files = {"theme.css": _served("theme.css", theme_css().encode())}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.startswith("."):
            continue
        files[path.name] = _served(path.name, path.read_bytes())
    if INDEX in files and ACTIVITY_PAGE not in files:
        page = activity_page(files[INDEX].body.decode("utf-8"))
        files[ACTIVITY_PAGE] = _served(ACTIVITY_PAGE, page.encode("utf-8"))
    return files


def respond(request: web.Request, served: StaticFile, policy: str | None = None) -> web.Response:
    """The file for this request: 304 if the browser has it, gzipped if it takes gzip; a
    page with its ``policy`` (Content-Security-Policy)."""
    headers = {"ETag": served.etag, "Cache-Control": served.cache, "Vary": "Accept-Encoding"}
    if policy is not None:
        headers["Content-Security-Policy"] = policy
    if served.etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    body = served.body
    if served.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
        body = served.gzipped
        headers["Content-Encoding"] = "gzip"
    return web.Response(body=body, headers={**headers, "Content-Type": served.content_type})
