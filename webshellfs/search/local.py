"""A search index kept in a file, for tests and the offline demo.

The index is a TSV file with the header `url  title  snippet  keywords`; `#` lines are comments.
URLs may be site-relative (`/docs/a.html`) and are then resolved against a base URL: the fixture
site's own address, or WEBSHELL_SEARCH_BASE for `--search local=INDEX`. Matching is plain and
deterministic: a page scores one point per distinct query word found in its title, snippet,
keywords or URL; ties keep index order.

`searxng_payload` answers a query in SearXNG's JSON format, so a fixture web server can offer a
`/search?q=…&format=json` endpoint over its own pages and the searxng backend is tested for real.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from webshellfs.config import Settings
from webshellfs.search.base import SearchResult, ranked, refusal

NAME = "local"
BASE_VARIABLE = "WEBSHELL_SEARCH_BASE"
COLUMNS = ("url", "title", "snippet", "keywords")

_WORDS = re.compile(r"\w+")


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORDS.findall(text)}


@dataclass(frozen=True)
class IndexEntry:
    url: str
    title: str
    snippet: str
    keywords: str

    def score(self, query_words: set[str]) -> int:
        text = f"{self.url} {self.title} {self.snippet} {self.keywords}"
        return len(query_words & words(text))


class LocalIndex:
    """The entries of one index file, URLs already absolute."""

    def __init__(self, entries: list[IndexEntry]) -> None:
        self.entries = entries

    @classmethod
    def load(cls, path: Path, base_url: str = "") -> LocalIndex:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise refusal(NAME, f"cannot read its index {path} ({exc.strerror})") from exc
        entries: list[IndexEntry] = []
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
        if not lines or tuple(lines[0].split("\t")) != COLUMNS:
            raise refusal(
                NAME, f"index {path} must start with the tab-separated header: {' '.join(COLUMNS)}"
            )
        for line in lines[1:]:
            fields = (line.split("\t") + ["", "", ""])[:4]
            url = fields[0].strip()
            if not url.startswith(("http://", "https://")):
                if not base_url:
                    raise refusal(
                        NAME, f"index {path} has the relative URL {url!r}: set {BASE_VARIABLE}"
                        " to the address of the site that serves it"
                    )
                url = urljoin(base_url, url)
            entries.append(IndexEntry(url, fields[1].strip(), fields[2].strip(), fields[3].strip()))
        return cls(entries)

    def matches(self, query: str, limit: int) -> list[IndexEntry]:
        """The best `limit` entries for the query, best first."""
        query_words = words(query)
        scored = [(entry.score(query_words), n, entry) for n, entry in enumerate(self.entries)]
        best = sorted((s for s in scored if s[0]), key=lambda s: (-s[0], s[1]))
        return [entry for _, _, entry in best[:limit]]


def searxng_payload(index: LocalIndex, query: str, limit: int = 20) -> dict[str, Any]:
    """The body SearXNG's `/search?format=json` would give for this query over the index."""
    entries = index.matches(query, limit)
    return {
        "query": query,
        "number_of_results": len(entries),
        "results": [
            {"url": e.url, "title": e.title, "content": e.snippet, "engine": NAME,
             "engines": [NAME], "positions": [rank], "score": 1.0 / rank, "category": "general"}
            for rank, e in enumerate(entries, start=1)
        ],
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }


class LocalBackend:
    name = NAME

    def __init__(self, index: LocalIndex) -> None:
        self.index = index

    async def search(self, query: str, limit: int) -> list[SearchResult]:
        hits = [(e.title, e.url, e.snippet) for e in self.index.matches(query, limit)]
        return ranked(hits, limit)


def create(url: str, settings: Settings, environ: Mapping[str, str]) -> LocalBackend:
    if not url:
        raise refusal(NAME, "needs an index file: --search local=PATH/index.tsv")
    return LocalBackend(LocalIndex.load(Path(url), environ.get(BASE_VARIABLE, "")))
