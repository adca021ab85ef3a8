"""What a page with many subresources costs to open, against bare Playwright, in one run.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_page_loads.py [--rounds 20] [--resources 40]
        [--delay-ms 30]

It serves, on 127.0.0.1, a page holding `--resources` stylesheets and images that the server
answers after `--delay-ms` each (as a distant server would) with `Cache-Control: max-age=3600`,
the page itself `no-store`. Each round opens the page at a new address (so the page is loaded
again) and measures, interleaved:

- bare: Playwright's `new_page` + `goto` + `content()` on a context of its own, as a person's
  browser loads it (the subresources come from Chromium's HTTP cache after the first round);
- bare, routed: the same with a route handler that lets every request through
  (`context.route("**/*", fallback)`): Playwright turns the HTTP cache off while any route is
  installed, and each request makes a round trip to the handler;
- open: `Browser.open(url)` (a tab, the load through the gate, the settle wait, the snapshot).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import trio
from playwright.sync_api import BrowserContext, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.bench_browser import CHROMIUM, percentile, timed
from webshellfs.browser import Browser, BrowserOptions
from webshellfs.browser.options import CHROMIUM_ARGS

# A 1×1 picture.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d4944415478da63f8ffff3f0005fe02fea7d6a45f0000000049454e44ae426082")


def page_html(resources: int) -> bytes:
    styles = "".join(f'<link rel="stylesheet" href="/style{i}.css">' for i in range(resources // 2))
    images = "".join(f'<img src="/image{i}.png" alt="picture {i}">'
                     for i in range(resources - resources // 2))
    return (f"<!DOCTYPE html><html><head><title>Many parts</title>{styles}</head><body><main>"
            f"<h1>Many parts</h1><p>A page whose look and pictures come from many files.</p>"
            f"{images}</main></body></html>").encode()


def serve(resources: int, delay: float) -> ThreadingHTTPServer:
    page = page_html(resources)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:
            if self.path.startswith("/page"):
                body, kind, cache = page, "text/html; charset=utf-8", "no-store"
            else:
                time.sleep(delay)
                css = self.path.endswith(".css")
                body = b"p { margin: 1em }" if css else PNG
                kind, cache = ("text/css" if css else "image/png"), "max-age=3600"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Cache-Control", cache)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--resources", type=int, default=40)
    parser.add_argument("--delay-ms", type=int, default=30)
    args = parser.parse_args()

    server = serve(args.resources, args.delay_ms / 1000)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    ours = Browser(BrowserOptions(chromium=CHROMIUM, allow_private=True))
    figures: dict[str, list[float]] = {"bare": [], "bare, routed": [], "open": []}

    with sync_playwright() as playwright:
        extra = ["--no-sandbox"] if os.geteuid() == 0 else []
        bare_browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                  args=[*CHROMIUM_ARGS, *extra])
        plain = bare_browser.new_context()
        routed = bare_browser.new_context()
        routed.route("**/*", lambda route: route.fallback())

        def load(context: BrowserContext, url: str) -> None:
            page = context.new_page()
            page.goto(url)
            page.content()
            page.close()

        async def rounds() -> None:
            tab = ""
            for index in range(args.warmup + args.rounds):
                bare = timed(lambda: load(plain, f"{base}/page-bare-{index}"))
                bare_routed = timed(lambda: load(routed, f"{base}/page-routed-{index}"))
                started = time.perf_counter()
                opened = await ours.open(f"{base}/page-ours-{index}", screenshot=False)
                ours_ms = (time.perf_counter() - started) * 1000
                if tab:
                    await ours.close_tab(tab)
                tab = opened.tab_id
                if index >= args.warmup:
                    figures["bare"].append(bare)
                    figures["bare, routed"].append(bare_routed)
                    figures["open"].append(ours_ms)

        try:
            trio.run(rounds)
            bare_browser.close()
        finally:
            ours.close_blocking()
            server.shutdown()

    print(f"page loads: {args.rounds} rounds (+{args.warmup} warm-up), a page of "
          f"{args.resources} cacheable parts served after {args.delay_ms} ms each, "
          f"{os.cpu_count()} cores")
    print(f"{'measure':<14} {'median ms':>10} {'p95 ms':>8}")
    for name, values in figures.items():
        print(f"{name:<14} {statistics.median(values):>10.1f} {percentile(values, 0.95):>8.1f}")
    median = {name: statistics.median(values) for name, values in figures.items()}
    print(f"open / bare:         {median['open'] / median['bare']:.2f}x")
    print(f"bare, routed / bare: {median['bare, routed'] / median['bare']:.2f}x")


if __name__ == "__main__":
    main()
