"""What every search backend shares: the result record, the protocol, and the HTTP call that
turns a refusal (unreachable, rate limit, block page, bad key) into one clear SearchError."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from webshellfs import __version__
from webshellfs.errors import SearchError

USER_AGENT = f"webshellfs/{__version__} (+search; a filesystem of compiled web pages)"

# The one sentence every backend error ends with, so a user always knows the way out.
HOW_TO_CHOOSE = (
    "Choose another backend with --search NAME[=URL] or the WEBSHELL_SEARCH variable "
    "(ddgs, searxng=URL, serper, brave, local=INDEX); `open URL` works without search, and "
    "so do a site's own search box (`search PAGE WORDS`) and its map (`explore URL`)."
)

_TAGS = re.compile(r"<[^>]{0,200}>")
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class SearchResult:
    """One ranked hit. `rank` starts at 1; `snippet` is plain text (tags and entities removed)."""

    rank: int
    title: str
    url: str
    snippet: str


class SearchBackend(Protocol):
    """A web search service. `search` returns at most `limit` results in rank order, ranks 1…n,
    and raises SearchError (naming the backend) when the service fails or refuses."""

    name: str

    async def search(self, query: str, limit: int) -> list[SearchResult]: ...


def plain(text: object) -> str:
    """Search services return snippets with `<strong>` highlights and entities: keep the text."""
    if not isinstance(text, str):
        return ""
    return _WHITESPACE.sub(" ", html.unescape(_TAGS.sub("", text))).strip()


def hits_from(
    records: list[Any], title: str, url: str, snippet: str
) -> list[tuple[object, object, object]]:
    """(title, url, snippet) from each JSON object of a service's result list, by field name."""
    return [(r.get(title), r.get(url), r.get(snippet)) for r in records if isinstance(r, dict)]


def ranked(hits: list[tuple[object, object, object]], limit: int) -> list[SearchResult]:
    """(title, url, snippet) triples → SearchResults ranked 1…n, skipping hits with no
    http(s) URL and repeated URLs (services sometimes list one page twice)."""
    results: list[SearchResult] = []
    seen: set[str] = set()
    for title, url, snippet in hits:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")) or url in seen:
            continue
        seen.add(url)
        results.append(SearchResult(len(results) + 1, plain(title) or url, url, plain(snippet)))
        if len(results) == limit:
            break
    return results


def refusal(backend: str, what: str) -> SearchError:
    return SearchError(f"search backend {backend} {what}. {HOW_TO_CHOOSE}")


def api_key(backend: str, variable: str, environ: Mapping[str, str]) -> str:
    """A keyed backend's key from the environment, or a refusal saying which variable to set."""
    key = environ.get(variable, "").strip()
    if not key:
        raise refusal(backend, f"needs an API key: set {variable}")
    return key


async def request_json(
    backend: str,
    method: str,
    url: str,
    *,
    timeout: float,
    headers: dict[str, str] | None = None,
    params: dict[str, str] | None = None,
    body: dict[str, Any] | None = None,
    hints: Mapping[int, str] | None = None,
) -> Any:
    """One HTTP call to a search API; the decoded JSON, or SearchError saying what went wrong.
    `hints` replaces the generic wording for a status the service gives a known meaning."""
    try:
        async with httpx.AsyncClient(
            timeout=timeout, headers={"User-Agent": USER_AGENT}, follow_redirects=True
        ) as client:
            response = await client.request(method, url, headers=headers, params=params, json=body)
    except httpx.TimeoutException as exc:
        raise refusal(backend, f"did not answer within {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise refusal(backend, f"is unreachable at {url} ({type(exc).__name__}: {exc})") from exc
    status = response.status_code
    if hints and status in hints:
        raise refusal(backend, hints[status])
    if status == 429:
        raise refusal(backend, "is rate limiting us (HTTP 429): wait a while")
    if status in (401, 403):
        raise refusal(
            backend, f"refused the request (HTTP {status}: bad or missing key, or blocked)"
        )
    if status >= 400:
        raise refusal(backend, f"answered HTTP {status}")
    try:
        return json.loads(response.content)
    except ValueError as exc:
        kind = response.headers.get("content-type", "no content type")
        raise refusal(
            backend, f"answered with something that is not JSON ({kind}; a block page?)"
        ) from exc
