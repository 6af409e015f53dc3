"""The typed wire (issue #51, part 4): every frame of a real game has the keys of the committed
golden file and of its typed definition (bot/web/frames.py), the client's JSDoc typedefs
(static/frames.js) name the same keys and types, a request is read into its type or
refused, and the client holds no word of any language (it is sent them in hello).

A change of the wire is a diff of ``frames.golden.json``: ``GOUJI_WRITE_GOLDEN=1 pytest
tests/web/test_frames.py`` writes it anew from the game's frames, to be reviewed and
committed with the change."""

from __future__ import annotations

import asyncio
import json
import os
import re
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.service.errors import UserError
from bot.service.tournaments import TableStandings
from bot.text.catalog import text
from bot.text.langs import LANGS
from bot.web import frames
from bot.web.frames import Encoded, MePart, TablePart, encode, encode_state
from bot.web.local import LocalTable
from bot.web.protocol import BadRequest, Malformed, read_request
from bot.web.static_files import STATIC
from bot.web.strings import card_faces, client_strings, client_words
from engine.tournament import Standing
from tests.web.helpers import served

GOLDEN = Path(__file__).with_name("frames.golden.json")
FRAMES_JS = STATIC / "frames.js"
#: the client's own scripts (discord-sdk.js is Discord's SDK, bundled: not ours)
OUR_JS = sorted(p for p in STATIC.glob("*.js") if p.name != "discord-sdk.js")
Shape = dict[str, Any] | list[Any] | None


# ----------------------------------------------------------------------------- shapes
def _typed_dicts() -> dict[str, type]:
    return {
        name: value
        for name, value in vars(frames).items()
        if isinstance(value, type) and typing.is_typeddict(value)
    }


def _members(alias: Any) -> list[type]:
    return list(typing.get_args(alias))


def _unwrap(hint: Any) -> Any:
    """A field's type without NotRequired, and without None when it is optional."""
    if typing.get_origin(hint) is typing.NotRequired:
        hint = typing.get_args(hint)[0]
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
        return args[0]
    return hint


def _type_shape(hint: Any) -> Shape:
    """The keys a value of this type has, recursively: a TypedDict's keys (all of them, a
    ``NotRequired`` one too: the real game's frames, merged, hold each at least once), a
    map's as ``*``, a list's items' in a list; None for a scalar."""
    hint = _unwrap(hint)
    if typing.is_typeddict(hint):
        hints = typing.get_type_hints(hint)
        return {key: _type_shape(hints[key]) for key in sorted(hints)}
    origin = typing.get_origin(hint)
    if origin is list:
        return [_type_shape(typing.get_args(hint)[0])]
    if origin is dict:
        return {"*": _type_shape(typing.get_args(hint)[1])}
    return None


def _maps(hint: Any, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The paths of the maps (``dict[str, X]``) inside a type: their keys are data, not
    names of the wire."""
    hint = _unwrap(hint)
    if typing.is_typeddict(hint):
        hints = typing.get_type_hints(hint)
        return {p for key, h in hints.items() for p in _maps(h, (*path, key))}
    if typing.get_origin(hint) is list:
        return _maps(typing.get_args(hint)[0], path)
    if typing.get_origin(hint) is dict:
        return {path}
    return set()


MAPS = {p for kind in _members(frames.Frame) for p in _maps(kind)}


def _merge(a: Shape, b: Shape) -> Shape:
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: _merge(a.get(k), b.get(k)) for k in sorted({*a, *b})}
    if isinstance(a, list) and isinstance(b, list):
        return [_merge(a[0], b[0])]
    raise AssertionError(f"a key holds both {a!r} and {b!r}")


def _shape(value: Any, path: tuple[str, ...] = ()) -> Shape:
    """The keys of a frame as it was sent, recursively (a map's as ``*``; a list's items'
    merged; None for a scalar or a null)."""
    if isinstance(value, dict):
        if path in MAPS:
            merged: Shape = None
            for item in value.values():
                merged = _merge(merged, _shape(item, path))
            return {"*": merged}
        return {k: _shape(v, (*path, k)) for k, v in sorted(value.items())}
    if isinstance(value, list):
        merged = None
        for item in value:
            merged = _merge(merged, _shape(item, path))
        return [merged]
    return None


# ----------------------------------------------------------------------------- a real game
class Socket:
    """A seat's socket, every frame it receives kept by kind."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, seen: dict[str, Shape]) -> None:
        self.ws, self.seen = ws, seen

    async def until(
        self, kind: str, test: Callable[[dict[str, Any]], bool] = lambda _: True
    ) -> dict[str, Any]:
        """The next frame of ``kind`` that passes ``test`` (every frame on the way is kept)."""
        while True:
            message = await self.ws.receive(timeout=20)
            assert message.type == aiohttp.WSMsgType.TEXT, message
            frame = json.loads(message.data)
            self.seen[frame["t"]] = _merge(self.seen.get(frame["t"]), _shape(frame))
            if frame["t"] == kind and test(frame):
                return dict(frame)


def _asked(kind: str | None = None) -> Callable[[dict[str, Any]], bool]:
    def test(state: dict[str, Any]) -> bool:
        me = state["me"]
        asked = me is not None and me["question"] is not None
        return asked and (kind is None or me["question"]["kind"] == kind)

    return test


def _held(state: dict[str, Any]) -> bool:
    """A state whose game is over, its result waiting for this seat to go on."""
    result = state["table"]["result"]
    return result is not None and state["me"]["seat"] in result["waiting"]


def _any_answer(asked: dict[str, Any]) -> dict[str, Any]:
    """An act answering ``asked``: a pass or the first play, no burn, the first answer, the
    cards first returnable."""
    act: dict[str, Any] = {"t": "act", "token": asked["token"]}
    if asked["kind"] == "return":
        letters = "3456789TJQKA2BR"
        cards = "".join(letters[r] * n for r, n in enumerate(asked["returnable"]))
        return {**act, "verb": "return", "cards": cards[: asked["returnCount"]]}
    if asked["kind"] == "turn":
        if "pass" in asked["answers"]:
            return {**act, "verb": "pass"}
        return {**act, "verb": "play", "cards": asked["plays"][0]}
    return {**act, "verb": asked["answers"][0]}


def _shown(state: dict[str, Any]) -> bool:
    """A state whose every optional part is there: a play on the table, a seat's last
    action, the 记牌器, the score."""
    table = state["table"]
    return (
        table["standing"] is not None
        and table["counter"] is not None
        and table["score"] is not None
        and any(seat["last"] is not None for seat in table["seats"])
    )


async def _frames_of_a_game(local: LocalTable) -> dict[str, Shape]:
    """Every kind of frame, from a series against the AI played through one seat's socket:
    the keys of each kind, merged over all its frames."""
    seen: dict[str, Shape] = {}
    base = f"ws://127.0.0.1:{local.port}/ws"
    ticket = local.link(0).split("#")[1]
    async with aiohttp.ClientSession() as http:
        forged = ticket.rsplit(".", 1)[0] + ".AAAAAAAAAAAAAAAAAAAAAA"
        async with http.ws_connect(f"{base}?t={forged}&lang=en") as ws:
            await Socket(ws, seen).until("gone")
        async with http.ws_connect(f"{base}?t={ticket}&lang=en") as ws:
            me = Socket(ws, seen)
            await me.until("hello")
            await local.start()
            state = await me.until("state", _asked())
            await ws.send_json({"t": "ping", "id": 1})
            await me.until("pong")
            await ws.send_json({"t": "bogus", "id": 2})
            refused = await me.until("refused")
            assert refused == {
                "t": "refused",
                "id": 2,
                "text": text("en", "web_unknown_request", kind="bogus"),
            }
            await ws.send_json({"t": "describe", "cards": "3", "id": 3})
            await me.until("described")
            while state["me"]["question"]["kind"] != "turn":  # 宣点, 革命 …: no
                asked = state["me"]["question"]
                verb = next(v for v in asked["answers"] if v.startswith("no"))
                await ws.send_json({"t": "act", "verb": verb, "token": asked["token"], "id": 4})
                state = await me.until("state", _asked())
            await ws.send_json({"t": "hint", "id": 5})
            await me.until("hint")
            await ws.send_json({"t": "auto", "id": 6})  # 托管: the AI plays the seat on
            assert (await me.until("ok"))["id"] == 6
            await me.until("state", _shown)
            await ws.send_json({"t": "back", "id": 7})  # the seat again, to the game's end
            state = await me.until("state", lambda s: _asked()(s) or _held(s))
            while not _held(state):
                await ws.send_json({**_any_answer(state["me"]["question"]), "id": 8})
                state = await me.until("state", lambda s: _asked()(s) or _held(s))
            await ws.send_json({"t": "goon", "id": 9})  # 继续: the next deal
            await me.until("state", lambda s: s["table"]["result"] is None)
            await ws.send_json({"t": "lang", "lang": "zh"})
            await me.until("hello", lambda hello: hello["lang"] == "zh")
            await local.service.lose(local.table_id)  # another process took it over
            await me.until("wait")
    return seen


async def _an_event(table_id: int) -> TableStandings:
    """The table as one of a tournament's round (tests/web/test_web_event.py: a real one)."""
    line = Standing(1, 1, 6, 1, 2, 1, 0, 0, "in", 0, 0)
    return TableStandings(1, "周赛", 2, 4, "running", (line,))


@pytest.fixture(scope="module")
def game_frames(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Shape]:
    async def play() -> dict[str, Shape]:
        async with served(tmp_path_factory.mktemp("wire"), {0: "济南"}, series=True) as local:
            local.site.hub.events = _an_event  # a tournament's table: its standings are sent
            return await asyncio.wait_for(_frames_of_a_game(local), 120)

    return asyncio.run(play())


def test_every_kind_of_frame_of_a_real_game_has_the_golden_keys(
    game_frames: dict[str, Shape],
) -> None:
    kinds = {typing.get_type_hints(kind)["t"].__args__[0] for kind in _members(frames.Frame)}
    assert set(game_frames) == kinds, "the game did not make every kind of frame"
    if os.environ.get("GOUJI_WRITE_GOLDEN"):
        GOLDEN.write_text(json.dumps(game_frames, indent=1, sort_keys=True) + "\n")
    golden = json.loads(GOLDEN.read_text())
    for kind in sorted(kinds):
        assert game_frames[kind] == golden[kind], f"the {kind!r} frame's keys changed"


def test_the_typed_definitions_have_the_golden_keys() -> None:
    golden = json.loads(GOLDEN.read_text())
    for kind in _members(frames.Frame):
        name = typing.get_type_hints(kind)["t"].__args__[0]
        assert _type_shape(kind) == golden[name], f"{kind.__name__} is not what is sent"


def test_a_state_written_in_parts_is_the_state_encoded_whole() -> None:
    table: TablePart = json.loads(json.dumps(_example(TablePart)))
    me: MePart = json.loads(json.dumps(_example(MePart)))
    whole = encode(frames.State(t="state", v=3, now=12.5, table=table, me=me))
    assert json.loads(encode_state(3, 12.5, Encoded(table), Encoded(me))) == json.loads(whole)
    assert json.loads(encode_state(3, 12.5, Encoded(table), Encoded(None)))["me"] is None


def _example(hint: Any) -> Any:
    """A value of a type, every part there (its scalars 1, "x", True)."""
    hint = _unwrap(hint)
    if typing.is_typeddict(hint):
        return {k: _example(h) for k, h in typing.get_type_hints(hint).items()}
    origin = typing.get_origin(hint)
    if origin is list:
        return [_example(typing.get_args(hint)[0])]
    if origin is dict:
        return {"k": _example(typing.get_args(hint)[1])}
    if origin is typing.Literal:
        return typing.get_args(hint)[0]
    return {int: 1, float: 1.5, str: "x", bool: True}[hint]


# ----------------------------------------------------------------------------- the client's types
TYPEDEF = re.compile(r"/\*\*(?P<body>(?:(?!\*/).)*?)@typedef\s+\{(?P<type>[^}]*)\}\s+(?P<name>\w+)"
                     r"(?P<rest>(?:(?!\*/).)*)\*/", re.S)  # fmt: skip
PROPERTY = re.compile(r"@property\s+\{(?P<type>[^}]*)\}\s+(?P<name>\[?\w+\]?)")


def _js_typedefs() -> dict[str, str | dict[str, str]]:
    """frames.js's typedefs: an object's properties (``[name]``: optional) with their types,
    or a union's type."""
    out: dict[str, str | dict[str, str]] = {}
    for found in TYPEDEF.finditer(FRAMES_JS.read_text(encoding="utf-8")):
        declared = " ".join(found["type"].split())
        if declared == "Object":
            properties = PROPERTY.finditer(found["rest"])
            out[found["name"]] = {p["name"]: " ".join(p["type"].split()) for p in properties}
        else:
            out[found["name"]] = declared
    return out


def _js_type(hint: Any) -> str:
    """A Python type of the wire written as JSDoc writes it."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_js_type(arg) for arg in typing.get_args(hint))
    if origin is typing.Literal:
        return " | ".join(json.dumps(value) for value in typing.get_args(hint))
    if origin is list:
        item = _js_type(typing.get_args(hint)[0])
        return f"({item})[]" if " | " in item else item + "[]"
    if origin is dict:
        key, value = typing.get_args(hint)
        return f"Object<{_js_type(key)}, {_js_type(value)}>"
    if typing.is_typeddict(hint):
        return str(hint.__name__)
    scalars = {str: "string", int: "number", float: "number", bool: "boolean"}
    return "null" if hint is type(None) else scalars[hint]


def _py_typedef(kind: type) -> dict[str, str]:
    hints = typing.get_type_hints(kind, include_extras=True)
    out = {}
    for key, hint in hints.items():
        optional = typing.get_origin(hint) is typing.NotRequired
        bare = typing.get_args(hint)[0] if optional else hint
        out[f"[{key}]" if optional else key] = _js_type(bare)
    return out


def test_the_client_s_typedefs_are_the_server_s_definitions() -> None:
    js = _js_typedefs()
    python: dict[str, str | dict[str, str]]
    python = {name: _py_typedef(kind) for name, kind in _typed_dicts().items()}
    python["Frame"] = " | ".join(kind.__name__ for kind in _members(frames.Frame))
    python["Request"] = " | ".join(kind.__name__ for kind in _members(frames.Request))
    assert sorted(js) == sorted(python), "frames.js and frames.py define other types"
    for name, definition in python.items():
        assert js[name] == definition, f"{name}: frames.js says {js[name]}, frames.py {definition}"


def test_every_script_of_the_client_is_type_checked_and_uses_the_frames_types() -> None:
    for script in OUR_JS:
        assert script.read_text(encoding="utf-8").startswith("// @ts-check\n"), script.name
    for name in ("app.js", "net.js"):
        assert 'import("./frames.js").Frame' in (STATIC / name).read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- requests
@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ('{"t": "act", "verb": "play", "cards": "KK", "token": "1.2.3", "id": 4}',
         {"t": "act", "verb": "play", "cards": "KK", "token": "1.2.3", "id": 4}),
        ('{"t": "act", "verb": "pass"}', {"t": "act", "verb": "pass", "cards": None, "token": None}),
        ('{"t": "act", "verb": "' + "x" * 50 + '"}',
         {"t": "act", "verb": "x" * 20, "cards": None, "token": None}),
        ('{"t": "describe", "cards": "8888822", "id": "a"}',
         {"t": "describe", "cards": "8888822", "id": "a"}),
        ('{"t": "lang", "lang": "en", "id": 1}', {"t": "lang", "lang": "en", "id": 1}),
        ('{"t": "hint", "id": 2}', {"t": "hint", "id": 2}),
        ('{"t": "back"}', {"t": "back"}),
        ('{"t": "auto", "id": true}', {"t": "auto"}),
        ('{"t": "again", "id": "' + "9" * 40 + '"}', {"t": "again"}),
        ('{"t": "ping", "id": 7}', {"t": "ping", "id": 7}),
    ],
)  # fmt: skip
def test_a_request_is_read_into_its_type(raw: str, read: dict[str, Any]) -> None:
    assert read_request(raw) == read


@pytest.mark.parametrize(
    ("raw", "ref", "key"),
    [
        ("not json", None, "web_bad_message"),
        ("[1, 2]", None, "web_bad_message"),
        ('{"id": 3}', 3, "web_bad_message"),
        ('{"t": 5, "id": 3}', 3, "web_bad_message"),
        ('{"t": "act", "id": 3}', 3, "web_bad_message"),
        ('{"t": "act", "verb": "play", "cards": 7, "id": 3}', 3, "web_bad_message"),
        ('{"t": "act", "verb": "play", "token": [], "id": 3}', 3, "web_bad_message"),
        ('{"t": "describe", "id": "x"}', "x", "web_bad_message"),
        ('{"t": "lang", "lang": "fr", "id": 3}', 3, "web_bad_message"),
        ('{"t": "shout", "id": 3}', 3, "web_unknown_request"),
    ],
)
def test_a_malformed_or_unknown_request_is_refused_with_its_id(
    raw: str, ref: Any, key: str
) -> None:
    with pytest.raises(BadRequest) as refused:
        read_request(raw)
    assert (refused.value.ref, refused.value.key) == (ref, key)
    assert isinstance(refused.value, UserError)


def test_an_unknown_request_is_named_in_its_refusal_in_every_language() -> None:
    with pytest.raises(BadRequest) as refused:
        read_request('{"t": "' + "z" * 100 + '"}')
    assert refused.value.params == {"kind": "z" * 20}
    for lang in LANGS:
        said = text(lang, "web_unknown_request", **refused.value.params)
        assert "z" * 20 in said and said != text(lang, "web_bad_message")


def test_json_nested_too_deep_is_malformed() -> None:
    with pytest.raises(Malformed):
        read_request("[" * 5000 + "]" * 5000)


# ----------------------------------------------------------------------------- no words in the JS
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _literals(source: str) -> list[str]:
    """The text of every string and template literal of a script (a template's text between
    its ``${…}``), its comments and regular expressions left out."""
    out: list[str] = []
    i, n = 0, len(source)
    last = ""  # the last character of code: does a "/" start a regular expression?

    def string(end: int, quote: str) -> int:
        j, chunk = end, ""
        while source[j] != quote:
            if source[j] == "\\":
                chunk += source[j + 1]
                j += 2
            elif quote == "`" and source.startswith("${", j):
                out.append(chunk)
                chunk, depth, j = "", 1, j + 2
                while depth:  # the expression: its strings too
                    if source[j] in "'\"`":
                        j = string(j + 1, source[j])
                        continue
                    depth += {"{": 1, "}": -1}.get(source[j], 0)
                    j += 1
            else:
                chunk += source[j]
                j += 1
        out.append(chunk)
        return j + 1

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif c in "'\"`":
            i = string(i + 1, c)
            last = c
        elif c == "/" and (last == "" or last in "(,=:[!&|?{};"):
            j = i + 1
            in_class = False
            while source[j] != "/" or in_class:
                in_class = (in_class or source[j] == "[") and source[j] != "]"
                j += 2 if source[j] == "\\" else 1
            i = j + 1
            last = "/"
        else:
            if not c.isspace():
                last = c
            i += 1
    return out


def _english_words() -> set[str]:
    """The words of the English texts the client is sent, as written there (capitalised:
    "Play", "JOKER"), and each pair of words in a row ("the table")."""
    texts = [*client_strings("en").values(), card_faces()["joker"]]
    texts += [text("en", key) for key in ("activity_signing_in", "activity_no_sign_in")]
    words: set[str] = set()
    for said in texts:
        said = re.sub(r"\{\w+\}", " ", said)
        run = re.findall(r"[A-Za-z]{2,}", said)
        words.update(w for w in run if not w.islower())
        for sentence in re.split(r"[^A-Za-z ]+", said):
            pair = sentence.split()
            words.update(f"{a} {b}" for a, b in zip(pair, pair[1:], strict=False))
    return words


def _hard_coded(source: str, words: set[str]) -> list[str]:
    found = []
    for literal in _literals(source):
        if CJK.search(literal) or "×" in literal or "·" in literal or "…" in literal:
            found.append(literal)
            continue
        found += [w for w in words if re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", literal)]
    return found


def test_the_scan_finds_a_word_written_into_a_script_but_not_in_a_comment() -> None:
    words = _english_words()
    assert "Play" in words and "JOKER" in words
    planted = {
        'el("span", "jt", "JOKER");': ["JOKER"],
        "const who = names.join('、'); // 、 in a comment": ["、"],
        "label = `${t('web_play')} · ${words}`;": [" · "],
        'b.textContent = `Play again (${n})`;': ["Play", "Play again"],
        "/* 小王 大王 */ const big = 14; // JOKER": [],
        'const re = /\\s"/g; el("div", "primary play", "");': [],
    }  # fmt: skip
    for source, expected in planted.items():
        assert sorted(_hard_coded(source, words)) == sorted(expected), source


@pytest.mark.parametrize("script", [p.name for p in OUR_JS])
def test_no_script_of_the_client_holds_a_word_of_any_language(script: str) -> None:
    """Every word the page shows comes from the server (hello): its texts, how the language
    joins them, the card faces; the scripts hold none, but in their comments."""
    source = (STATIC / script).read_text(encoding="utf-8")
    assert _hard_coded(source, _english_words()) == []


@pytest.mark.parametrize("lang", LANGS)
def test_hello_says_how_each_language_joins_its_words(lang: str) -> None:
    words = client_words(lang)
    assert words["list"] == text(lang, "sep.list") and words["dot"] == text(lang, "sep.dot")
    assert words["times"].replace("{n}", "3") == text(lang, "cards.times", n=3)
    faces = card_faces()
    assert len(faces["ranks"]) == len(faces["letters"]) == 15
    assert list(faces["suits"]) == list("shdc")
