"""The browser's own thread: an asyncio loop (Playwright's world) that trio code calls into.

The filesystem runs on trio; Playwright needs asyncio. Each call is submitted to the loop with
`run_coroutine_threadsafe`, and the trio side waits on an Event that the future's completion
sets through the trio token, so waiting costs no worker thread and a trio cancellation cancels
the asyncio task. No FUSE operation ever runs on this thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import trio

T = TypeVar("T")

WIND_DOWN_TIMEOUT = 5.0


class LoopStuck(Exception):
    """The browser loop did not answer within the caller's deadline."""


class BrowserLoop:
    """An asyncio event loop running forever on a daemon thread."""

    def __init__(self, name: str = "webshellfs-browser") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self._wind_down()

    def _wind_down(self) -> None:
        """What asyncio.run does on the way out: cancel what is left, let it finish (the
        driver's pipes close as it does), then close the loop on its own thread."""
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        if pending:
            self.loop.run_until_complete(asyncio.wait(pending, timeout=WIND_DOWN_TIMEOUT))
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run_blocking(self, coro: Coroutine[Any, Any, T], timeout: float) -> T:
        """Run coro on the loop and wait from a plain thread (tests, teardown, benchmarks)."""
        return self.submit(coro).result(timeout)

    async def run(self, coro: Coroutine[Any, Any, T], deadline: float) -> T:
        """Run coro on the loop and wait for it from trio, at most `deadline` seconds.

        Raises LoopStuck past the deadline (the asyncio task is cancelled); a trio cancellation
        cancels the task too. Exceptions of the coroutine propagate unchanged."""
        token = trio.lowlevel.current_trio_token()
        finished = trio.Event()
        future = self.submit(coro)

        def wake(_: concurrent.futures.Future[T]) -> None:
            try:
                token.run_sync_soon(finished.set)
            except trio.RunFinishedError:
                pass

        future.add_done_callback(wake)
        try:
            with trio.move_on_after(deadline):
                await finished.wait()
        finally:
            if not future.done():
                future.cancel()
        if not finished.is_set():
            raise LoopStuck(f"the browser did not answer within {deadline:g} s")
        if future.cancelled():
            raise LoopStuck("the browser loop was stopped while this call ran")
        return future.result()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the loop and wait for its thread to wind down. A wedged loop is abandoned (the
        thread is a daemon) and winds down by itself if it ever runs again."""
        if self.loop.is_closed():
            return
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:
            return
        self._thread.join(timeout)
