"""The daemon's memory through a real mount, against pages generated as they are served: a
100 MB page and a table of 1,000,000 cells. Each ends with a clear outcome, the mount answers
reads meanwhile, and the daemon's peak RSS (VmHWM) stays under the bound docs/security.md
states. Chromium's memory is its own processes', not the daemon's: the browser mount is
measured too, because the default mount has one."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Self

import pytest

from tests.conftest import chromium_path, require
from tests.fs.conftest import Mount, new_mount, sh
from tests.security.generated_site import GeneratedSite

__all__ = ["new_mount"]  # the mount fixture, used here by name

MIB = 1024 * 1024
PEAK_RSS_BOUND = 384 * MIB  # docs/security.md: "Memory"; compiles run in workers (workers.py)
BROWSER_PEAK_RSS_BOUND = 256 * MIB
READ_LATENCY_BOUND = 2.0  # seconds a `cat` of a stored file may take while a big page compiles
HUGE = "/huge?mb=100"
CELLS = "/cells?n=1000000"


@pytest.fixture(scope="module")
def generated() -> Iterator[GeneratedSite]:
    site = GeneratedSite()
    yield site
    site.close()


def peak_rss(mount: Mount) -> int:
    """The daemon's peak resident set size in bytes (VmHWM: the high-water mark so far)."""
    assert mount.process is not None
    for line in Path(f"/proc/{mount.process.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


class Reader:
    """Reads a stored file in a loop while a big page is fetched and compiled; the slowest
    read is the mount's responsiveness."""

    def __init__(self, mount: Mount) -> None:
        self.slowest = 0.0
        self.reads = 0
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(mount,))

    def _loop(self, mount: Mount) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            result = sh(f"cat {mount.path}/N0001/_map.md {mount.path}/_pages.tsv > /dev/null")
            self.slowest = max(self.slowest, time.monotonic() - began)
            self.reads += 1
            if result.returncode != 0:
                self.failures.append(result.stderr)
            time.sleep(0.05)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def test_a_100_mb_page_and_a_million_cells_stay_within_the_memory_bound(
    new_mount: Callable[[], Mount], generated: GeneratedSite
) -> None:
    mount = new_mount().start()
    assert mount.ctl(f"open {generated.url('/slow?delay=0')}").returncode == 0  # N0001, to read
    with Reader(mount) as reader:
        huge = mount.ctl(f"open {generated.url(HUGE)}")
        after_huge = peak_rss(mount)
        cells = mount.ctl(f"open {generated.url(CELLS)}", timeout=300)
    peak = peak_rss(mount)
    print(f"daemon peak RSS: {after_huge / MIB:.0f} MiB after the 100 MB page, "
          f"{peak / MIB:.0f} MiB after the million cells; slowest read {reader.slowest:.2f} s")

    assert huge.returncode != 0
    assert huge.stdout.splitlines()[1] == (
        f"{generated.url(HUGE)} is over the limit of {50 * MIB} bytes")
    assert cells.returncode == 0, cells.stdout
    assert cells.stdout.splitlines()[1] == "N0002  A million cells"
    notes = sh(f"grep -h 'kept the first' {mount.path}/N0002/_map.md").stdout
    assert "T01: kept the first 50 of 1000 rows (limit 50000 cells per table)" in notes
    assert reader.failures == []
    assert reader.reads > 10
    assert reader.slowest < READ_LATENCY_BOUND
    assert peak < PEAK_RSS_BOUND


def test_with_the_browser_the_same_pages_end_in_time_and_the_daemon_stays_small(
    new_mount: Callable[[], Mount], generated: GeneratedSite
) -> None:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    mount = new_mount().start("--browser", "local", "--chromium", chromium,
                              "--fetch-timeout", "10")
    for path in (HUGE, CELLS):
        began = time.monotonic()
        result = mount.ctl(f"open {generated.url(path)}", timeout=120)
        took = time.monotonic() - began
        assert result.returncode != 0
        assert result.stdout.splitlines()[1] in (
            f"{generated.url(path)} did not finish loading within 10 s",
            f"{generated.url(path)} is over the limit of {50 * MIB} bytes",
        )
        assert took < 30
    print(f"daemon peak RSS with the browser: {peak_rss(mount) / MIB:.0f} MiB")
    assert peak_rss(mount) < BROWSER_PEAK_RSS_BOUND
    after = mount.ctl(f"open {generated.url('/slow?delay=0')}", timeout=120)
    assert after.returncode == 0, after.stdout
    assert after.stdout.splitlines()[1] == "N0001  Slow page"
