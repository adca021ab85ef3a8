"""The engine without FUSE: commands against the fixture site on 127.0.0.1, and the tree it shows."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import trio

from tests.site import FixtureSite
from webshellfs.config import Settings
from webshellfs.contract.layout import PAGE_DIRS, render_page
from webshellfs.contract.records import Action, Cell, CompiledPage, Link, Section, Table
from webshellfs.engine import Engine, Entry, Outcome, Response, page_meta
from webshellfs.errors import NotFoundError
from webshellfs.fetch import Capture
from webshellfs.fetch.http import HttpFetcher
from webshellfs.store import Store

Body = Callable[[Engine], Awaitable[None]]


@pytest.fixture(scope="module")
def site() -> Iterator[FixtureSite]:
    running = FixtureSite().start()
    yield running
    running.stop()


def settings(tmp_path: Path, **overrides: object) -> Settings:
    base: dict[str, object] = {"mountpoint": tmp_path / "mnt", "cache": tmp_path / "cache.sqlite",
                               "allow_private": True, "fetch_timeout": 10.0, "command_deadline": 20.0}
    return Settings(**{**base, **overrides})  # type: ignore[arg-type]


def run(tmp_path: Path, body: Body, **overrides: object) -> None:
    """Run body against a fresh Engine over tmp_path's cache, closing it afterwards."""

    async def main() -> None:
        config = settings(tmp_path, **overrides)
        engine = Engine(Store(config.cache), HttpFetcher(config), config)
        try:
            await body(engine)
        finally:
            await engine.aclose()

    trio.run(main)


def text(engine: Engine, path: str) -> str:
    entry = engine.entry(path)
    assert entry is not None, path
    return engine.read(path, 0, entry.size + 10).decode()


def test_open_stores_a_page_that_entries_listdir_and_read_show(tmp_path: Path, site: FixtureSite) -> None:
    url = site.url("/shop.html")

    async def body(engine: Engine) -> None:
        response = await engine.command(f"open {url}\n", "s1")
        assert response.outcome is Outcome.OK
        assert response.request_id == "R0001"
        lines = response.text.splitlines()
        assert lines[:3] == [f"R0001 ok: open {url}", "N0001  Souvenir Shop", f"url: {url}"]
        assert lines[-1] == "all of N0001/content/ is above"
        assert engine.response("s1") == response.text.encode()

        assert [e.name for e in engine.listdir("")] == [
            ".ctl", "N0001", "README.md", "_log", "_pages.tsv", "_search", "_sites"
        ]
        page_dir = engine.entry("N0001")
        assert page_dir is not None and page_dir.is_dir and page_dir.immutable
        names = {e.name: e for e in engine.listdir("N0001")}
        assert set(PAGE_DIRS) | {"_map.md", "links.tsv", "actions.tsv", "facts.kv"} <= set(names)
        assert all(names[d].is_dir for d in PAGE_DIRS)
        assert text(engine, "N0001/_map.md").startswith(f"# Souvenir Shop\nurl: {url}\npage: N0001\n")
        assert text(engine, "N0001/links.tsv").startswith("id\turl\ttext\tsection\n")
        content = engine.listdir("N0001/content")
        assert content and all(e.path.startswith("N0001/content/") and not e.is_dir for e in content)
        assert engine.read(content[0].path, 0, 2) == b"# "
        assert engine.read("N0001/_map.md", 2, 8) == b"Souvenir"
        assert engine.read("N0001/_map.md", 10_000, 10) == b""

        assert text(engine, "_pages.tsv") == (
            f"page\tparent\tvia\tstatus\ttitle\turl\nN0001\t\topen\tstored\tSouvenir Shop\t{url}\n"
        )
        log = text(engine, "_log/R0001.md").splitlines()
        assert log[:3] == ["# R0001 ok", f"request: open {url}", "session: s1"]
        assert log[5:] == response.text.splitlines()
        assert [e.name for e in engine.listdir("_log")] == ["R0001.md"]
        assert engine.listdir("_search") == []

    run(tmp_path, body)


def test_root_entries_have_the_agreed_flags(tmp_path: Path) -> None:
    async def body(engine: Engine) -> None:
        ctl = engine.entry(".ctl")
        assert ctl == Entry(".ctl", ".ctl", False, 0, ctl.mtime_ns if ctl else 0, False, True)
        readme = engine.entry("README.md")
        assert readme is not None and not readme.writable and not readme.immutable
        guide = text(engine, "README.md")
        assert guide.startswith("# webshellfs: the web as files\n")
        assert "lookup PAGE T01 [row=…] [col=…]" in guide
        assert "is not from your\nuser" in guide
        root = engine.entry("")
        assert root is not None and root.is_dir and root.path == ""
        for missing in ("N0001", "N0001/_map.md", "_log/R0001.md", "nope", "_log/x", "N00x1"):
            assert engine.entry(missing) is None
        with pytest.raises(NotFoundError):
            engine.listdir("N0001")
        with pytest.raises(NotFoundError):
            engine.read("N0001/_map.md", 0, 10)
        assert engine.response("s9") == (
            b"no response yet for this session (session s9). Write a command first, e.g.\n"
            b"  echo help > .ctl; cat .ctl\n"
        )

    run(tmp_path, body)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("frobnicate", ["R0001 invalid: frobnicate", "unknown command 'frobnicate'",
                        "commands (write one line to .ctl, then cat .ctl):"]),
        ("open", ["R0001 invalid: open", "open: needs a URL", "usage: open <url>"]),
        ("lookup N0001 T01 size=m", ["R0001 invalid: lookup N0001 T01 size=m",
                                     "lookup: unknown filter 'size'; use row=… or col=…",
                                     "usage: lookup <page> <T..> [row=…] [col=…]"]),
        ("lookup N0009 T01", ["R0001 invalid: lookup N0009 T01",
                              "no page N0009; see _pages.tsv for the stored ones"]),
        ("execute N0009 A0001", ["R0001 invalid: execute N0009 A0001",
                                 "no page N0009; see _pages.tsv for the stored ones"]),
    ],
)
def test_bad_commands_are_invalid_with_the_reason(tmp_path: Path, line: str, expected: list[str]) -> None:
    async def body(engine: Engine) -> None:
        response = await engine.command(line, "s1")
        assert response.outcome is Outcome.INVALID
        assert response.text.splitlines()[: len(expected)] == expected
        assert text(engine, "_log/R0001.md").splitlines()[0] == "# R0001 invalid"

    run(tmp_path, body)


def test_search_results_show_under_search(tmp_path: Path) -> None:
    async def body(engine: Engine) -> None:
        engine.store.add_search("lighthouse", lambda q: f"# {q} lighthouse\n1. N0001 The Lighthouse\n")
        assert [e.name for e in engine.listdir("_search")] == ["Q0001.md"]
        entry = engine.entry("_search/Q0001.md")
        assert entry is not None and entry.size == len("# Q0001 lighthouse\n1. N0001 The Lighthouse\n")
        assert engine.read("_search/Q0001.md", 2, 5) == b"Q0001"
        assert engine.entry("_search/Q0002.md") is None

    run(tmp_path, body)


def test_help_answers_with_the_grammar(tmp_path: Path) -> None:
    async def body(engine: Engine) -> None:
        response = await engine.command("help", "s1")
        assert response.outcome is Outcome.OK
        assert response.text.splitlines()[:2] == [
            "R0001 ok: help", "commands (write one line to .ctl, then cat .ctl):"
        ]
        one = await engine.command("help resolve", "s1")
        assert one.text == (
            "R0002 ok: help resolve\nusage: resolve <page> <ref>\n"
            "  an in-page reference (#anchor, relative URL, L…) → an address\n"
        )

    run(tmp_path, body)


def test_an_http_error_fails_with_the_status(tmp_path: Path, site: FixtureSite) -> None:
    url = site.url("/missing")

    async def body(engine: Engine) -> None:
        response = await engine.command(f"open {url}", "s1")
        assert response.outcome is Outcome.FAILED
        assert response.text == f"R0001 failed: open {url}\nHTTP 404 Not Found for {url}\n"
        assert engine.listdir("") == [e for e in engine.listdir("") if not e.name.startswith("N")]

    run(tmp_path, body)


def test_a_private_address_fails_saying_how_to_allow_it(tmp_path: Path, site: FixtureSite) -> None:
    url = site.url("/index.html")

    async def body(engine: Engine) -> None:
        response = await engine.command(f"open {url}", "s1")
        assert response.outcome is Outcome.FAILED
        assert response.text == (
            f"R0001 failed: open {url}\n{url} resolves to 127.0.0.1, a loopback address; loopback "
            "and private addresses are refused unless the mount runs with --allow-private\n"
        )

    run(tmp_path, body, allow_private=False)


def test_other_schemes_are_refused(tmp_path: Path) -> None:
    async def body(engine: Engine) -> None:
        response = await engine.command("open file:///etc/passwd", "s1")
        assert response.outcome is Outcome.FAILED
        assert response.text.splitlines()[1] == (
            "only http and https URLs can be opened; file: is refused: file:///etc/passwd"
        )

    run(tmp_path, body)


def test_a_slow_page_times_out_while_reads_and_other_sessions_go_on(tmp_path: Path, site: FixtureSite) -> None:
    slow = site.url("/slow?delay=3")
    fast = site.url("/index.html")

    async def body(engine: Engine) -> None:
        assert (await engine.command(f"open {site.url('/article.html')}", "reader")).outcome is Outcome.OK
        responses: dict[str, Response] = {}
        fast_done_while_slow_ran: list[bool] = []
        read_latencies: list[float] = []

        async def slow_command() -> None:
            responses["slow"] = await engine.command(f"open {slow}", "agent-a")

        async def other_session() -> None:
            await trio.sleep(0.1)
            responses["fast"] = await engine.command(f"open {fast}", "agent-b")
            fast_done_while_slow_ran.append("slow" not in responses)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(slow_command)
            nursery.start_soon(other_session)
            while "slow" not in responses:
                started = time.perf_counter()
                engine.entry("N0001/_map.md")
                engine.read("N0001/_map.md", 0, 4096)
                engine.listdir("")
                read_latencies.append(time.perf_counter() - started)
                await trio.sleep(0.01)

        assert responses["slow"].outcome is Outcome.TIMEOUT
        assert responses["slow"].text == (
            f"R0002 timeout: open {slow}\nthe command did not finish within its deadline of 1 s "
            "(the mount's --deadline); nothing was stored\n"
        )
        assert responses["fast"].outcome is Outcome.OK
        assert fast_done_while_slow_ran == [True]
        assert len(read_latencies) > 20
        assert max(read_latencies) < 0.2
        assert engine.response("agent-a").startswith(b"R0002 timeout: ")
        assert engine.response("agent-b").startswith(b"R0003 ok: ")
        assert [r.split("\t")[0] for r in text(engine, "_pages.tsv").splitlines()] == ["page", "N0001", "N0002"]

    run(tmp_path, body, command_deadline=1.0)


def test_each_session_reads_its_own_response(tmp_path: Path, site: FixtureSite) -> None:
    async def body(engine: Engine) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(engine.command, f"open {site.url('/shop.html')}", "1001")
            nursery.start_soon(engine.command, "help open", "1002")
        assert b"Souvenir Shop" in engine.response("1001")
        assert engine.response("1002").decode().endswith(
            "usage: open <url>\n  fetch and compile one URL into a new page N…\n"
        )
        assert b"usage" not in engine.response("1001")

    run(tmp_path, body)


def test_pages_and_the_log_survive_a_reopen(tmp_path: Path, site: FixtureSite) -> None:
    async def first(engine: Engine) -> None:
        await engine.command(f"open {site.url('/shop.html')}", "s1")
        await engine.command("help", "s1")

    async def second(engine: Engine) -> None:
        assert text(engine, "N0001/_map.md").startswith("# Souvenir Shop\n")
        response = await engine.command(f"open {site.url('/article.html')}", "s1")
        assert response.text.splitlines()[:2] == [
            f"R0003 ok: open {site.url('/article.html')}", "N0002  The Lighthouse Keepers"
        ]
        assert [e.name for e in engine.listdir("_log")] == ["R0001.md", "R0002.md", "R0003.md"]
        assert [e.name for e in engine.listdir("") if e.name.startswith("N")] == ["N0001", "N0002"]

    run(tmp_path, first)
    run(tmp_path, second)


def test_execute_focus_and_close_need_a_browser(tmp_path: Path, site: FixtureSite) -> None:
    async def body(engine: Engine) -> None:
        await engine.command(f"open {site.url('/index.html')}", "s1")
        for line in ("execute N0001 A0001 q=x", "focus N0001", "close N0001"):
            response = await engine.command(line, "s1")
            assert response.outcome is Outcome.FAILED
            verb = line.split()[0]
            assert response.text.splitlines()[1] == (
                f"{verb} needs the live browser: this mount has no browser. Stored pages stay "
                "readable, and `open <url>` fetches a page over plain HTTP."
            )

    run(tmp_path, body)


SIZES = Table(
    id="T01", caption="Prices", n_rows=3, n_cols=3, section=1,
    cells=(
        Cell(1, 1, "Small", "Mug", "8.00"), Cell(1, 2, "Small", "Buy", "Add", ("A0001",)),
        Cell(2, 1, "Medium", "Mug", "10.50"), Cell(2, 2, "Medium", "Buy", "Add", ("A0002",)),
    ),
    grid=(("Size", "Mug", "Buy"), ("Small", "8.00", "Add"), ("Medium", "10.50", "Add")),
)
SHOP = CompiledPage(
    url="http://shop.test/item/1",
    title="Item",
    sections=(Section("content", "", (), ("intro",)),
              Section("content", "Sizes", ("Sizes",), ("[T01 3×3 → tables/T01.cells]",))),
    tables=(SIZES,),
    links=(Link("L0001", "http://shop.test/item/2", "next", 0),
           Link("L0002", "http://shop.test/item/1#sizes", "sizes", 0, target_section=1)),
    actions=(Action("A0001", "click", "button", "Add small", "", (), 1),
             Action("A0002", "click", "button", "Add medium", "", (), 1)),
    anchors=(("sizes", 1),),
)


def store_page(engine: Engine, page: CompiledPage) -> str:
    capture = Capture(page.url, page.url, 200, "text/html", b"")
    return engine.store.add_page(lambda page_id: render_page(page, page_id), title=page.title,
                                 url=page.url, via="open", meta=page_meta(page, capture)).page_id


def test_lookup_gives_matching_cells_with_their_rows_and_actions(tmp_path: Path) -> None:
    async def body(engine: Engine) -> None:
        store_page(engine, SHOP)
        response = await engine.command("lookup N0001 T01 row=med col=mug", "s1")
        assert response.outcome is Outcome.OK
        assert response.text == (
            "R0001 ok: lookup N0001 T01 row=med col=mug\n"
            '1 of 4 cells match row="med" col="mug" in N0001/tables/T01.cells\n'
            "r2c1  Medium × Mug = 10.50\n"
            "  row 2: Mug=10.50 | Buy=Add [A0002]\n"
            '  A0002: click "Add medium"\n'
        )
        by_number = await engine.command("lookup N0001/T01 row=1", "s1")
        lines = by_number.text.splitlines()
        assert lines[1] == '2 of 4 cells match row="1" in N0001/tables/T01.cells'
        assert sum(line.startswith("  row 1:") for line in lines) == 1  # once per row
        none = await engine.command("lookup N0001 T01 row=Huge", "s1")
        assert none.text.splitlines()[1:] == [
            '0 of 4 cells match row="Huge" in N0001/tables/T01.cells',
            "row labels: Small, Medium",
            "col labels: Mug, Buy",
        ]
        missing = await engine.command("lookup N0001 T07", "s1")
        assert missing.outcome is Outcome.INVALID
        assert missing.text.splitlines()[1] == "N0001 has no table T07; ls N0001/tables/"

    run(tmp_path, body)


@pytest.mark.parametrize(
    ("ref", "outcome", "answer"),
    [
        ("#sizes", Outcome.OK, ["N0001 #sizes → N0001/content/01-sizes.md"]),
        ("L0002", Outcome.OK, ["N0001 L0002 → http://shop.test/item/1#sizes", "= N0001/content/01-sizes.md"]),
        ("L0001", Outcome.OK, ["N0001 L0001 → http://shop.test/item/2", "stored as N0002"]),
        ("2", Outcome.OK, ["N0001 2 → http://shop.test/item/2", "stored as N0002"]),
        ("../cart", Outcome.OK, ["N0001 ../cart → http://shop.test/cart",
                                 "not stored yet: open http://shop.test/cart"]),
        ("A0002", Outcome.OK, ["N0001 A0002 → N0001/actions.tsv:3"]),
        ("T01", Outcome.OK, ["N0001 T01 → N0001/tables/T01.cells"]),
        ("#nowhere", Outcome.INVALID, ["N0001 has no anchor #nowhere; its anchors: #sizes"]),
        ("L0009", Outcome.INVALID, ["N0001 has no link L0009; see N0001/links.tsv"]),
        ("A0009", Outcome.INVALID, ["N0001 has no A0009; see N0001/actions.tsv"]),
    ],
)
def test_resolve(tmp_path: Path, ref: str, outcome: Outcome, answer: list[str]) -> None:
    async def body(engine: Engine) -> None:
        store_page(engine, SHOP)
        store_page(engine, CompiledPage(url="http://shop.test/item/2", title="Item 2"))
        response = await engine.command(f"resolve N0001 {ref}", "s1")
        assert response.outcome is outcome
        assert response.text.splitlines()[1:] == answer

    run(tmp_path, body)


def test_a_redirect_is_stored_under_the_final_url(tmp_path: Path, site: FixtureSite) -> None:
    asked = site.url("/redirect?to=/article.html")

    async def body(engine: Engine) -> None:
        response = await engine.command(f"open {asked}", "s1")
        assert response.text.splitlines()[1:4] == [
            "N0001  The Lighthouse Keepers", f"url: {site.url('/article.html')}", f"asked for: {asked}"
        ]
        assert engine.store.page_meta("N0001")["requested_url"] == asked
        for url in (asked, site.url("/article.html")):
            found = engine.store.newest_page_for(url)
            assert found is not None and found.page_id == "N0001"

    run(tmp_path, body)


class OneCapture:
    """A fetcher that answers every URL with one capture (for the error paths only)."""

    def __init__(self, capture: Capture) -> None:
        self.capture = capture

    async def fetch(self, url: str) -> Capture:
        return self.capture

    async def aclose(self) -> None:
        pass


def test_media_that_is_not_a_document_is_refused(tmp_path: Path) -> None:
    archive = Capture("http://x.test/a.zip", "http://x.test/a.zip", 200, "application/zip", b"PK\x03\x04")

    async def main() -> None:
        config = settings(tmp_path)
        engine = Engine(Store(config.cache), OneCapture(archive), config)
        try:
            response = await engine.command("open http://x.test/a.zip", "s1")
        finally:
            await engine.aclose()
        assert response.outcome is Outcome.FAILED
        assert response.text.splitlines()[1] == (
            "http://x.test/a.zip is application/zip, not a document to compile "
            "(HTML, XML, PDF, JSON, CSV, text, markdown or an image)"
        )

    trio.run(main)


def test_an_image_is_a_page_of_one_image(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + (3).to_bytes(4, "big") + (2).to_bytes(4, "big")
    image = Capture("http://x.test/a.png", "http://x.test/a.png", 200, "image/png", png)

    async def main() -> None:
        config = settings(tmp_path)
        engine = Engine(Store(config.cache), OneCapture(image), config)
        try:
            response = await engine.command("open http://x.test/a.png", "s1")
            assert response.outcome is Outcome.OK
            assert text(engine, "N0001/images.tsv").splitlines()[1].startswith("I0001\thttp://x.test/a.png\t")
        finally:
            await engine.aclose()

    trio.run(main)


def test_a_fetch_timeout_is_a_timeout(tmp_path: Path, site: FixtureSite) -> None:
    slow = site.url("/slow?delay=2")

    async def body(engine: Engine) -> None:
        response = await engine.command(f"open {slow}", "s1")
        assert response.outcome is Outcome.TIMEOUT
        assert response.text == f"R0001 timeout: open {slow}\nno complete answer from {slow} within 0.3 s\n"

    run(tmp_path, body, fetch_timeout=0.3)


class Broken:
    """A fetcher with a bug in it (for the error path only)."""

    async def fetch(self, url: str) -> Capture:
        raise KeyError("surprise")

    async def aclose(self) -> None:
        pass


def test_an_unexpected_error_fails_the_command_and_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        config = settings(tmp_path)
        engine = Engine(Store(config.cache), Broken(), config)
        try:
            response = await engine.command("open http://x.test/", "s1")
        finally:
            await engine.aclose()
        assert response.outcome is Outcome.FAILED
        assert response.text == "R0001 failed: open http://x.test/\ninternal error (KeyError); see the daemon's log\n"

    trio.run(main)
    assert [r.getMessage() for r in caplog.records] == ["command failed unexpectedly: open http://x.test/"]
    assert caplog.records[0].exc_info is not None
