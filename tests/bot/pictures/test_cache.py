"""A hand picture is reused while the hand has not changed: drawn once per hand, language
and style (highlight, title), the newest kept up to a number of bytes."""

from __future__ import annotations

import asyncio

import pytest

from bot.pictures import png as pictures
from bot.pictures.cache import PictureCache, reusable
from bot.pictures.drawing import Drawer

HAND = "3s 3h 7d Tc Qs As 2h"
drawn: list[tuple[str, str]] = []


@reusable
def counted_png(cards: str, lang: str, highlight: str | None = None) -> bytes:
    drawn.append((cards, lang))
    return f"{cards}|{lang}|{highlight}".encode()


@pytest.fixture(autouse=True)
def _fresh() -> None:
    drawn.clear()


async def test_the_same_hand_is_drawn_once() -> None:
    drawer = Drawer(processes=0)
    first = await drawer(pictures.hand_png, HAND, "zh")
    again = await drawer.background(pictures.hand_png, HAND, "zh", None)  # defaults named
    assert again == first == pictures.hand_png(HAND, "zh")
    assert (drawer.cache.misses, drawer.cache.hits, len(drawer.cache)) == (1, 1, 1)


async def test_another_hand_language_or_style_is_another_picture() -> None:
    drawer = Drawer(processes=0)
    for args in ((HAND, "zh"), ("3s 3h", "zh"), (HAND, "en"), (HAND, "zh", "33")):
        await drawer(counted_png, *args)
    assert len(drawn) == 4 and drawer.cache.hits == 0
    await drawer(counted_png, HAND, "zh", "33")
    assert len(drawn) == 4 and drawer.cache.hits == 1


async def test_callers_of_a_picture_being_drawn_wait_for_that_drawing() -> None:
    drawer = Drawer(processes=0)
    results = await asyncio.gather(*(drawer(counted_png, HAND, "zh") for _ in range(5)))
    assert len(set(results)) == 1 and len(drawn) == 1
    assert (drawer.cache.misses, drawer.cache.hits) == (1, 4)


async def test_the_cache_keeps_the_newest_pictures_up_to_its_bytes() -> None:
    size = len(counted_png("AA", "zh"))
    drawn.clear()
    drawer = Drawer(processes=0, cache=PictureCache(max_bytes=2 * size))
    for cards in ("AA", "KK", "AA", "QQ"):  # AA used again: KK is the oldest when QQ comes
        await drawer(counted_png, cards, "zh")
    assert drawer.cache.bytes <= 2 * size and len(drawer.cache) == 2
    await drawer(counted_png, "AA", "zh")
    await drawer(counted_png, "KK", "zh")
    assert [c for c, _ in drawn] == ["AA", "KK", "QQ", "KK"]


async def test_a_failed_drawing_is_not_kept() -> None:
    drawer = Drawer(processes=0)
    with pytest.raises(Exception, match="unknown card"):
        await drawer(pictures.hand_png, "3s 3h Xx", "zh")
    assert len(drawer.cache) == 0
    with pytest.raises(Exception, match="unknown card"):
        await drawer(pictures.hand_png, "3s 3h Xx", "zh")
    assert drawer.cache.misses == 2


async def test_pictures_of_other_functions_are_not_kept() -> None:
    drawer = Drawer(processes=0)
    await drawer(pictures.leaderboard_png, [], "S", "zh")
    assert len(drawer.cache) == 0 and drawer.cache.misses == 0


def test_a_negative_size_is_refused() -> None:
    with pytest.raises(ValueError, match="fewer than 0"):
        PictureCache(max_bytes=-1)
