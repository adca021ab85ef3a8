"""`retrieve` through the engine, without FUSE: the search fixture site on 127.0.0.1 (its SearXNG
endpoint over pages that each fail in their own way), the plain-HTTP fetcher, a real store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from tests.search.fetchers import BrowserLikeFetcher
from tests.search.site import PAGES, SLOW_SECONDS, SearchSite, start_site
from tests.test_engine import Body, run, settings, text
from webshellfs.engine import Engine, Outcome
from webshellfs.fetch.http import HttpFetcher
from webshellfs.search.base import HOW_TO_CHOOSE
from webshellfs.store import Store

FETCH_TIMEOUT = 2.0  # the slow page answers after SLOW_SECONDS, at least three times as long
assert SLOW_SECONDS >= 3 * FETCH_TIMEOUT
BIG = len(PAGES["/pages/big.html"][2])


@pytest.fixture(scope="module")
def site() -> Iterator[SearchSite]:
    running = start_site()
    yield running
    running.stop()


def run_retrieve(tmp_path: Path, site: SearchSite, body: Body, **overrides: object) -> None:
    config: dict[str, object] = {"search": f"searxng={site.url}", "fetch_timeout": FETCH_TIMEOUT}
    run(tmp_path, body, **{**config, **overrides})


def test_each_result_has_its_page_or_the_reason(tmp_path: Path, site: SearchSite) -> None:
    pages = site.url + "pages/"

    async def body(engine: Engine) -> None:
        opened = await engine.command(f"open {pages}normal.html", "s1")
        assert opened.text.splitlines()[1] == "N0001  Rain gardens"

        response = await engine.command("retrieve -k 5 gardens", "s1")
        assert response.outcome is Outcome.OK
        lines = response.text.splitlines()
        # Under each page, its sections on one line: reading _map.md first is a choice.
        assert lines[3] == "   content/: 01-rain-gardens"
        assert [line for line in lines if not line.startswith("   ")] == [
            "R0002 ok: retrieve -k 5 gardens",
            'retrieve "gardens": 5 results, 2 pages, 3 failed (searxng) → _search/Q0001.md',
            f'1. N0001 (already stored) "Rain gardens" {pages}normal.html',
            f'2. failed: HTTP 404 — "Lost gardens" {pages}missing.html',
            f'3. failed: timeout: no answer within 2 s — "Slow gardens" {pages}slow.html',
            f'4. N0002 "Garden paper" {pages}paper.pdf',
            f'5. failed: CAPTCHA/bot wall (HTTP 403, cf-challenge) — "Walled gardens" {pages}wall.html',
            "next: cat N0001/_map.md   or grep -rn WORD N0001 N0002",
        ]
        assert [e.name for e in engine.listdir("_search")] == ["Q0001.md"]
        assert text(engine, "_search/Q0001.md").splitlines() == [
            "# Q0001: gardens",
            "backend: searxng",
            "5 results, 2 pages, 3 failed",
            "",
            "## 1. Rain gardens",
            f"url: {pages}normal.html",
            "page: N0001 (already stored)",
            "snippet: How a rain garden soaks up storm water.",
            "",
            "## 2. Lost gardens",
            f"url: {pages}missing.html",
            "failed: HTTP 404",
            "snippet: A page that is gone.",
            "",
            "## 3. Slow gardens",
            f"url: {pages}slow.html",
            "failed: timeout: no answer within 2 s",
            "snippet: A page that answers too late.",
            "",
            "## 4. Garden paper",
            f"url: {pages}paper.pdf",
            "page: N0002",
            "snippet: A PDF about soil and gardens.",
            "",
            "## 5. Walled gardens",
            f"url: {pages}wall.html",
            "failed: CAPTCHA/bot wall (HTTP 403, cf-challenge)",
            "snippet: A page behind a bot wall.",
        ]
        # The PDF is a page like any other, readable through the tree; nothing else was stored.
        assert text(engine, "_pages.tsv").splitlines()[1:] == [
            f"N0001\t\topen\tstored\tRain gardens\t{pages}normal.html",
            f"N0002\t\tretrieve\tstored\tGarden paper\t{pages}paper.pdf",
        ]
        assert [e.name for e in engine.listdir("N0002/content")] == ["00-intro.md"]
        assert text(engine, "N0002/content/00-intro.md").splitlines() == [
            "# (before the first heading)", "pages 1–2", "Soil holds water.", "[page 2]",
            "Roots need air.",
        ]
        assert text(engine, "_log/R0002.md").splitlines()[5:] == response.text.splitlines()
        # The page stored before was not fetched again.
        assert len(site.seen("/pages/normal.html")) == 1

    run_retrieve(tmp_path, site, body)


def test_a_stored_result_is_reused_unless_refreshed(tmp_path: Path, site: SearchSite) -> None:
    normal = site.url + "pages/normal.html"

    async def body(engine: Engine) -> None:
        first = await engine.command("retrieve -k 1 rain", "s1")
        assert first.text.splitlines()[1:3] == [
            'retrieve "rain": 1 result, 1 page, 0 failed (searxng) → _search/Q0001.md',
            f'1. N0001 "Rain gardens" {normal}',
        ]
        again = await engine.command("retrieve -k 1 rain", "s1")
        assert again.text.splitlines()[2] == f'1. N0001 (already stored) "Rain gardens" {normal}'
        fresh = await engine.command("retrieve --refresh -k 1 rain", "s1")
        assert fresh.text.splitlines()[2] == f'1. N0002 "Rain gardens" {normal}'
        assert [e.name for e in engine.listdir("_search")] == ["Q0001.md", "Q0002.md", "Q0003.md"]
        assert text(engine, "N0002/_map.md").startswith(f"# Rain gardens\nurl: {normal}\npage: N0002\n")

    run_retrieve(tmp_path, site, body)


def test_robots_size_type_and_dns_are_reasons_and_robots_can_be_ignored(
    tmp_path: Path, site: SearchSite
) -> None:
    async def body(engine: Engine) -> None:
        response = await engine.command("retrieve -k 4 robots archive big dns", "s1")
        assert response.outcome is Outcome.OK
        lines = response.text.splitlines()
        assert lines[1:5] == [
            'retrieve "robots archive big dns": 4 results, 0 pages, 4 failed (searxng) → _search/Q0001.md',
            f'1. failed: disallowed by robots.txt — "Secret gardens" {site.url}private/secret.html',
            f'2. failed: unsupported type: application/zip — "Garden archive" {site.url}pages/archive.zip',
            f'3. failed: too large: {BIG} bytes, limit 100000 — "Big gardens" {site.url}pages/big.html',
        ]
        # The resolver's own words differ from machine to machine.
        # The resolver's own words after the reason are the fetcher's to choose.
        assert lines[5].startswith("4. failed: DNS failure: ")
        assert "nothing.invalid" in lines[5].partition(" — ")[0]
        assert lines[5].endswith(' — "Nowhere gardens" https://nothing.invalid/gardens')
        assert len(lines) == 6

    async def ignoring(engine: Engine) -> None:
        response = await engine.command("retrieve -k 1 robots", "s1")
        assert response.text.splitlines()[2] == f'1. N0001 "Secret gardens" {site.url}private/secret.html'

    run_retrieve(tmp_path / "a", site, body, max_page_bytes=100_000)
    run_retrieve(tmp_path / "b", site, ignoring, ignore_robots=True)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("retrieve", "retrieve: needs a query"),
        ("retrieve -k 3 ", "retrieve: needs a query"),
        ("retrieve " + "garden " * 60, "the query is 419 characters; the limit is 400"),
        ("retrieve rain\x85gardens", "the query contains control characters; write it as plain text"),
        ("retrieve rain\x07gardens", "the command holds control characters (binary data?)"),
    ],
)
def test_bad_queries_are_invalid_and_never_searched(
    tmp_path: Path, site: SearchSite, line: str, reason: str
) -> None:
    searched = len(site.seen("/search"))

    async def body(engine: Engine) -> None:
        response = await engine.command(line, "s1")
        assert response.outcome is Outcome.INVALID
        assert response.text.splitlines()[1] == reason
        assert engine.listdir("_search") == []

    run_retrieve(tmp_path, site, body)
    assert len(site.seen("/search")) == searched


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("searxng=http://127.0.0.1:9", "search backend searxng is unreachable at http://127.0.0.1:9/search ("),
        ("nosuch", "unknown search backend 'nosuch'. "),
        ("brave", "search backend brave needs an API key: set BRAVE_API_KEY. "),
    ],
)
def test_a_backend_that_is_down_fails_retrieve_and_open_still_works(
    tmp_path: Path, site: SearchSite, spec: str, reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)

    async def body(engine: Engine) -> None:
        response = await engine.command("retrieve gardens", "s1")
        assert response.outcome is Outcome.FAILED
        message = response.text.splitlines()[1]
        assert message.startswith(reason)
        assert message.endswith(HOW_TO_CHOOSE)
        # Every retrieve leaves its report, a failed search too: the query and the reason.
        assert response.text.splitlines()[2] == "→ _search/Q0001.md"
        assert [entry.name for entry in engine.listdir("_search")] == ["Q0001.md"]
        assert engine.read("_search/Q0001.md", 0, 10_000).decode().splitlines() == [
            "# Q0001: gardens", f"failed: {message}"]
        opened = await engine.command(f"open {site.url}pages/normal.html", "s1")
        assert opened.outcome is Outcome.OK
        assert opened.text.splitlines()[1] == "N0001  Rain gardens"

    run_retrieve(tmp_path, site, body, search=spec)


@pytest.mark.parametrize(("path", "status"), [("pages/wall.html", 403), ("pages/open-wall.html", 200)])
def test_open_of_a_bot_wall_says_so_and_stores_nothing(
    tmp_path: Path, site: SearchSite, path: str, status: int
) -> None:
    url = site.url + path

    async def body(engine: Engine) -> None:
        response = await engine.command(f"open {url}", "s1")
        assert response.outcome is Outcome.FAILED
        assert response.text.splitlines()[1] == (
            f"{url} answered with a CAPTCHA/bot wall (HTTP {status}, cf-challenge), not the page; "
            "nothing was stored"
        )
        assert engine.store.pages() == []

    run_retrieve(tmp_path, site, body)


def test_a_page_that_only_mentions_captchas_is_stored(tmp_path: Path, site: SearchSite) -> None:
    async def body(engine: Engine) -> None:
        response = await engine.command(f"open {site.url}pages/captcha-article.html", "s1")
        assert response.outcome is Outcome.OK
        assert response.text.splitlines()[1] == "N0001  CAPTCHA"

    run_retrieve(tmp_path, site, body)


def test_with_a_browser_robots_txt_is_read_by_the_plain_fetcher(tmp_path: Path, site: SearchSite) -> None:
    """A browser hands back a 403 wall as a page and would render robots.txt as one: the wall
    is still recognised, and robots.txt goes through the plain fetcher."""
    config = settings(tmp_path, search=f"searxng={site.url}", fetch_timeout=FETCH_TIMEOUT)
    browser = BrowserLikeFetcher()

    async def main() -> None:
        engine = Engine(Store(config.cache), browser, config, plain_fetcher=HttpFetcher(config))
        try:
            response = await engine.command("retrieve -k 2 rain wall", "s1")
        finally:
            await engine.aclose()
        assert response.text.splitlines()[2:5] == [
            f'1. N0001 "Rain gardens" {site.url}pages/normal.html',
            "   content/: 01-rain-gardens",
            f'2. failed: CAPTCHA/bot wall (HTTP 403, cf-challenge) — "Walled gardens" {site.url}pages/wall.html',
        ]

    robots_before = len(site.seen("/robots.txt"))
    trio.run(main)
    assert sorted(browser.fetched) == [site.url + "pages/normal.html", site.url + "pages/wall.html"]
    assert len(site.seen("/robots.txt")) == robots_before + 1


def test_near_the_command_deadline_retrieve_reports_what_it_has(tmp_path: Path, site: SearchSite) -> None:
    """The fetch timeout is longer than the command's deadline: the retrieve stops fetching in
    time to name the page it stored and the one still loading."""

    async def body(engine: Engine) -> None:
        response = await engine.command("retrieve -k 2 rain slow", "s1")
        assert response.outcome is Outcome.OK
        assert response.text.splitlines()[1:] == [
            'retrieve "rain slow": 2 results, 1 page, 1 failed (searxng) → _search/Q0001.md',
            f'1. N0001 "Rain gardens" {site.url}pages/normal.html',
            "   content/: 01-rain-gardens",
            f"2. failed: timeout: the command's deadline came first — \"Slow gardens\" {site.url}pages/slow.html",
            "next: cat N0001/_map.md   or grep -rn WORD N0001",
        ]

    run_retrieve(tmp_path, site, body, fetch_timeout=3 * SLOW_SECONDS, command_deadline=SLOW_SECONDS / 2)
