"""One `retrieve`, start to end, for the engine: validate the query, search, reuse the pages
already stored, prefetch the rest (each fetched page handed to the engine to compile and store
the moment it arrives), and hold what the report and the response are made from.

The engine supplies the two things only it can do, as callables: `stored(url)` (the address of
a page already stored for that URL, or None) and `keep(capture)` (compile and store a fetched
capture, return its new address). `progress(line)` is told how far it got, one line per step
(the results found, then each result as it is stored or fails), for a caller watching.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from webshellfs.fetch import Capture, Fetcher
from webshellfs.search.base import SearchBackend, SearchResult
from webshellfs.search.outcomes import FetchOutcome
from webshellfs.search.prefetch import PrefetchPolicy, prefetch
from webshellfs.search.query import validate_query
from webshellfs.search.report import render_retrieve_response, render_search_report
from webshellfs.search.robots import RobotsRules


@dataclass(frozen=True)
class Retrieval:
    """Attributes:
        outcomes: by URL, for the results that were fetched this time.
        addresses: by URL, the page of every result that has one (new or already stored).
    """

    query: str
    backend: str
    results: list[SearchResult]
    outcomes: dict[str, FetchOutcome]
    addresses: dict[str, str]

    def report(self, search_id: str) -> str:
        """The text of `_search/<search_id>.md`."""
        return render_search_report(
            self.query, self.results, self.outcomes, self.addresses,
            search_id=search_id, backend=self.backend,
        )

    def response(self, search_id: str, outlines: Mapping[str, str] | None = None) -> str:
        """The `.ctl` response; outlines: a line of each page's outline, by page address."""
        return render_retrieve_response(
            self.query, self.results, self.outcomes, self.addresses,
            search_id=search_id, backend=self.backend, outlines=outlines,
        )


async def retrieve(
    query: str,
    k: int,
    backend: SearchBackend,
    fetcher: Fetcher,
    policy: PrefetchPolicy,
    robots: RobotsRules | None,
    *,
    stored: Callable[[str], str | None],
    keep: Callable[[Capture], Awaitable[str]],
    deadline: float = math.inf,
    progress: Callable[[str], None] = lambda _line: None,
) -> Retrieval:
    """Raises CommandSyntaxError for a bad query and SearchError when the backend fails;
    failed fetches are outcomes, not errors. Fetching and keeping stop at `deadline` (trio
    time); what did not finish is reported as such."""
    query = validate_query(query)
    progress(f"searching {backend.name} for {query!r}")
    results = await backend.search(query, k)
    addresses = {r.url: address for r in results if (address := stored(r.url)) is not None}
    todo = [r.url for r in results if r.url not in addresses]
    to_fetch = len(dict.fromkeys(todo))
    found = f"{len(results)} result" + ("" if len(results) == 1 else "s")
    progress(f"{found}: {len(results) - len(todo)} stored already, fetching {to_fetch}")
    done = 0

    def step() -> str:
        nonlocal done
        done += 1
        return f"{done}/{to_fetch}"

    async def keep_page(outcome: FetchOutcome) -> None:
        assert outcome.capture is not None  # prefetch hands over fetched outcomes only
        addresses[outcome.url] = await keep(outcome.capture)
        progress(f"{step()} {addresses[outcome.url]} {outcome.url}")

    def failed(outcome: FetchOutcome) -> None:
        progress(f"{step()} failed {outcome.url}: {outcome.reason}")

    outcomes = await prefetch(todo, fetcher, policy, robots, on_fetched=keep_page,
                              deadline=deadline, on_failed=failed)
    by_url = dict(zip(todo, outcomes, strict=True))
    return Retrieval(query, backend.name, results, by_url, addresses)
