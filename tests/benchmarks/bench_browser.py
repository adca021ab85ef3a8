"""The browser room against bare Playwright, in one run on the same machine and pages.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_browser.py [--rounds 30] [--page /product.html]

It serves the live fixture site on 127.0.0.1 and measures, interleaved round by round:

- open: `Browser.open(url)` (a tab from the pool, DOM ready, network and DOM quiet, the
  rendered-DOM snapshot with locators) against bare Playwright `page.goto(url)` +
  `page.content()` on one reused page, and against bare `new_page` + goto + content;
- execute: `Browser.execute(tab, select, "select", size)` (act, settle, snapshot) against bare
  `page.select_option` + `page.content()` on a page that has run actions before: once as the
  first action on the tab just opened (Playwright still setting up its helper scripts in the
  page, which our tab starts in the background after each capture), then again on that tab.

Targets (issue #4): open median ≤ 400 ms, execute median ≤ 300 ms, overhead over the bare
baseline ≤ 1.5×.

With `--memory-pages N` it then opens N pages one after another (the tab pool keeps at most 8)
and prints the total proportional set size (PSS) of our Chromium processes as it goes, to show
that memory stays bounded.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import lxml.html
import trio
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.browser.live_site import LiveSite
from webshellfs.browser import Browser, BrowserOptions
from webshellfs.browser.options import CHROMIUM_ARGS

CHROMIUM = "/usr/bin/chromium"
MEMORY_PAGES = ("/product.html", "/jslist.html", "/more.html", "/tabs.html", "/rendered.html")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def pss_mib(pids: list[int]) -> float:
    """Total PSS of these processes (shared pages split fairly between them)."""
    total_kib = 0
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        for line in rollup.splitlines():
            if line.startswith("Pss:"):
                total_kib += int(line.split()[1])
    return total_kib / 1024


async def memory_run(browser: Browser, site: LiveSite, pages: int) -> None:
    print(f"memory over {pages} opens (tab pool cap {browser.options.max_tabs}):")
    for index in range(1, pages + 1):
        await browser.open(site.url(MEMORY_PAGES[index % len(MEMORY_PAGES)]))
        if index % max(1, pages // 8) == 0 or index == pages:
            tabs = len(await browser.tabs())
            pids = browser.processes.pids()
            print(f"  after {index:>4} opens: {pss_mib(pids):7.1f} MiB PSS, "
                  f"{len(pids)} processes, {tabs} tabs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--page", default="/product.html")
    parser.add_argument("--memory-pages", type=int, default=0)
    parser.add_argument("--quiet-ms", type=int, default=BrowserOptions.quiet_ms,
                        help="the settle wait's quiet period (the main cost over bare)")
    args = parser.parse_args()

    site = LiveSite()
    url = site.url(args.page)
    ours = Browser(BrowserOptions(chromium=CHROMIUM, allow_private=True, quiet_ms=args.quiet_ms))
    figures: dict[str, list[float]] = {name: [] for name in (
        "bare goto+content", "bare new_page+goto+content", "open",
        "bare select+content", "execute (first on the tab)", "execute (again)")}
    sizes = ("m", "s")

    with sync_playwright() as playwright:
        extra = ["--no-sandbox"] if os.geteuid() == 0 else []
        bare_browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                  args=[*CHROMIUM_ARGS, *extra])
        bare_context = bare_browser.new_context()
        bare_page = bare_context.new_page()

        def bare_fresh() -> None:
            page = bare_context.new_page()
            page.goto(url)
            page.content()
            page.close()

        async def rounds() -> None:
            tab = ""
            select = ""
            for index in range(args.warmup + args.rounds):
                keep = index >= args.warmup
                size = sizes[index % 2]
                bare = timed(lambda: (bare_page.goto(url), bare_page.content()))
                fresh = timed(bare_fresh)
                started = time.perf_counter()
                opened = await ours.open(url)
                opened_ms = (time.perf_counter() - started) * 1000
                if tab:
                    await ours.close_tab(tab)
                tab = opened.tab_id
                root = lxml.html.document_fromstring(opened.capture.body)
                select = root.xpath("//select")[0].get("data-wsfs-id")
                bare_act = timed(lambda size=size: (bare_page.select_option("select", size),
                                                    bare_page.content()))
                started = time.perf_counter()
                await ours.execute(tab, select, "select", {"size": size})
                act_ms = (time.perf_counter() - started) * 1000
                other = sizes[(index + 1) % 2]
                bare_again = timed(lambda other=other: (
                    bare_page.select_option("select", other), bare_page.content()))
                started = time.perf_counter()
                await ours.execute(tab, select, "select", {"size": other})
                again_ms = (time.perf_counter() - started) * 1000
                if keep:
                    figures["bare goto+content"].append(bare)
                    figures["bare new_page+goto+content"].append(fresh)
                    figures["open"].append(opened_ms)
                    figures["bare select+content"] += [bare_act, bare_again]
                    figures["execute (first on the tab)"].append(act_ms)
                    figures["execute (again)"].append(again_ms)

        try:
            trio.run(rounds)
            bare_browser.close()
            if args.memory_pages:
                trio.run(memory_run, ours, site, args.memory_pages)
        finally:
            ours.close_blocking()
            site.close()

    print(f"browser benchmark: {args.rounds} rounds of {args.page} (+{args.warmup} warm-up), "
          f"quiet period {args.quiet_ms} ms, {os.cpu_count()} cores")
    print(f"{'measure':<28} {'median ms':>10} {'p95 ms':>8}")
    for name, values in figures.items():
        print(f"{name:<28} {statistics.median(values):>10.1f} {percentile(values, 0.95):>8.1f}")
    med = {name: statistics.median(values) for name, values in figures.items()}
    print(f"open overhead over bare goto+content:          "
          f"{med['open'] / med['bare goto+content']:.2f}x")
    print(f"open overhead over bare new_page+goto+content: "
          f"{med['open'] / med['bare new_page+goto+content']:.2f}x")
    for name in ("execute (first on the tab)", "execute (again)"):
        print(f"{name} overhead over bare select+content: "
              f"{med[name] / med['bare select+content']:.2f}x")


if __name__ == "__main__":
    main()
