"""`_search/Q0001.md` and the `.ctl` response for a retrieve."""

from __future__ import annotations

from webshellfs.search import SearchResult
from webshellfs.search.outcomes import FetchOutcome, OutcomeKind
from webshellfs.search.report import render_retrieve_response, render_search_report

RESULTS = [
    SearchResult(1, "Rain gardens", "https://a.test/rain", "How a rain garden soaks up water."),
    SearchResult(2, "Lost gardens", "https://a.test/lost", ""),
    SearchResult(3, "Old gardens", "https://b.test/old", "Stored last week."),
    SearchResult(4, "Walled\tgardens", "https://c.test/wall", "Behind a wall."),
]
OUTCOMES = {
    "https://a.test/rain": FetchOutcome(
        "https://a.test/rain", OutcomeKind.FETCHED, "fetched (text/html)"
    ),
    "https://a.test/lost": FetchOutcome("https://a.test/lost", OutcomeKind.HTTP_STATUS, "HTTP 404"),
    "https://c.test/wall": FetchOutcome(
        "https://c.test/wall", OutcomeKind.BOT_WALL, "CAPTCHA/bot wall (HTTP 403, cf-challenge)"
    ),
}
ADDRESSES = {"https://a.test/rain": "N0007", "https://b.test/old": "N0002"}


def test_search_report() -> None:
    text = render_search_report(
        "rain gardens", RESULTS, OUTCOMES, ADDRESSES, search_id="Q0003", backend="ddgs"
    )
    assert text.splitlines() == [
        "# Q0003: rain gardens",
        "backend: ddgs",
        "4 results, 2 pages, 2 failed",
        "",
        "## 1. Rain gardens",
        "url: https://a.test/rain",
        "page: N0007",
        "snippet: How a rain garden soaks up water.",
        "",
        "## 2. Lost gardens",
        "url: https://a.test/lost",
        "failed: HTTP 404",
        "",
        "## 3. Old gardens",
        "url: https://b.test/old",
        "page: N0002 (already stored)",
        "snippet: Stored last week.",
        "",
        "## 4. Walled gardens",
        "url: https://c.test/wall",
        "failed: CAPTCHA/bot wall (HTTP 403, cf-challenge)",
        "snippet: Behind a wall.",
    ]


def test_ctl_response() -> None:
    text = render_retrieve_response(
        "rain gardens", RESULTS, OUTCOMES, ADDRESSES, search_id="Q0003", backend="ddgs"
    )
    assert text == (
        'retrieve "rain gardens": 4 results, 2 pages, 2 failed (ddgs) → _search/Q0003.md\n'
        '1. N0007 "Rain gardens" https://a.test/rain\n'
        '2. failed: HTTP 404 — "Lost gardens" https://a.test/lost\n'
        '3. N0002 (already stored) "Old gardens" https://b.test/old\n'
        '4. failed: CAPTCHA/bot wall (HTTP 403, cf-challenge) — "Walled gardens" https://c.test/wall\n'
        "next: cat N0007/_map.md   or grep -rn WORD N0007 N0002\n"
    )


def test_no_results() -> None:
    assert render_retrieve_response("zzz", [], {}, {}, search_id="Q0004", backend="local") == (
        'retrieve "zzz": no results from local → _search/Q0004.md\n'
    )
    assert render_search_report("zzz", [], {}, {}, search_id="Q0004", backend="local") == (
        "# Q0004: zzz\nbackend: local\n0 results, 0 pages, 0 failed\n"
    )
