"""The table client's UI font (issue #52, item 7): its subset holds every character of every
text the client may be sent, in every language — the catalogs' values (not the files they
were once in), and the texts of a real game's frames in Chinese and English."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

from bot.cli.web import NAMES
from bot.text.langs import LANGS, keys, text
from bot.web.make_fonts import DEFAULT_NAMES, catalog_values, client_texts
from bot.web.static_files import STATIC
from render.fonts import coverage
from tests.web.helpers import served

FONTS_TXT = STATIC.parent / "fonts.txt"


def _subset() -> set[str]:
    """The characters of the shipped UI subset, as make_fonts listed them."""
    listed = FONTS_TXT.read_text(encoding="utf-8").splitlines()
    return set(next(line for line in listed if line.startswith("ui "))[3:])


def _lacking(texts: Iterator[str] | list[str]) -> str:
    """The characters of ``texts`` past ASCII that the shipped font draws but the subset
    lacks (what the source font lacks, emoji, falls back to the system's fonts anyway)."""
    drawn, subset = coverage(), _subset()
    needed = {c for said in texts for c in said if ord(c) > 0x7E and ord(c) in drawn}
    return "".join(sorted(needed - subset))


def test_every_value_of_every_catalog_is_in_the_ui_font() -> None:
    missing = _lacking(client_texts())
    assert not missing, f"run python -m bot.web.make_fonts: the UI font lacks {missing}"


def test_the_catalog_values_are_every_template_and_every_function_s_words() -> None:
    for lang in LANGS:
        values = list(catalog_values(lang))
        assert len(values) >= len(keys(lang))
        assert text(lang, "web_series_over") in values
    # a function of a count is called over the counts: Chinese words them
    assert (
        text("zh", "count", n=7) in set(catalog_values("zh")) and text("zh", "count", n=7) == "七"
    )
    assert set("".join(NAMES)) == set(DEFAULT_NAMES), "gouji web's names changed: tell make_fonts"


def test_the_check_finds_a_character_the_subset_lacks() -> None:
    rare = next(chr(c) for c in sorted(coverage()) if c >= 0x4E00 and chr(c) not in _subset())
    assert _lacking([f"够级 {rare} 🤖"]) == rare


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


async def _texts_of_a_game(tmp: Path) -> list[str]:
    """Every string of every frame a seat's sockets get in Chinese and English over a whole
    game (the AI playing the seat, 托管), its people's names left out."""
    texts: list[str] = []
    async with served(tmp, {0: "济南"}, seed=11) as local:
        ticket = local.link(0).split("#")[1]
        base = f"ws://127.0.0.1:{local.port}/ws?t={ticket}"
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(f"{base}&lang=zh") as zh,
            http.ws_connect(f"{base}&lang=en") as en,
        ):
            await local.start()
            await en.send_json({"t": "auto", "id": 1})
            for ws in (zh, en):
                while True:
                    frame = json.loads((await ws.receive(timeout=30)).data)
                    texts.extend(_strings(frame))
                    table = frame.get("table") if frame["t"] == "state" else None
                    if table is not None and table["started"] and not table["playing"]:
                        break
    return texts


def test_every_text_of_a_real_game_in_both_languages_is_in_the_ui_font(tmp_path: Path) -> None:
    texts = asyncio.run(asyncio.wait_for(_texts_of_a_game(tmp_path), 120))
    assert any("头科" in said for said in texts) and any("1st" in said for said in texts)
    missing = _lacking(texts)
    assert not missing, f"run python -m bot.web.make_fonts: the UI font lacks {missing}"
