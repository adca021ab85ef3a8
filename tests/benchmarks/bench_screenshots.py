"""What screenshot.png adds to `open` and `execute`: two engines, screenshots on and off, each
with its own Chromium and cache, interleaved round by round in one run on the same machine and
pages. Timed as the mount runs a command (the engine's `command`: browser, compile in a worker,
store, response), since the screenshot is taken while the capture compiles.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_screenshots.py [--rounds 30] [--page /product.html]

Each round, for each engine in turn (which goes first alternates): `open URL`, then `execute`
on the page's first select twice (size m, then s: a new state, then the first state again,
which stores nothing). It prints medians and p95s, the ratio on/off and the PNGs' sizes.
`--page /noise.html` is the worst case: a viewport of pixels no PNG compresses, taken again
scaled down until it fits the bound (the page has no select: open only).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.bench_browser import percentile
from tests.browser.live_site import LiveSite
from webshellfs.config import Settings
from webshellfs.engine import Engine, Outcome
from webshellfs.mount import make_engine
from webshellfs.store import Store
from webshellfs.workers import configure_workers

CHROMIUM = "/usr/bin/chromium"
MODES = ("on", "off")


async def timed(engine: Engine, line: str) -> tuple[float, str]:
    started = time.perf_counter()
    response = await engine.command(line, "bench")
    elapsed = (time.perf_counter() - started) * 1000
    assert response.outcome is Outcome.OK, response.text
    return elapsed, response.text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--page", default="/product.html")
    args = parser.parse_args()

    configure_workers()
    site = LiveSite()
    url = site.url(args.page)
    scratch = Path(tempfile.mkdtemp(prefix="bench-screenshots-"))
    engines = {
        mode: make_engine(Store(scratch / f"{mode}.sqlite"), Settings(
            mountpoint=scratch, cache=scratch / f"{mode}.sqlite", chromium=CHROMIUM,
            allow_private=True, screenshots=mode == "on"))
        for mode in MODES}
    figures: dict[tuple[str, str], list[float]] = {
        (measure, mode): [] for measure in ("open", "execute") for mode in MODES}
    sizes: list[int] = []
    widths: list[int] = []

    async def one(mode: str, keep: bool) -> None:
        engine = engines[mode]
        open_ms, text = await timed(engine, f"open {url}")
        page = text.splitlines()[1].split()[0]
        executes = []
        select = re.search(r"^(A\d{4})\tselect\t", engine.read(f"{page}/actions.tsv", 0, 1 << 20)
                           .decode(), re.MULTILINE)
        if select:
            for size in ("m", "s"):
                ms, _ = await timed(engine, f"execute {page} {select.group(1)} size={size}")
                executes.append(ms)
        shot = engine.store.read_file(page, "screenshot.png")
        if mode == "on" and keep:
            assert shot, "no screenshot.png with screenshots on"
            sizes.append(len(shot))
            widths.append(int.from_bytes(shot[16:20], "big"))
        if mode == "off":
            assert shot is None
        if keep:
            figures[("open", mode)].append(open_ms)
            figures[("execute", mode)] += executes
        await engine.command(f"close {page}", "bench")

    async def rounds() -> None:
        for index in range(args.warmup + args.rounds):
            order = MODES if index % 2 == 0 else tuple(reversed(MODES))
            for mode in order:
                await one(mode, index >= args.warmup)
        for engine in engines.values():
            await engine.aclose()

    try:
        trio.run(rounds)
    finally:
        site.close()

    print(f"screenshot benchmark: {args.rounds} rounds of {args.page} (+{args.warmup} warm-up), "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"{'measure':<26} {'median ms':>10} {'p95 ms':>8}")
    for (measure, mode), values in figures.items():
        if values:
            print(f"{measure + ', screenshots ' + mode:<26} {statistics.median(values):>10.1f} "
                  f"{percentile(values, 0.95):>8.1f}")
    for measure in ("open", "execute"):
        on, off = figures[(measure, "on")], figures[(measure, "off")]
        if on and off:
            median_on, median_off = statistics.median(on), statistics.median(off)
            print(f"{measure}: screenshots on / off = {median_on / median_off:.2f}x "
                  f"({median_on - median_off:+.1f} ms median)")
    print(f"PNG: median {statistics.median(sizes) / 1024:.0f} KB, largest "
          f"{max(sizes) / 1024:.0f} KB, width {statistics.median(widths):.0f} px")


if __name__ == "__main__":
    main()
