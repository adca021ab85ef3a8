"""A SearXNG metasearch instance (self-hosted, or the fixture site's): its JSON search API,
`GET URL/search?q=…&format=json` → `{"results": [{"url", "title", "content"}, …]}`."""

from __future__ import annotations

from collections.abc import Mapping

from webshellfs.config import Settings
from webshellfs.search.base import SearchResult, hits_from, ranked, refusal, request_json

NAME = "searxng"


class SearxngBackend:
    name = NAME

    def __init__(self, base_url: str, timeout: float) -> None:
        self.endpoint = base_url.rstrip("/").removesuffix("/search") + "/search"
        self.timeout = timeout

    async def search(self, query: str, limit: int) -> list[SearchResult]:
        data = await request_json(
            NAME,
            "GET",
            self.endpoint,
            params={"q": query, "format": "json"},
            timeout=self.timeout,
            # SearXNG answers 403 when its settings.yml does not list json in search.formats.
            hints={403: "refused JSON (HTTP 403): add json to search.formats in its settings.yml"},
        )
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise refusal(NAME, "answered JSON without a results list")
        return ranked(hits_from(results, "title", "url", "content"), limit)


def create(url: str, settings: Settings, environ: Mapping[str, str]) -> SearxngBackend:
    if not url.startswith(("http://", "https://")):
        raise refusal(NAME, "needs the instance URL: --search searxng=http://HOST:PORT")
    return SearxngBackend(url, timeout=settings.fetch_timeout)
