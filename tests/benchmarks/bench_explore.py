"""`explore`: how fast a site is walked, how small its map is, and what the map saves an agent.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_explore.py [--browser] [--docs DIR] [--rate R]

1. Explore speed and map size: the fixture shop (tests/explore/shop_site.py: 20 addresses, five
   templates) and, when present, a documentation site served from DIR (default: gnuplot's
   manual, 652 HTML pages, from Debian's gnuplot-doc: /usr/share/doc/gnuplot/htmldocs; any
   other folder of HTML works, without its tasks): pages stored per second, requests per page,
   the bytes of map.md and of all of `_sites/SITE/`. With --browser the shop is walked in
   Chromium, controls tried (the docs always over plain HTTP), and so is the menu site
   (tests/explore/menu_site.py: hover, nested and mega menus, most pages linked only from
   inside a menu), whose requests per page show how seldom a page is reloaded between two
   tries.
2. Checkpoints on the documentation site: what each step's checkpoint cost as the site grew
   (a journal step, the map's files with it at most every two seconds), against a whole
   rewrite of the state and its files at the same size (what every step cost before).
3. Navigation tasks on the shop and the manual, by two scripted agents through the engine (no
   FUSE), each
   arriving at the site with only its start URL: one without a map (open the start page, read
   links.tsv, follow links whose words match, else open the pages linked in order, breadth
   first; grep each page it has), one that explored the site before (reads map.md, greps
   pages.tsv and the stored pages, opens a page only when the map lists it unfetched). The
   figures are `.ctl` commands, files read and bytes read per task (the exploration itself is
   reported once, as its own cost).
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import trio

from tests.explore.menu_site import MenuSite
from tests.explore.shop_site import ShopSite
from webshellfs.browser import Browser, BrowserFetcher, BrowserOptions
from webshellfs.config import Settings
from webshellfs.engine import Engine, Outcome
from webshellfs.explore import SiteState, crawl, map_address, site_of
from webshellfs.explore.sitemap import render_files
from webshellfs.fetch.http import HttpFetcher
from webshellfs.store import Store

DOCS = Path("/usr/share/doc/gnuplot/htmldocs")
MAX_COMMANDS = 40  # an agent without a map gives up past this on the shop
MAX_DOC_COMMANDS = 800  # and on the manual: more than its pages, so it never gives up


@dataclass(frozen=True)
class Task:
    """kind: title (reach the page whose title holds words), text (the page that says
    words), search (the site's results for words)."""

    kind: str
    words: str
    expect: str  # a title word of the page that answers it


TASKS = (
    Task("text", "Sizes run small", "shoe"),
    Task("title", "Head torch", "Head torch"),
    Task("title", "Press", "Press"),
    Task("title", "Packing for a day out", "Packing"),
    Task("search", "jacket", "Search results"),
)
# On gnuplot's manual, pages two or three links from its contents page (none linked from it).
DOC_TASKS = (
    Task("text", "NxNxN grid of voxels", "Voxel grids"),
    Task("text", "defaults to 1.5 which is quite suitable", "Gamma correction"),
    Task("text", "read these same image types as binary files", "Png"),
    Task("title", "Key placement", "Key placement"),
    Task("title", "Wgnuplot.ini", "Wgnuplot.ini"),
)
CHECKPOINT_BINS = 100  # pages stored: one line of the checkpoint table per this many


class Agent:
    """Counts what a shell agent would do: commands written to .ctl, files read (a cat or a
    grep), bytes it read back."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.commands = self.reads = self.bytes = 0

    async def ctl(self, line: str) -> str:
        response = await self.engine.command(line, "agent")
        self.commands += 1
        self.bytes += len(response.data)
        if response.outcome is not Outcome.OK:
            return ""
        return response.text.partition("\n")[2]

    def _text(self, path: str) -> str:
        entry = self.engine.entry(path)
        return "" if entry is None else self.engine.read(path, 0, entry.size).decode()

    def cat(self, path: str) -> str:
        text = self._text(path)
        self.reads += 1
        self.bytes += len(text.encode())
        return text

    def grep(self, words: str, paths: list[str]) -> list[tuple[str, str]]:
        """`grep -ri words paths…`: the (path, line) hits, counted as one read."""
        hits = [(path, line) for path in paths for line in self._text(path).splitlines()
                if words.casefold() in line.casefold()]
        self.reads += 1
        self.bytes += sum(len(f"{path}:{line}\n".encode()) for path, line in hits)
        return hits

    def page_files(self, page: str) -> list[str]:
        found, pending = [], [page]
        while pending:
            for entry in self.engine.listdir(pending.pop()):
                if entry.is_dir:
                    pending.append(entry.path)
                elif entry.path.endswith((".md", ".tsv")):
                    found.append(entry.path)
        return found

    def title(self, page: str) -> str:
        first = self._text(f"{page}/_map.md").splitlines()[:1]
        return first[0] if first else ""


def _opened(answer: str) -> str:
    """The page an answer stored: `N0003  Title` (open) or `→ N0008 new page: …` (execute)."""
    found = re.search(r"^(N\d{4})  |^→ (N\d{4}) new page", answer, re.M)
    return (found.group(1) or found.group(2)) if found else ""


def _links(text: str) -> list[tuple[str, str]]:
    rows = [line.split("\t") for line in text.splitlines()[1:]]
    return [(row[1], row[2]) for row in rows if len(row) > 2]


def _search_address(actions: str, words: str) -> str:
    for row in (line.split("\t") for line in actions.splitlines()[1:]):
        if len(row) > 4 and row[1] == "submit" and row[3].startswith("GET ") and "search" in row[4]:
            field = row[4].split("(")[0]
            return f"{row[3][4:]}?{field}={words}"
    return ""


async def without_map(agent: Agent, start: str, task: Task,
                      limit: int = MAX_COMMANDS) -> bool:
    site = site_of(start)
    page = _opened(await agent.ctl(f"open {start}"))
    queue, seen = [page], {start.partition("#")[0]}
    while queue and agent.commands < limit:
        page = queue.pop(0)
        if task.kind == "text" and agent.grep(task.words, agent.page_files(page)):
            return task.expect.casefold() in agent.title(page).casefold()
        if task.kind == "search":
            address = _search_address(agent.cat(f"{page}/actions.tsv"), task.words)
            if address:
                return task.expect in agent.title(_opened(await agent.ctl(f"open {address}")))
        links = [(url, text) for url, text in _links(agent.cat(f"{page}/links.tsv"))
                 if site_of(url) == site and url.startswith("http")]
        for url, text in links:
            if task.kind == "title" and task.words.casefold() in text.casefold():
                found = _opened(await agent.ctl(f"open {url}"))
                return task.expect.casefold() in agent.title(found).casefold()
        for url, _ in links:
            address = url.partition("#")[0]  # a page once, whichever part a link points at
            if address not in seen and agent.commands < limit:
                seen.add(address)
                opened = _opened(await agent.ctl(f"open {address}"))
                if opened:
                    queue.append(opened)
    return False


async def with_map(agent: Agent, start: str, task: Task, limit: int = 0) -> bool:
    directory = map_address(site_of(start))
    site_map = agent.cat(f"{directory}/map.md")
    if task.kind == "search":
        found = re.search(r"- search: (N\d{4}) ", site_map)
        answer = await agent.ctl(f"search {found.group(1) if found else start} {task.words}")
        return task.expect in agent.title(_opened(answer.split("\n", 1)[-1]))
    stored = [line.split()[0] for line in agent.engine.read("_pages.tsv", 0, 10**7).decode()
              .splitlines()[1:]]
    if task.kind == "title":
        for _path, line in agent.grep(task.words, [f"{directory}/pages.tsv"]):
            row = line.split("\t")
            if row[4]:
                return task.expect.casefold() in row[1].casefold()
    hits = agent.grep(task.words, [p for page in stored for p in agent.page_files(page)])
    if task.kind == "text":
        return bool(hits) and task.expect.casefold() in agent.title(
            hits[0][0].split("/")[0]).casefold()
    for path, line in hits:
        if path.endswith("links.tsv"):
            found = _opened(await agent.ctl(f"open {line.split(chr(9))[1]}"))
            return task.expect.casefold() in agent.title(found).casefold()
    return False


def _serve_directory(root: Path) -> tuple[ThreadingHTTPServer, str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(root)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def _engine(tmp: Path, browser: Browser | None) -> Engine:
    config = Settings(mountpoint=tmp / "mnt", cache=tmp / "cache.sqlite", allow_private=True,
                      command_deadline=600.0)
    plain = HttpFetcher(config)
    if browser is None:
        return Engine(Store(config.cache), plain, config)
    return Engine(Store(config.cache), BrowserFetcher(browser), config, plain_fetcher=plain)


async def _explore(engine: Engine, name: str, start: str, options: str,
                   log: list[tuple[str, str]] | None = None) -> str:
    """A row of the table; log: the site's own request log, whose GETs during the walk are
    the requests it was really sent (robots.txt and each page's resources included)."""
    before = len(log) if log is not None else 0
    began = time.monotonic()
    response = await engine.command(f"explore {start} {options}", "bench")
    seconds = time.monotonic() - began
    assert response.outcome is Outcome.OK, response.text
    directory = map_address(site_of(start))
    sizes = {e.name: e.size for e in engine.listdir(directory)}
    site_map = engine.read(f"{directory}/map.md", 0, sizes["map.md"]).decode()
    pages = int(re.search(r"(\d+) pages stored", site_map).group(1))  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", site_map).group(1))  # type: ignore[union-attr]
    tried = len(re.findall(r"^- N\d{4} (?:A\d{4}|hover) .*\]: ", site_map, re.M))
    served = "—"
    if log is not None:
        gets = sum(1 for method, _ in log[before:] if method == "GET")
        served = f"{gets / max(pages, 1):.2f}"
    return (f"| {name} | {pages} | {tried} | {seconds:.1f} | "
            f"{pages / seconds:.2f} | {requests / max(pages, 1):.2f} | {served} | "
            f"{sizes['map.md']} | {sum(sizes.values())} |")


class CheckpointClock:
    """Times every checkpoint of an engine's explorer, and once per CHECKPOINT_BINS pages
    stored, a whole rewrite of the state and its map's files into a scratch store (what every
    checkpoint cost before the journal), at the same size."""

    def __init__(self, engine: Engine, scratch: Path) -> None:
        self.explorer = engine.explorer
        self.save = engine.explorer._save
        self.scratch = Store(scratch / "rewrite.sqlite")
        self.steps: dict[int, list[float]] = {}
        self.rewrites: dict[int, float] = {}
        engine.explorer._save = self._timed  # type: ignore[method-assign]

    async def _timed(self, state: SiteState, whole: bool = False) -> None:
        began = time.perf_counter()
        await self.save(state, whole=whole)
        spent = time.perf_counter() - began
        stored = len(state.stored())
        bin_ = stored // CHECKPOINT_BINS * CHECKPOINT_BINS
        if not whole:
            self.steps.setdefault(bin_, []).append(spent)
        if stored and stored % CHECKPOINT_BINS == 0 and stored not in self.rewrites:
            self.rewrites[stored] = min(self._rewrite(state) for _ in range(3))

    def _rewrite(self, state: SiteState) -> float:
        began = time.perf_counter()
        self.scratch.save_site("rewrite", state.to_json(), render_files(state))
        return time.perf_counter() - began

    def table(self) -> list[str]:
        lines = ["| pages stored | checkpoints | median ms | max ms | whole rewrite ms at the "
                 "bin's end (before) |", "|---|---|---|---|---|"]
        for bin_, spent in sorted(self.steps.items()):
            rewrite = self.rewrites.get(bin_ + CHECKPOINT_BINS)
            lines.append(f"| {bin_}–{bin_ + CHECKPOINT_BINS - 1} | {len(spent)} | "
                         f"{statistics.median(spent) * 1000:.1f} | {max(spent) * 1000:.1f} | "
                         + (f"{rewrite * 1000:.1f} |" if rewrite is not None else "— |"))
        every = [s for spent in self.steps.values() for s in spent]
        lines.append(f"\nall {len(every)} checkpoints between pages: {sum(every):.2f} s")
        self.scratch.close()
        return lines


async def _tasks(name: str, start: str, explored: Engine, tasks: tuple[Task, ...],
                 limit: int) -> None:
    for task in tasks:
        cells = []
        for walk in (without_map, with_map):
            with tempfile.TemporaryDirectory() as fresh:
                own = explored if walk is with_map else _engine(Path(fresh), None)
                agent = Agent(own)
                done = await walk(agent, start, task, limit)
                cells.append(f"{agent.commands}, {agent.reads}, {agent.bytes}"
                             + ("" if done else " (failed)"))
                if own is not explored:
                    await own.aclose()
        print(f"| {name} {task.kind}: {task.words} | {cells[0]} | {cells[1]} |")


async def main(args: argparse.Namespace) -> None:
    browser = None
    if args.browser:
        browser = Browser(BrowserOptions(chromium="/usr/bin/chromium", allow_private=True,
                                         load_timeout=20, action_timeout=10, settle_cap=2))
    shop = ShopSite()
    print("| site | pages stored | controls tried | seconds | pages/s | requests/page | "
          "GETs served/page | map.md bytes | _sites/SITE bytes |")
    print("|---|---|---|---|---|---|---|---|---|")
    server = None
    try:
        with tempfile.TemporaryDirectory() as scratch:
            engine = _engine(Path(scratch), browser)
            start = shop.url("/index.html")
            mode = "Chromium" if browser is not None else "plain HTTP"
            print(await _explore(engine, f"the shop ({mode})", start, "--time 300",
                                 shop.requests))
            if browser is not None:
                menus = MenuSite()
                print(await _explore(engine, "the menu site (Chromium)",
                                     menus.url("/index.html"), "--time 300", menus.requests))
                menus.close()
            docs = clock = None
            if args.docs.is_dir():
                server, base = _serve_directory(args.docs)
                docs = _engine(Path(scratch) / "docs", None)
                docs.explorer.interval = 1 / args.rate
                clock = CheckpointClock(docs, Path(scratch))
                docs_start = f"{base}/index.html"
                print(await _explore(docs, f"{args.docs} (plain HTTP)", docs_start,
                                     "--pages 1000 --depth 10 --time 580"))
                print()
                print("\n".join(clock.table()))
            else:
                print(f"\n(no documentation site at {args.docs}: `apt-get install gnuplot-doc` "
                      "installs the default one)")
            print("\n| task | without map: commands, reads, bytes | with the map: commands, "
                  "reads, bytes |")
            print("|---|---|---|")
            await _tasks("shop", start, engine, TASKS, MAX_COMMANDS)
            if docs is not None and args.docs == DOCS:
                await _tasks("manual", docs_start, docs, DOC_TASKS, MAX_DOC_COMMANDS)
            if docs is not None:
                await docs.aclose()
            await engine.aclose()
    finally:
        shop.close()
        if server is not None:
            server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browser", action="store_true", help="walk the shop in Chromium")
    parser.add_argument("--docs", type=Path, default=DOCS, help="a documentation site's folder")
    parser.add_argument("--rate", type=float, default=crawl.REQUESTS_PER_SECOND,
                        help="requests a second allowed to the documentation site (the walk's "
                        "own cost shows when this is high)")
    trio.run(main, parser.parse_args())
