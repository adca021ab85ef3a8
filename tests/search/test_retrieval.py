"""A whole retrieve against the fixture site and its SearXNG endpoint: search, reuse of a
stored page, prefetch, compile and store (here into a dict, as the engine does into SQLite),
then the report and the response."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.search.fetchers import BrowserLikeFetcher
from tests.search.site import SearchSite
from webshellfs.compiler import compile_page
from webshellfs.compiler.nonhtml import compile_nonhtml, supported_type
from webshellfs.config import Settings
from webshellfs.contract.layout import render_page
from webshellfs.errors import CommandSyntaxError
from webshellfs.fetch import Capture
from webshellfs.search import PrefetchPolicy, Retrieval, RobotsRules, backend_from_spec, retrieve

SETTINGS = Settings(mountpoint=Path("/mnt/web"), cache=Path("/tmp/unused.sqlite"))
POLICY = PrefetchPolicy(accepts=supported_type, timeout=1.0, max_bytes=100_000)


class DictStore:
    """Pages by address, as the engine keeps them; N0001 is stored before the retrieve."""

    def __init__(self, site: SearchSite) -> None:
        self.urls = {site.url + "pages/missing.html": "N0001"}
        self.pages: dict[str, dict[str, bytes]] = {"N0001": {}}

    def stored(self, url: str) -> str | None:
        return self.urls.get(url)

    async def keep(self, capture: Capture) -> str:
        page = compile_nonhtml(capture.body, capture.url, capture.content_type) or compile_page(
            capture.body, capture.url, content_type=capture.content_type
        )
        address = f"N{len(self.pages) + 1:04d}"
        self.pages[address] = render_page(page, address)
        return address


def run(site: SearchSite, store: DictStore, query: str, k: int) -> Retrieval:
    backend = backend_from_spec(f"searxng={site.url}", SETTINGS, {})
    fetcher = BrowserLikeFetcher()
    return trio.run(
        lambda: retrieve(
            query,
            k,
            backend,
            fetcher,
            POLICY,
            RobotsRules(fetcher),
            stored=store.stored,
            keep=store.keep,
        )
    )


def test_retrieve_reports_every_result(site: SearchSite) -> None:
    store = DictStore(site)
    done = run(site, store, "  gardens ", 6)
    # Pages are stored as they arrive, so the two new ones may be numbered either way round.
    normal = done.addresses[site.url + "pages/normal.html"]
    paper = done.addresses[site.url + "pages/paper.pdf"]
    assert {normal, paper} == {"N0002", "N0003"}
    assert done.response("Q0001").splitlines() == [
        'retrieve "gardens": 6 results, 3 pages, 3 failed (searxng) → _search/Q0001.md',
        f'1. {normal} "Rain gardens" {site.url}pages/normal.html',
        f'2. N0001 (already stored) "Lost gardens" {site.url}pages/missing.html',
        f'3. failed: timeout: no answer within 1 s — "Slow gardens" {site.url}pages/slow.html',
        f'4. {paper} "Garden paper" {site.url}pages/paper.pdf',
        (
            "5. failed: CAPTCHA/bot wall (HTTP 403, cf-challenge) — "
            f'"Walled gardens" {site.url}pages/wall.html'
        ),
        f'6. failed: disallowed by robots.txt — "Secret gardens" {site.url}private/secret.html',
        f"next: cat {normal}/_map.md   or grep -rn WORD {normal} N0001 {paper}",
    ]
    report = done.report("Q0001").splitlines()
    assert report[:9] == [
        "# Q0001: gardens",
        "backend: searxng",
        "6 results, 3 pages, 3 failed",
        "",
        "## 1. Rain gardens",
        f"url: {site.url}pages/normal.html",
        f"page: {normal}",
        "snippet: How a rain garden soaks up storm water.",
        "",
    ]
    assert store.pages[paper]["content/00-intro.md"].splitlines()[2] == b"Soil holds water."


def test_a_bad_query_is_refused_before_any_search(site: SearchSite) -> None:
    before = len(site.seen("/search"))
    with pytest.raises(CommandSyntaxError):
        run(site, DictStore(site), "\x07", 3)
    assert len(site.seen("/search")) == before
