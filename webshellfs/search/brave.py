"""Brave Search API (keyed): `GET /res/v1/web/search?q=…&count=…` with the key in
X-Subscription-Token → `{"web": {"results": [{"title", "url", "description"}, …]}}`.
The key comes from BRAVE_API_KEY; `brave=URL` points at another endpoint (tests, proxies)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from webshellfs.config import Settings
from webshellfs.search.base import SearchResult, api_key, hits_from, ranked, refusal, request_json

NAME = "brave"
KEY_VARIABLE = "BRAVE_API_KEY"
ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
MAX_COUNT = 20  # the API's ceiling for `count`


@dataclass(frozen=True)
class BraveBackend:
    key: str
    endpoint: str
    timeout: float
    name: ClassVar[str] = NAME

    async def search(self, query: str, limit: int) -> list[SearchResult]:
        data = await request_json(
            NAME,
            "GET",
            self.endpoint,
            headers={"Accept": "application/json", "X-Subscription-Token": self.key},
            params={"q": query, "count": str(min(limit, MAX_COUNT))},
            timeout=self.timeout,
        )
        if not isinstance(data, dict):
            raise refusal(NAME, "answered JSON that is not an object")
        web = data.get("web")
        results = web.get("results") if isinstance(web, dict) else None
        if not isinstance(results, list):
            # Brave leaves `web` out when nothing matched.
            return []
        return ranked(hits_from(results, "title", "url", "description"), limit)


def create(url: str, settings: Settings, environ: Mapping[str, str]) -> BraveBackend:
    return BraveBackend(
        api_key(NAME, KEY_VARIABLE, environ), url or ENDPOINT, timeout=settings.fetch_timeout
    )
