"""BrowserFetcher: the browser behind the engine's Fetcher protocol."""

from __future__ import annotations

import pytest

from tests.browser.conftest import run
from tests.browser.live_site import LIVE_ROOT, LiveSite
from webshellfs.browser import Browser, BrowserFetcher
from webshellfs.fetch import Capture, Fetcher, HttpStatusError

pytestmark = pytest.mark.browser


def test_fetch_gives_the_rendered_dom_or_the_raw_bytes(browser: Browser, site: LiveSite) -> None:
    fetcher: Fetcher = BrowserFetcher(browser)
    page = run(lambda: fetcher.fetch(site.url("/jslist.html")))
    assert isinstance(page, Capture)
    assert page.requested_url == page.url == site.url("/jslist.html")
    assert page.status == 200
    assert page.content_type == "text/html; charset=utf-8"
    assert "<li>Mars (built by script)</li>" in page.body.decode("utf-8")
    assert ("content-type", "text/html") in page.headers
    data = run(lambda: fetcher.fetch(site.url("/data.json")))
    assert (data.content_type, data.body) == ("application/json",
                                              (LIVE_ROOT / "data.json").read_bytes())


def test_fetch_live_names_the_tab_it_left_open(browser: Browser, site: LiveSite) -> None:
    live = run(lambda: BrowserFetcher(browser).fetch_live(site.url("/index.html")))
    tabs = dict(run(browser.tabs))
    assert tabs[live.tab_id] == site.url("/index.html")


def test_an_error_status_raises_with_the_rendered_page(browser: Browser, site: LiveSite) -> None:
    fetcher = BrowserFetcher(browser)
    with pytest.raises(HttpStatusError, match=f"HTTP 404 for {site.url('/no-such-page')}") as error:
        run(lambda: fetcher.fetch(site.url("/no-such-page")))
    assert error.value.status == 404
    assert b"Nothing matches the given URI" in error.value.capture.body
    assert site.url("/no-such-page") not in dict(run(browser.tabs)).values()
