"""Serper (Google results, keyed): `POST /search` with the key in X-API-KEY and a JSON body
`{"q", "num"}` → `{"organic": [{"title", "link", "snippet", "position"}, …]}`.
The key comes from SERPER_API_KEY; `serper=URL` points at another endpoint (tests, proxies)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from webshellfs.config import Settings
from webshellfs.search.base import SearchResult, api_key, hits_from, ranked, refusal, request_json

NAME = "serper"
KEY_VARIABLE = "SERPER_API_KEY"
ENDPOINT = "https://google.serper.dev/search"


@dataclass(frozen=True)
class SerperBackend:
    key: str
    endpoint: str
    timeout: float
    name: ClassVar[str] = NAME

    async def search(self, query: str, limit: int) -> list[SearchResult]:
        data = await request_json(
            NAME,
            "POST",
            self.endpoint,
            headers={"X-API-KEY": self.key},
            body={"q": query, "num": limit},
            timeout=self.timeout,
        )
        organic = data.get("organic") if isinstance(data, dict) else None
        if not isinstance(organic, list):
            raise refusal(NAME, "answered JSON without an organic results list")
        return ranked(hits_from(organic, "title", "link", "snippet"), limit)


def create(url: str, settings: Settings, environ: Mapping[str, str]) -> SerperBackend:
    return SerperBackend(
        api_key(NAME, KEY_VARIABLE, environ), url or ENDPOINT, timeout=settings.fetch_timeout
    )
