"""The trio ↔ asyncio bridge: results, errors, deadlines and cancellation cross the thread."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import trio

from webshellfs.browser.bridge import BrowserLoop, LoopStuck


@pytest.fixture
def loop() -> Iterator[BrowserLoop]:
    running = BrowserLoop(name="test-browser-loop")
    yield running
    running.stop()


async def answer_after(seconds: float, value: str) -> str:
    await asyncio.sleep(seconds)
    return value


async def fail() -> None:
    raise ValueError("from the browser thread")


def test_a_result_comes_back_to_trio(loop: BrowserLoop) -> None:
    assert trio.run(lambda: loop.run(answer_after(0.01, "done"), 5)) == "done"


def test_an_exception_crosses_unchanged(loop: BrowserLoop) -> None:
    with pytest.raises(ValueError, match="from the browser thread"):
        trio.run(lambda: loop.run(fail(), 5))


def test_past_the_deadline_the_task_is_cancelled(loop: BrowserLoop) -> None:
    cancelled = asyncio.Event()

    async def slow() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    with pytest.raises(LoopStuck, match="the browser did not answer within 0.2 s"):
        trio.run(lambda: loop.run(slow(), 0.2))
    assert loop.run_blocking(asyncio.wait_for(cancelled.wait(), 5), 5) is True


def test_a_trio_cancellation_cancels_the_asyncio_task(loop: BrowserLoop) -> None:
    cancelled = asyncio.Event()

    async def slow() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def caller() -> None:
        with trio.move_on_after(0.2):
            await loop.run(slow(), 60)

    trio.run(caller)
    assert loop.run_blocking(asyncio.wait_for(cancelled.wait(), 5), 5) is True


def test_the_trio_thread_keeps_running_while_the_browser_works(loop: BrowserLoop) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await trio.sleep(0.01)

    async def main() -> str:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ticker)
            value = await loop.run(answer_after(0.3, "late"), 5)
            nursery.cancel_scope.cancel()
        return value

    assert trio.run(main) == "late"
    assert ticks >= 10
