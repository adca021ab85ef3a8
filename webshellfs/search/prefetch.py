"""Fetch the top results of a search at once: bounded concurrency overall (the tabs a browser
may open) and per host (so one site is not hammered), robots.txt honoured unless switched off,
and one FetchOutcome per URL, in the order the URLs were given.

The fetcher is whatever the engine fetches pages with (webshellfs.fetch's Fetcher protocol);
the one given for robots.txt should return raw bytes (the plain-HTTP fetcher), since a browser
would wrap the text file in a rendered document.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

import trio

from webshellfs.config import Settings
from webshellfs.errors import FetchError
from webshellfs.fetch import Fetcher
from webshellfs.search.outcomes import (
    FetchOutcome,
    OutcomeKind,
    classify_capture,
    classify_error,
)
from webshellfs.search.robots import RobotsRules

DEFAULT_CONCURRENCY = 10  # retrieve -k 10 fetches all at once
DEFAULT_PER_HOST = 2  # Settings.fetches_per_host, for a policy made without settings


@dataclass(frozen=True)
class PrefetchPolicy:
    """Attributes:
        accepts: whether a content type can be compiled into a page (HTML, PDF, JSON, text…).
        timeout: seconds one result may take, robots.txt included.
        max_bytes: a larger response is reported as too large.
        concurrency: fetches in flight at once.
        per_host: fetches in flight at once against one host.
    """

    accepts: Callable[[str], bool]
    timeout: float
    max_bytes: int
    concurrency: int = DEFAULT_CONCURRENCY
    per_host: int = DEFAULT_PER_HOST

    @classmethod
    def from_settings(
        cls, settings: Settings, accepts: Callable[[str], bool], *, concurrency: int = DEFAULT_CONCURRENCY
    ) -> PrefetchPolicy:
        return cls(
            accepts,
            settings.fetch_timeout,
            settings.max_page_bytes,
            concurrency,
            max(1, settings.fetches_per_host),
        )


def host_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.netloc.lower()


async def prefetch(
    urls: Sequence[str],
    fetcher: Fetcher,
    policy: PrefetchPolicy,
    robots: RobotsRules | None = None,
    on_fetched: Callable[[FetchOutcome], Awaitable[None]] | None = None,
    deadline: float = math.inf,
    on_failed: Callable[[FetchOutcome], None] | None = None,
) -> list[FetchOutcome]:
    """One outcome per URL, in the given order; a URL given twice is fetched once.
    `robots=None` switches robots.txt off. `on_fetched` is awaited for each fetched page as
    soon as it is in (to compile and store it while the slower fetches go on); it holds no
    fetch slot. `on_failed` is told of each failure as it happens (progress). At `deadline` (trio time) whatever is still running stops, and a URL not yet
    answered is a timeout, so the caller can still report what it has."""
    unique = list(dict.fromkeys(urls))
    outcomes: dict[str, FetchOutcome] = {}
    everyone = trio.CapacityLimiter(policy.concurrency)
    hosts: dict[str, trio.CapacityLimiter] = {}

    async def fetch_one(url: str) -> None:
        host = hosts.setdefault(host_of(url), trio.CapacityLimiter(policy.per_host))
        # The host slot first, so a result waiting for its host holds no global slot.
        async with host, everyone:
            outcome = outcomes[url] = await _outcome(url, fetcher, policy, robots)
        if on_fetched is not None and outcome.ok:
            await on_fetched(outcome)
        elif on_failed is not None and not outcome.ok:
            on_failed(outcome)

    with trio.move_on_at(deadline):
        async with trio.open_nursery() as nursery:
            for url in unique:
                nursery.start_soon(fetch_one, url)
    late = FetchOutcome("", OutcomeKind.TIMEOUT, "timeout: the command's deadline came first")
    return [outcomes.get(url, replace(late, url=url)) for url in urls]


async def _outcome(
    url: str, fetcher: Fetcher, policy: PrefetchPolicy, robots: RobotsRules | None
) -> FetchOutcome:
    with trio.move_on_after(policy.timeout):
        if robots is not None and not await robots.allows(url):
            return FetchOutcome(url, OutcomeKind.ROBOTS, "disallowed by robots.txt")
        try:
            capture = await fetcher.fetch(url)
        except FetchError as error:
            return classify_error(url, error, policy.accepts, policy.max_bytes)
        return classify_capture(url, capture, policy.accepts, policy.max_bytes)
    return FetchOutcome(url, OutcomeKind.TIMEOUT, f"timeout: no answer within {policy.timeout:g} s")
