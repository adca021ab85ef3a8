"""The offline demo (`./mount.sh --demo`): its search index over the fixture site answers
`retrieve lighthouse` with what README.md promises — a page, a real PDF, JSON, a 404 and a slow
page — each result a readable page or its reason. Through the engine, as the mount runs it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.site import FixtureSite
from tests.test_engine import run, text
from webshellfs.engine import Engine, Outcome

INDEX = Path(__file__).resolve().parent.parent / "fixtures" / "search" / "site-index.tsv"
PAGE_ID = re.compile(r"N\d{4}")


def content(engine: Engine, page: str) -> str:
    """Every content/ file of the page, in order."""
    files = engine.listdir(f"{page}/content")
    return "".join(text(engine, f"{page}/content/{entry.name}") for entry in files)


def test_retrieve_lighthouse_shows_each_kind_of_result_and_the_failure_reason(
    tmp_path: Path, site: FixtureSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSHELL_SEARCH_BASE", site.url("/"))

    async def body(engine: Engine) -> None:
        response = await engine.command("retrieve lighthouse", "s1")
        assert response.outcome is Outcome.OK
        lines = [line for line in response.text.splitlines() if not line.startswith("   ")]
        # Page numbers follow the order the fetches finished in, so they are read, not assumed.
        assert [PAGE_ID.sub("N….", line) for line in lines[:7]] == [
            "R0001 ok: retrieve lighthouse",
            'retrieve "lighthouse": 5 results, 4 pages, 1 failed (local) → _search/Q0001.md',
            f'1. N…. "The Lighthouse Keepers" {site.url("/article.html")}',
            f'2. N…. "Keeper report" {site.url("/report.pdf")}',
            f'3. N…. "Keeper records" {site.url("/records.json")}',
            f'4. failed: HTTP 404 — "Lost log book" {site.url("/missing")}',
            f'5. N…. "Slow keeper page" {site.url("/slow?delay=5&tag=lighthouse")}',
        ]
        article, report, records, slow = (PAGE_ID.search(lines[n])[0] for n in (2, 3, 4, 6))
        assert "Skerry Light" in content(engine, article)
        assert "Oil used in the winter quarter: 412 gallons." in content(engine, report)
        assert text(engine, f"{records}/tables/T01.tsv").splitlines()[:2] == [
            "date\tkeeper\toil_gallons\tfog_horn",
            "1921-01-04\tAnn Lindsay\t4.5\tfalse",
        ]
        assert "This page took 5.0 seconds" in content(engine, slow)

    run(tmp_path, body, search=f"local={INDEX}")
