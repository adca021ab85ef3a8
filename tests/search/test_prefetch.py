"""Prefetch against the fixture site: every outcome kind, robots.txt, and the concurrency
limits, with a browser-like fetcher and with the product's plain-HTTP fetcher."""

from __future__ import annotations

import time
from pathlib import Path

import trio

from tests.search.fetchers import BrowserLikeFetcher
from tests.search.site import PAGES, SearchSite
from webshellfs.compiler.nonhtml import supported_type
from webshellfs.config import Settings
from webshellfs.fetch.http import HttpFetcher
from webshellfs.search.outcomes import FetchOutcome, OutcomeKind
from webshellfs.search.prefetch import PrefetchPolicy, prefetch
from webshellfs.search.robots import RobotsRules

POLICY = PrefetchPolicy(accepts=supported_type, timeout=1.0, max_bytes=100_000)
UNRESOLVABLE = "https://nothing.invalid/gardens"


def outcome_lines(outcomes: list[FetchOutcome], site: SearchSite) -> list[str]:
    return [f"{o.url.removeprefix(site.url)}\t{o.kind.value}\t{o.reason}" for o in outcomes]


def run_prefetch(
    urls: list[str], fetcher: object, policy: PrefetchPolicy = POLICY, robots: bool = True
) -> list[FetchOutcome]:
    async def go() -> list[FetchOutcome]:
        return await prefetch(urls, fetcher, policy, RobotsRules(fetcher) if robots else None)

    return trio.run(go)


def test_every_outcome_kind_in_rank_order(site: SearchSite) -> None:
    paths = [
        "pages/normal.html",
        "pages/missing.html",
        "pages/slow.html",
        "pages/paper.pdf",
        "pages/wall.html",
        "private/secret.html",
        "pages/archive.zip",
        "pages/big.html",
    ]
    outcomes = run_prefetch([site.url + p for p in paths] + [UNRESOLVABLE], BrowserLikeFetcher())
    lines = outcome_lines(outcomes, site)
    assert lines[:-1] == [
        "pages/normal.html\tfetched\tfetched (text/html)",
        "pages/missing.html\thttp status\tHTTP 404",
        "pages/slow.html\ttimeout\ttimeout: no answer within 1 s",
        "pages/paper.pdf\tfetched\tfetched (application/pdf)",
        "pages/wall.html\tcaptcha/bot wall\tCAPTCHA/bot wall (HTTP 403, cf-challenge)",
        "private/secret.html\trobots disallow\tdisallowed by robots.txt",
        "pages/archive.zip\tunsupported type\tunsupported type: application/zip",
        f"pages/big.html\ttoo large\ttoo large: {len(PAGES['/pages/big.html'][2])} bytes, limit 100000",
    ]
    assert lines[-1].startswith(
        f"{UNRESOLVABLE}\tdns failure\tDNS failure: cannot fetch {UNRESOLVABLE}: "
    )
    assert outcomes[0].capture is not None and b"<h1>Rain gardens</h1>" in outcomes[0].capture.body
    assert [o.capture is not None for o in outcomes] == [
        True,
        False,
        False,
        True,
        False,
        False,
        False,
        False,
        False,
    ]


def test_walls_are_told_from_pages_that_mention_captchas(site: SearchSite) -> None:
    paths = ["pages/open-wall.html", "pages/rate-limited.html", "pages/captcha-article.html"]
    assert outcome_lines(
        run_prefetch([site.url + p for p in paths], BrowserLikeFetcher()), site
    ) == [
        "pages/open-wall.html\tcaptcha/bot wall\tCAPTCHA/bot wall (HTTP 200, cf-challenge)",
        "pages/rate-limited.html\tcaptcha/bot wall\tCAPTCHA/bot wall (HTTP 429, unusual traffic)",
        "pages/captcha-article.html\tfetched\tfetched (text/html)",
    ]


def test_robots_can_be_switched_off_and_is_fetched_once_per_site(site: SearchSite) -> None:
    fetcher = BrowserLikeFetcher()
    urls = [site.url + "private/secret.html", site.url + "pages/normal.html"]
    assert [o.kind for o in run_prefetch(urls, fetcher, robots=False)] == [OutcomeKind.FETCHED] * 2
    assert site.url + "robots.txt" not in fetcher.fetched
    run_prefetch(urls, fetcher)
    assert fetcher.fetched.count(site.url + "robots.txt") == 1


def test_a_url_given_twice_is_fetched_once_and_reported_twice(site: SearchSite) -> None:
    fetcher = BrowserLikeFetcher()
    url = site.url + "pages/normal.html"
    outcomes = run_prefetch([url, url], fetcher, robots=False)
    assert [o.kind for o in outcomes] == [OutcomeKind.FETCHED, OutcomeKind.FETCHED]
    assert fetcher.fetched == [url]


def slow_urls(site: SearchSite, count: int) -> list[str]:
    return [f"{site.url}probe/{n}?delay=0.3" for n in range(count)]


def test_the_per_host_limit_holds(site: SearchSite) -> None:
    site.reset_peak()
    policy = PrefetchPolicy(
        accepts=supported_type, timeout=10.0, max_bytes=100_000, concurrency=5, per_host=2
    )
    outcomes = run_prefetch(slow_urls(site, 6), BrowserLikeFetcher(), policy, robots=False)
    assert {o.kind for o in outcomes} == {OutcomeKind.FETCHED}
    assert site.peak_in_flight == 2


def test_the_overall_limit_holds_and_fetches_overlap(site: SearchSite) -> None:
    site.reset_peak()
    policy = PrefetchPolicy(
        accepts=supported_type, timeout=10.0, max_bytes=100_000, concurrency=3, per_host=10
    )
    run_prefetch(slow_urls(site, 6), BrowserLikeFetcher(), policy, robots=False)
    assert site.peak_in_flight == 3


def test_with_the_plain_http_fetcher(site: SearchSite) -> None:
    settings = Settings(
        mountpoint=Path("/mnt/web"),
        cache=Path("/tmp/unused.sqlite"),
        allow_private=True,
        fetch_timeout=1.0,
        max_page_bytes=100_000,
    )
    paths = [
        "pages/normal.html",
        "pages/missing.html",
        "pages/slow.html",
        "pages/wall.html",
        "pages/open-wall.html",
        "private/secret.html",
        "pages/archive.zip",
        "pages/big.html",
    ]

    async def go() -> list[FetchOutcome]:
        fetcher = HttpFetcher(settings)
        try:
            policy = PrefetchPolicy.from_settings(settings, supported_type)
            return await prefetch(
                [site.url + p for p in paths] + [UNRESOLVABLE],
                fetcher,
                policy,
                RobotsRules(fetcher),
            )
        finally:
            await fetcher.aclose()

    lines = outcome_lines(trio.run(go), site)
    assert [line.split("\t")[:2] for line in lines] == [
        ["pages/normal.html", "fetched"],
        ["pages/missing.html", "http status"],
        ["pages/slow.html", "timeout"],
        ["pages/wall.html", "captcha/bot wall"],
        ["pages/open-wall.html", "captcha/bot wall"],
        ["private/secret.html", "robots disallow"],
        ["pages/archive.zip", "unsupported type"],
        ["pages/big.html", "too large"],
        [UNRESOLVABLE, "dns failure"],
    ]
    assert lines[1].endswith("\tHTTP 404")
    assert lines[3].endswith("\tCAPTCHA/bot wall (HTTP 403, cf-challenge)")


def test_staggered_fetches_overlap(site: SearchSite) -> None:
    """Ten pages answering after 0.1 … 1.0 s take about as long as the slowest one alone
    (the issue's target: at most 1.5 times)."""
    policy = PrefetchPolicy(
        accepts=supported_type, timeout=10.0, max_bytes=100_000, concurrency=10, per_host=10
    )
    fetcher = BrowserLikeFetcher()
    urls = [f"{site.url}probe/stagger-{n}?delay={n / 10}" for n in range(1, 11)]

    def timed(batch: list[str]) -> float:
        start = time.monotonic()
        outcomes = run_prefetch(batch, fetcher, policy, robots=False)
        assert {o.kind for o in outcomes} == {OutcomeKind.FETCHED}
        return time.monotonic() - start

    slowest_alone = timed(urls[-1:])
    assert timed(urls) <= 1.5 * slowest_alone
