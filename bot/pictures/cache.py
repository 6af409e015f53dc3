"""Pictures kept by what they show: a drawing function marked :func:`reusable` is pure, so
the same arguments give the same PNG, drawn once and kept (newest first, up to a number of
bytes) instead of drawn again — a hand picture while the hand has not changed.

    @reusable
    def hand_png(cards: str, lang: str, highlight: str | None = None) -> bytes: ...

    cache = PictureCache(max_bytes=64 << 20)
    png = await cache.get(hand_png, ("7799", "zh"), lambda: drawer(hand_png, "7799", "zh"))

The key is the function and its arguments with the defaults filled in, so
``hand_png("7799", "zh")`` and ``hand_png("7799", "zh", None)`` are one picture. Callers
asking for a picture being drawn wait for that drawing instead of starting another.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., bytes])
_REUSABLE: dict[Callable[..., bytes], inspect.Signature] = {}
MAX_BYTES = 64 << 20  # ~1,400 hand pictures: every seat's current hand at 350 busy tables


def reusable(fn: F) -> F:
    """Mark a pure drawing function (plain, hashable arguments → PNG bytes) as one whose
    pictures may be kept; returns ``fn`` itself (the workers find it by name)."""
    _REUSABLE[fn] = inspect.signature(fn)
    return fn


def is_reusable(fn: Callable[..., Any]) -> bool:
    return fn in _REUSABLE


class PictureCache:
    """PNG bytes by (function, arguments), the most recently used kept up to ``max_bytes``.
    ``hits`` and ``misses`` count the pictures asked for (a caller that waited for one
    being drawn is a hit)."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        if max_bytes < 0:
            raise ValueError("a picture cache cannot hold fewer than 0 bytes")
        self.max_bytes = max_bytes
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}

    def __len__(self) -> int:
        return len(self._kept)

    @staticmethod
    def key(fn: Callable[..., bytes], args: tuple[Any, ...]) -> Hashable:
        """``fn`` and its arguments by name, defaults filled in."""
        bound = _REUSABLE[fn].bind(*args)
        bound.apply_defaults()
        return (fn.__module__, fn.__qualname__, tuple(bound.arguments.values()))

    async def get(
        self,
        fn: Callable[..., bytes],
        args: tuple[Any, ...],
        draw: Callable[[], Awaitable[bytes]],
    ) -> bytes:
        """The picture ``fn(*args)``: kept, being drawn (waited for), or drawn by ``draw()``."""
        key = self.key(fn, args)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            self.hits += 1
            return kept
        drawing = self._drawing.get(key)
        if drawing is not None:
            self.hits += 1
            return await asyncio.shield(drawing)
        self.misses += 1
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            png = await draw()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._drawing[key]
        future.set_result(png)
        self._keep(key, png)
        return png

    def _keep(self, key: Hashable, png: bytes) -> None:
        if len(png) > self.max_bytes:
            return
        self._kept[key] = png
        self.bytes += len(png)
        while self.bytes > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self.bytes -= len(dropped)
