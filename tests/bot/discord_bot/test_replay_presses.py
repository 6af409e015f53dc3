"""Quick presses on one replay message: the newest press wins (by interaction id, whatever
order the pictures are ready in), edits of one message never overlap, and nothing is kept
once every press is answered."""

from __future__ import annotations

import asyncio

from bot.discord_bot.replay import Presses

MESSAGE = 100


async def test_an_older_picture_ready_later_never_replaces_a_newer_one() -> None:
    presses = Presses()
    shown: list[str] = []
    older_drawn = asyncio.Event()

    async def answer(press_id: int, name: str, drawn: asyncio.Event | None) -> bool:
        async with presses.press(MESSAGE, press_id) as press:
            if drawn is not None:
                await drawn.wait()  # the picture takes its time

            async def edit() -> None:
                shown.append(name)

            return await press.edit(edit)

    older = asyncio.create_task(answer(5, "older", older_drawn))
    await asyncio.sleep(0)
    assert await answer(7, "newer", None)  # pressed later, drawn first
    older_drawn.set()
    assert not await older
    assert shown == ["newer"] and presses.waiting == 0


async def test_the_newest_is_the_largest_id_whatever_order_the_presses_come_in() -> None:
    presses = Presses()
    async with presses.press(MESSAGE, 9) as late, presses.press(MESSAGE, 8) as early:
        assert late.newest and not early.newest
        async with presses.press(MESSAGE + 1, 1) as elsewhere:
            assert elsewhere.newest  # another message: its own newest
        assert presses.waiting == 2
    assert presses.waiting == 0


async def test_edits_of_one_message_go_one_at_a_time() -> None:
    presses = Presses()
    order: list[str] = []
    editing = asyncio.Event()
    finish = asyncio.Event()

    async def slow_edit() -> None:
        order.append("first starts")
        editing.set()
        await finish.wait()
        order.append("first ends")

    async def quick_edit() -> None:
        order.append("second")

    async with presses.press(MESSAGE, 1) as first:
        task = asyncio.create_task(first.edit(slow_edit))
        await editing.wait()  # the first press's edit is on its way
        async with presses.press(MESSAGE, 2) as second:
            assert not first.newest
            waiting = asyncio.create_task(second.edit(quick_edit))
            await asyncio.sleep(0)
            finish.set()
            assert await task and await waiting
    assert order == ["first starts", "first ends", "second"]
