"""`retrieve -k 10` against pages that answer after staggered delays: the fetches must overlap.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_retrieve.py [--rounds 3] [--hosts 10] [--per-host N]

It serves ten real pages (readability test pages) that answer after 0.2, 0.4 … 2.0 s, spread
over --hosts loopback addresses (127.0.0.1, 127.0.0.2 …, one server each, so the default limit of
two fetches per host applies as it would on the web; `--hosts 1 --per-host 10` puts them all on
one host and lifts the limit), and a `local` search index over them. Then,
through the engine (no FUSE), in each round with fresh URLs:

1. `open` of the slowest page alone (fetch, compile, store), under a URL not in the results;
2. `retrieve -k 10` of all ten (search, robots.txt per host, fetch, compile, store).

The figure is retrieve's wall time over the slowest page alone; the target is at most 1.5.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import trio

from webshellfs.config import Settings
from webshellfs.engine import Engine, Outcome
from webshellfs.fetch.http import HttpFetcher
from webshellfs.store import Store

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("WEBSHELL_CORPORA") or ROOT.parent / "shared/corpora")
CORPUS = CORPORA / "readability-test-pages/test-pages"
SOURCES = ("aclu", "ars-1", "bbc-1", "cnet", "guardian-1", "herald-sun-1", "lifehacker-post-comment-load",
           "medium-1", "nytimes-1", "wikipedia")
DELAYS = tuple(round(0.2 * n, 1) for n in range(1, 11))
TARGET_RATIO = 1.5


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 64


def serve(address: str) -> str:
    """A server on address: /p/NAME?delay=S answers the corpus page NAME after S seconds;
    anything else (robots.txt included) is 404."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            source = CORPUS / parts.path.removeprefix("/p/") / "source.html"
            if not parts.path.startswith("/p/") or not source.is_file():
                self._send(HTTPStatus.NOT_FOUND, b"not here")
                return
            time.sleep(float(parse_qs(parts.query).get("delay", ["0"])[0]))
            self._send(HTTPStatus.OK, source.read_bytes())

        def _send(self, status: HTTPStatus, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = _Server((address, 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://{address}:{server.server_address[1]}"


def result_urls(bases: list[str], round_tag: str) -> list[str]:
    return [
        f"{bases[n % len(bases)]}/p/{source}?delay={delay}&round={round_tag}"
        for n, (source, delay) in enumerate(zip(SOURCES, DELAYS, strict=True))
    ]


def write_index(path: Path, rounds: list[list[str]]) -> None:
    """One index over every round's pages; round R's are found by the word rR."""
    lines = ["url\ttitle\tsnippet\tkeywords"]
    for number, urls in enumerate(rounds, 1):
        lines += [f"{url}\tpage {n}\tdelay {url.split('delay=')[1]}\tr{number}"
                  for n, url in enumerate(urls, 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


async def timed(engine: Engine, line: str) -> float:
    started = time.perf_counter()
    response = await engine.command(line, "bench")
    elapsed = time.perf_counter() - started
    if response.outcome is not Outcome.OK or " failed: " in response.text:
        raise SystemExit(f"{line!r} did not succeed:\n{response.text}")
    return elapsed


async def bench(work: Path, bases: list[str], rounds: int, per_host: int) -> list[tuple[float, float]]:
    per_round = [result_urls(bases, f"r{n}") for n in range(1, rounds + 1)]
    index = work / "index.tsv"
    write_index(index, per_round)
    settings = Settings(mountpoint=work / "mnt", cache=work / "cache.sqlite", search=f"local={index}",
                        allow_private=True, fetches_per_host=per_host)
    engine = Engine(Store(settings.cache), HttpFetcher(settings), settings)
    figures: list[tuple[float, float]] = []
    try:
        await timed(engine, f"open {bases[0]}/p/{SOURCES[0]}?delay=0&warmup")  # imports, first compile
        for number, urls in enumerate(per_round, 1):
            alone = await timed(engine, f"open {urls[-1]}&alone")
            together = await timed(engine, f"retrieve -k 10 r{number}")
            figures.append((alone, together))
            print(f"round {number}: slowest page alone {alone:.2f} s, retrieve -k 10 {together:.2f} s, "
                  f"ratio {together / alone:.2f}")
    finally:
        await engine.aclose()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hosts", type=int, default=10, help="loopback addresses to spread the pages over")
    parser.add_argument("--per-host", type=int, default=Settings.fetches_per_host,
                        help="fetches at once per host (the mount's default: %(default)s)")
    args = parser.parse_args()
    bases = [serve(f"127.0.0.{n}") for n in range(1, args.hosts + 1)]
    print(f"10 pages, delays {DELAYS[0]}…{DELAYS[-1]} s, over {args.hosts} host(s), "
          f"{args.per_host} fetches at once per host; "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-retrieve-") as work:
        figures = trio.run(bench, Path(work), bases, args.rounds, args.per_host)
    ratios = [together / alone for alone, together in figures]
    median = statistics.median(ratios)
    verdict = "meets" if median <= TARGET_RATIO else "MISSES"
    print(f"median ratio {median:.2f} ({verdict} the target of {TARGET_RATIO}); "
          f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0 if median <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
