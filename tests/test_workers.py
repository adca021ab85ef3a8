"""Compiling in worker processes: the same pages as in-process, killed at the deadline, and a
worker that runs out of memory is a CompileError, not a dead daemon."""

from __future__ import annotations

import resource
import time

import pytest
import trio
import trio_parallel

from webshellfs.compiler import compile_page
from webshellfs.errors import CompileError
from webshellfs.workers import compile_in_worker

PAGE = (b"<html><head><title>Sizes</title></head><body><h1>Sizes</h1><p>Pick one.</p>"
        b"<table><tr><th>Size</th><th>Price</th></tr><tr><td>M</td><td>12</td></tr></table>"
        b"<a href='/more'>more</a></body></html>")
TINY_ADDRESS_SPACE = 700 * 1024**2


def _big_table(rows: int) -> bytes:
    row = "<tr>" + "".join(f"<td>cell {column}</td>" for column in range(100)) + "</tr>"
    return f"<html><body><h1>Big</h1><table>{row * rows}</table></body></html>".encode()


def _tiny_address_space() -> bool:
    resource.setrlimit(resource.RLIMIT_AS, (TINY_ADDRESS_SPACE, TINY_ADDRESS_SPACE))
    return True


def test_a_worker_compiles_exactly_what_the_compiler_does() -> None:
    async def main() -> object:
        return await compile_in_worker(PAGE, "http://shop.test/", "text/html",
                                       trio.CapacityLimiter(1))

    assert trio.run(main) == compile_page(PAGE, "http://shop.test/", content_type="text/html")


def test_a_compile_past_its_deadline_is_killed_at_once() -> None:
    big = _big_table(20_000)  # two million cells: many seconds of compiling

    async def main() -> float:
        started = trio.current_time()
        with trio.move_on_after(1.0):
            await compile_in_worker(big, "http://big.test/", "text/html", trio.CapacityLimiter(1))
            pytest.fail("the compile finished before its deadline")
        return trio.current_time() - started

    began = time.monotonic()
    assert trio.run(main) < 3.0
    assert time.monotonic() - began < 10.0


def test_a_worker_out_of_memory_ends_the_compile_cleanly() -> None:
    # Past its address space lxml fails inside the worker: the compiler notes it (or the worker
    # dies, a CompileError); either way the caller goes on.
    big = _big_table(40_000)

    async def main() -> list[str]:
        async with trio_parallel.cache_scope(init=_tiny_address_space):
            page = await compile_in_worker(big, "http://big.test/", "text/html",
                                           trio.CapacityLimiter(1))
            return [note for note in page.notes if note.startswith("compiler error")]

    try:
        notes = trio.run(main)
    except CompileError as failed:
        assert str(failed).endswith("nothing was stored")
    else:
        assert len(notes) == 1
