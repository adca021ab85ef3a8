"""`retrieve` through a real mount and a served directory: the search fixture site on 127.0.0.1
answers in SearXNG's JSON format over pages that each fail in their own way, and the agent sees
it all with shell commands."""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterator

import pytest

from tests.fs.conftest import Place, sh
from tests.search.site import SLOW_SECONDS, SearchSite, start_site

FETCH_TIMEOUT = 2.0
assert SLOW_SECONDS >= 3 * FETCH_TIMEOUT


@pytest.fixture(scope="module")
def search_site() -> Iterator[SearchSite]:
    running = start_site()
    yield running
    running.stop()


def test_retrieve_reports_every_outcome_and_stores_greppable_pages(
    new_place: Callable[[], Place], search_site: SearchSite
) -> None:
    mount = new_place().start(
        "--search", f"searxng={search_site.url}", "--fetch-timeout", str(FETCH_TIMEOUT)
    )
    pages = search_site.url + "pages/"
    assert mount.ctl(f"open {pages}normal.html").returncode == 0

    result = mount.ctl("retrieve -k 5 gardens")

    assert result.returncode == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if not line.startswith("   ")] == [
        "R0002 ok: retrieve -k 5 gardens",
        'retrieve "gardens": 5 results, 2 pages, 3 failed (searxng) → _search/Q0001.md',
        f'1. N0001 (already stored) "Rain gardens" {pages}normal.html',
        f'2. failed: HTTP 404 — "Lost gardens" {pages}missing.html',
        f'3. failed: timeout: no answer within 2 s — "Slow gardens" {pages}slow.html',
        f'4. N0002 "Garden paper" {pages}paper.pdf',
        f'5. failed: CAPTCHA/bot wall (HTTP 403, cf-challenge) — "Walled gardens" {pages}wall.html',
        "next: cat N0001/_map.md   or grep -rn WORD N0001 N0002",
    ]
    found = sh(f"cd {mount.path} && grep -rn 'Roots need air' N0002/content/")
    assert found.stdout.splitlines() == ["N0002/content/00-intro.md:5:Roots need air."]
    report = sh(f"head -2 {mount.path}/_search/Q0001.md").stdout.splitlines()
    assert report == ["# Q0001: gardens", "backend: searxng"]


@pytest.mark.parametrize(
    ("query", "reason"),
    [("", "needs a query"), ("x" * 500, "the query is 500 characters; the limit is 400")],
)
def test_bad_queries_fail_the_write_with_the_reason(
    place: Place, query: str, reason: str
) -> None:
    result = place.ctl(f"retrieve {query}".rstrip())

    place.assert_failed(result, errno.EINVAL)
    assert reason in result.stdout
