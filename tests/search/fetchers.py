"""A fetcher that behaves like a browser tab for prefetch's purposes: every response, whatever
its status, comes back as a Capture with its body (page.goto does not raise on a 403), so bot
walls served with refusal statuses can be recognised. It fetches for real, over httpx."""

from __future__ import annotations

import httpx

from webshellfs.errors import FetchError, FetchTimeout
from webshellfs.fetch import Capture


class BrowserLikeFetcher:
    def __init__(self, timeout: float = 10.0) -> None:
        self.timeout = timeout
        self.fetched: list[str] = []
        # One client for every fetch: making one costs a TLS context, blocking the event loop.
        self._client = httpx.AsyncClient(timeout=timeout, follow_redirects=True)

    async def fetch(self, url: str) -> Capture:
        self.fetched.append(url)
        try:
            response = await self._client.get(url)
        except httpx.TimeoutException as error:
            raise FetchTimeout(f"no answer from {url} within {self.timeout:g} s") from error
        except httpx.HTTPError as error:
            raise FetchError(f"cannot fetch {url}: {error}") from error
        return Capture(
            url,
            str(response.url),
            response.status_code,
            response.headers.get("content-type", ""),
            response.content,
            tuple(response.headers.items()),
        )

    async def aclose(self) -> None:
        await self._client.aclose()
