"""Each backend against the fixture site on 127.0.0.1: the request it sends, the results it
reads back, and the error it gives when the service refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from tests.search.site import API_KEY, INDEX, SearchSite
from webshellfs.config import Settings
from webshellfs.errors import SearchError
from webshellfs.search import SearchResult, backend_from_spec
from webshellfs.search.base import HOW_TO_CHOOSE

SETTINGS = Settings(
    mountpoint=Path("/mnt/web"), cache=Path("/tmp/unused.sqlite"), fetch_timeout=5.0
)
KEYS = {"SERPER_API_KEY": API_KEY, "BRAVE_API_KEY": API_KEY}


def search(
    spec: str, query: str, limit: int, environ: dict[str, str] | None = None
) -> list[SearchResult]:
    backend = backend_from_spec(spec, SETTINGS, environ if environ is not None else KEYS)
    return trio.run(backend.search, query, limit)


def lines(results: list[SearchResult]) -> list[str]:
    return [f"{r.rank}\t{r.title}\t{r.url.split('/', 3)[-1]}\t{r.snippet}" for r in results]


EXPECTED_TOP3 = [
    "1\tRain gardens\tpages/normal.html\tHow a rain garden soaks up storm water.",
    "2\tLost gardens\tpages/missing.html\tA page that is gone.",
    "3\tSlow gardens\tpages/slow.html\tA page that answers too late.",
]


def test_searxng_reads_the_json_api(site: SearchSite) -> None:
    assert lines(search(f"searxng={site.url}", "gardens", 3)) == EXPECTED_TOP3
    request = site.seen("/search")[-1]
    assert request.method == "GET"
    assert request.query == {"q": ["gardens"], "format": ["json"]}
    assert request.headers["user-agent"].startswith("webshellfs/")


def test_searxng_url_may_name_the_search_path(site: SearchSite) -> None:
    assert lines(search(f"searxng={site.url}search", "pdf soil", 5)) == [
        "1\tGarden paper\tpages/paper.pdf\tA PDF about soil and gardens."
    ]


def test_searxng_with_no_hits_is_an_empty_list(site: SearchSite) -> None:
    assert search(f"searxng={site.url}", "volcano", 5) == []


def test_serper_posts_the_query_with_its_key(site: SearchSite) -> None:
    assert lines(search(f"serper={site.url}serper/search", "gardens", 3)) == EXPECTED_TOP3
    request = site.seen("/serper/search")[-1]
    assert (request.method, request.headers["x-api-key"]) == ("POST", API_KEY)
    assert json.loads(request.body) == {"q": "gardens", "num": 3}


def test_brave_gets_the_query_with_its_token(site: SearchSite) -> None:
    assert lines(search(f"brave={site.url}brave/res/v1/web/search", "gardens", 3)) == EXPECTED_TOP3
    request = site.seen("/brave/res/v1/web/search")[-1]
    assert request.query == {"q": ["gardens"], "count": ["3"]}
    assert (request.headers["x-subscription-token"], request.headers["accept"]) == (
        API_KEY,
        "application/json",
    )


def test_brave_caps_count_at_twenty_and_reads_no_web_as_no_results(site: SearchSite) -> None:
    assert search(f"brave={site.url}brave/res/v1/web/search", "volcano", 50) == []
    assert site.seen("/brave/res/v1/web/search")[-1].query["count"] == ["20"]


def test_local_backend_reads_its_index_file(site: SearchSite) -> None:
    results = search(
        f"local={INDEX}", "rain gardens", 3, {"WEBSHELL_SEARCH_BASE": "http://pages.test/"}
    )
    assert [f"{r.rank} {r.url}" for r in results] == [
        "1 http://pages.test/pages/normal.html",
        "2 http://pages.test/pages/missing.html",
        "3 http://pages.test/pages/slow.html",
    ]


@pytest.mark.parametrize(
    ("spec", "environ", "message"),
    [
        ("serper", {}, "search backend serper needs an API key: set SERPER_API_KEY. "),
        (
            "brave",
            {"BRAVE_API_KEY": " "},
            "search backend brave needs an API key: set BRAVE_API_KEY. ",
        ),
        (
            "local=/nonexistent/index.tsv",
            {},
            "search backend local cannot read its index /nonexistent/index.tsv (No such file or directory). ",
        ),
    ],
)
def test_a_backend_missing_what_it_needs_says_so(
    spec: str, environ: dict[str, str], message: str
) -> None:
    with pytest.raises(SearchError) as raised:
        backend_from_spec(spec, SETTINGS, environ)
    assert str(raised.value).startswith(message)
    assert str(raised.value).endswith(HOW_TO_CHOOSE)


def test_local_index_with_relative_urls_needs_a_base() -> None:
    with pytest.raises(
        SearchError, match="has the relative URL '/pages/normal.html': set WEBSHELL_SEARCH_BASE"
    ):
        backend_from_spec(f"local={INDEX}", SETTINGS, {})


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("refuse/search", "is rate limiting us (HTTP 429): wait a while"),
        ("blockpage/search", "answered with something that is not JSON (text/html; a block page?)"),
        ("missing-endpoint/search", "answered HTTP 404"),
    ],
)
def test_searxng_refusals_name_the_backend_and_the_way_out(
    site: SearchSite, path: str, reason: str
) -> None:
    with pytest.raises(SearchError) as raised:
        search(f"searxng={site.url}{path}", "gardens", 3)
    assert str(raised.value) == f"search backend searxng {reason}. {HOW_TO_CHOOSE}"


def test_serper_with_a_wrong_key_is_refused(site: SearchSite) -> None:
    with pytest.raises(SearchError) as raised:
        search(f"serper={site.url}serper/search", "gardens", 3, {"SERPER_API_KEY": "wrong"})
    assert str(raised.value) == (
        "search backend serper refused the request (HTTP 403: bad or missing key, or blocked). "
        + HOW_TO_CHOOSE
    )


def test_an_unreachable_backend_says_where_it_looked() -> None:
    # Port 9 (discard) on loopback: nothing listens there, so the connection is refused at once.
    with pytest.raises(SearchError) as raised:
        search("searxng=http://127.0.0.1:9", "gardens", 3)
    assert str(raised.value).startswith(
        "search backend searxng is unreachable at http://127.0.0.1:9/search (ConnectError: "
    )
    assert str(raised.value).endswith(HOW_TO_CHOOSE)


def test_spec_falls_back_to_the_environment_then_to_ddgs(site: SearchSite) -> None:
    from_env = backend_from_spec("", SETTINGS, {"WEBSHELL_SEARCH": f"searxng={site.url}"})
    assert from_env.name == "searxng"
    assert backend_from_spec("  ", SETTINGS, {}).name == "ddgs"
    assert backend_from_spec("DDGS", SETTINGS, {}).name == "ddgs"


def test_unknown_backend_lists_the_valid_ones() -> None:
    with pytest.raises(SearchError) as raised:
        backend_from_spec("google", SETTINGS, {})
    assert str(raised.value) == f"unknown search backend 'google'. {HOW_TO_CHOOSE}"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "searxng",
            "search backend searxng needs the instance URL: --search searxng=http://HOST:PORT",
        ),
        (
            "searxng=localhost:8888",
            "search backend searxng needs the instance URL: --search searxng=http://HOST:PORT",
        ),
        ("local", "search backend local needs an index file: --search local=PATH/index.tsv"),
    ],
)
def test_a_backend_without_its_address_says_how_to_give_it(spec: str, message: str) -> None:
    with pytest.raises(SearchError) as raised:
        backend_from_spec(spec, SETTINGS, {})
    assert str(raised.value) == f"{message}. {HOW_TO_CHOOSE}"


def test_the_fixture_site_index_covers_the_demo_query() -> None:
    """The demo's `retrieve lighthouse` (five results) meets one of each kind of answer."""
    index = Path(INDEX).with_name("site-index.tsv")
    results = search(
        f"local={index}",
        "lighthouse",
        5,
        {"WEBSHELL_SEARCH_BASE": "http://127.0.0.1:8000/"},
    )
    assert [f"{r.rank} {r.title} {r.url}" for r in results] == [
        "1 The Lighthouse Keepers http://127.0.0.1:8000/article.html",
        "2 Keeper report http://127.0.0.1:8000/report.pdf",
        "3 Keeper records http://127.0.0.1:8000/records.json",
        "4 Lost log book http://127.0.0.1:8000/missing",
        "5 Slow keeper page http://127.0.0.1:8000/slow?delay=5&tag=lighthouse",
    ]
