"""The ddgs backend's error mapping. The real library call needs the internet, which tests do
not have, so here the library's DDGS class is replaced by one that raises what ddgs raises
(its own exception classes); everything around the call is the product code."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import trio
from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from webshellfs.config import Settings
from webshellfs.errors import SearchError
from webshellfs.search import backend_from_spec, ddgs
from webshellfs.search.base import HOW_TO_CHOOSE

SETTINGS = Settings(
    mountpoint=Path("/mnt/web"), cache=Path("/tmp/unused.sqlite"), fetch_timeout=0.5
)


def library_that(outcome: Exception | list[dict[str, str]] | float) -> type:
    class FakeDDGS:
        def __init__(self, timeout: int) -> None:
            self.timeout = timeout

        def text(self, query: str, max_results: int) -> list[dict[str, str]]:
            if isinstance(outcome, Exception):
                raise outcome
            if isinstance(outcome, float):
                time.sleep(outcome)
                return []
            return outcome

    return FakeDDGS


def run(
    monkeypatch: pytest.MonkeyPatch,
    outcome: Exception | list[dict[str, str]] | float,
    limit: int = 5,
) -> list:
    monkeypatch.setattr(ddgs, "DDGS", library_that(outcome))
    backend = backend_from_spec("ddgs", SETTINGS, {})
    return trio.run(backend.search, "rain gardens", limit)


@pytest.mark.parametrize(
    ("raised", "reason"),
    [
        (
            RatelimitException("https://duckduckgo.com/ 202 Ratelimit"),
            "is rate limited by its engines (https://duckduckgo.com/ 202 Ratelimit): wait a while",
        ),
        (TimeoutException("timed out"), "timed out (timed out)"),
        (DDGSException("403 Forbidden"), "failed (403 Forbidden); its engines may be blocking us"),
        (
            DDGSException("DNSError('error sending request for url (https://search.example/"
                          "search;_ylt=Ab?p=rain) > error resolving DNS > DNS error: no records "
                          "found for Query { name: Name(\"search.example.\") }')"),
            "failed: its search engines' addresses could not be resolved (no network or no DNS "
            "here?)",
        ),
        (
            DDGSException("error sending request for url (https://e.example/s?q=rain) > "
                          "connection refused"),
            "failed (connection refused); its engines may be blocking us",
        ),
    ],
)
def test_library_failures_become_search_errors(
    monkeypatch: pytest.MonkeyPatch, raised: Exception, reason: str
) -> None:
    with pytest.raises(SearchError) as caught:
        run(monkeypatch, raised)
    assert str(caught.value) == f"search backend ddgs {reason}. {HOW_TO_CHOOSE}"


def test_no_results_is_an_empty_list_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(monkeypatch, DDGSException("No results found.")) == []


def test_hits_become_ranked_results(monkeypatch: pytest.MonkeyPatch) -> None:
    hits = [
        {"title": "Rain <b>gardens</b>", "href": "https://a.test/rain", "body": "Soak &amp; hold."},
        {"title": "Again", "href": "https://a.test/rain", "body": "a repeat of the first URL"},
        {"title": "No URL", "href": "", "body": ""},
        {"title": "", "href": "https://b.test/", "body": ""},
    ]
    results = run(monkeypatch, hits)
    assert [(r.rank, r.title, r.url, r.snippet) for r in results] == [
        (1, "Rain gardens", "https://a.test/rain", "Soak & hold."),
        (2, "https://b.test/", "https://b.test/", ""),
    ]


def test_a_hung_library_call_is_abandoned_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SearchError) as caught:
        run(monkeypatch, 2.0)
    assert str(caught.value) == f"search backend ddgs did not answer within 0.5 s. {HOW_TO_CHOOSE}"
